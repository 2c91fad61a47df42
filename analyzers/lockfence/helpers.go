package lockfence

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"github.com/locklint/locklint/analyzers/internal/section"
	"github.com/locklint/locklint/analyzers/internal/stores"
)

// redisHelpers finds the Redis writes that helpers of this package make
// for a section: s.setPending(ctx, ids) whose body sends ZADD to another
// key is a write under the caller's lock, reported at the call.
//
// Only helpers of this package are followed (to depth 3): a Redis write
// behind another package's API is mostly a cache, and this package's
// own helpers show their keys. Helpers named as caches or as lock
// operations are left out: a cache fill is not the data the lock
// guards, and a lock helper's SET is the lock itself.
type redisHelpers struct {
	// guardsStore holds the lock key families that guard a store of
	// record somewhere (storeLocks): under them, cache helpers' writes
	// count.
	guardsStore map[string]bool

	pass   *analysis.Pass
	res    *section.Result
	stores *stores.Result
	declOf map[*types.Func]*ast.FuncDecl
	memo   map[memoKey][]*ast.CallExpr
	calls  map[*types.Func]int // call sites per function of this package
}

type memoKey struct {
	fd     *ast.FuncDecl
	caches bool
}

func newRedisHelpers(pass *analysis.Pass, res *section.Result, helpers *stores.Result) *redisHelpers {
	h := &redisHelpers{pass: pass, res: res, stores: helpers, declOf: map[*types.Func]*ast.FuncDecl{}, memo: map[memoKey][]*ast.CallExpr{}}
	h.calls = map[*types.Func]int{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					h.declOf[fn] = fd
				}
			}
		}
		callee := map[*ast.Ident]bool{} // identifiers in call position
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if fn, ok := typeutil.Callee(pass.TypesInfo, n).(*types.Func); ok {
					h.calls[fn.Origin()]++
					switch f := ast.Unparen(n.Fun).(type) {
					case *ast.Ident:
						callee[f] = true
					case *ast.SelectorExpr:
						callee[f.Sel] = true
					}
				}
			case *ast.Ident:
				// A method or func value (not called here) may run anywhere.
				if fn, ok := pass.TypesInfo.Uses[n].(*types.Func); ok && !callee[n] {
					h.calls[fn.Origin()] += 2
				}
			}
			return true
		})
	}
	return h
}

// writes returns the Redis writes call makes through a helper of this
// package, as Writes at call (the write's position in What). A write in
// the called helper itself whose key is made from a parameter the lock's
// token reaches (token) is left out: see keyedBy.
func (h *redisHelpers) writes(call *ast.CallExpr, s *section.Section, token *section.Flow) []*stores.Write {
	fn, _ := typeutil.Callee(h.pass.TypesInfo, call).(*types.Func)
	if fn == nil {
		return nil
	}
	fd := h.declOf[fn.Origin()]
	if fd == nil {
		return nil
	}
	var tokenParams []types.Object
	params := fn.Origin().Type().(*types.Signature).Params()
	for i, a := range call.Args {
		if i < params.Len() && token.Reaches(a) {
			tokenParams = append(tokenParams, params.At(i))
		}
	}
	var inHelper *section.Flow
	if len(tokenParams) > 0 {
		inHelper = section.NewFlowFrom(h.pass.TypesInfo, fd, tokenParams...)
	}
	caches := s.Lock.Key.Family() != "" && h.guardsStore[s.Lock.Key.Family()]
	var out []*stores.Write
	for _, site := range h.sites(fd, 0, map[*ast.FuncDecl]bool{}, caches) {
		w := h.classify(site)
		if w == nil {
			continue
		}
		if inHelper != nil && within(site, fd) && keyedBy(inHelper, w) {
			continue
		}
		// The caller's arguments stand for what reaches the write: a
		// fence handed to the helper counts as fencing it.
		at := h.pass.Fset.Position(site.Pos())
		what := fmt.Sprintf("%s (%s at %s:%d)", types.ExprString(call.Fun), w.What, filepath.Base(at.Filename), at.Line)
		out = append(out, &stores.Write{Kind: stores.Redis, Call: call, What: what, Values: call.Args, Cmd: w.Cmd})
	}
	return out
}

func (h *redisHelpers) classify(site *ast.CallExpr) *stores.Write {
	for _, fd := range h.declsOf(site) {
		for _, c := range h.res.Lifecycle.Calls[fd] {
			if c.Call == site && c.Cmd != nil {
				return stores.Classify(h.pass.TypesInfo, h.res.Defs, site, c.Cmd)
			}
		}
	}
	return nil
}

func (h *redisHelpers) declsOf(site *ast.CallExpr) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, fd := range h.declOf {
		if fd.Pos() <= site.Pos() && site.End() <= fd.End() {
			out = append(out, fd)
		}
	}
	return out
}

// sites lists the Redis write calls in fd and the helpers it calls.
func (h *redisHelpers) sites(fd *ast.FuncDecl, depth int, seen map[*ast.FuncDecl]bool, caches bool) []*ast.CallExpr {
	if seen[fd] || depth > 3 || helperExcluded(fd, caches) {
		return nil
	}
	seen[fd] = true
	memo := memoKey{fd, caches}
	if s, ok := h.memo[memo]; ok && depth == 0 {
		return s
	}
	var out []*ast.CallExpr
	for _, c := range h.res.Lifecycle.Calls[fd] {
		if c.Cmd != nil {
			if w := stores.Classify(h.pass.TypesInfo, h.res.Defs, c.Call, c.Cmd); w != nil && w.Kind == stores.Redis && !inClosure(fd, c.Call) {
				out = append(out, c.Call)
			}
			continue
		}
		if fn, _ := typeutil.Callee(h.pass.TypesInfo, c.Call).(*types.Func); fn != nil {
			if inner := h.declOf[fn.Origin()]; inner != nil {
				out = append(out, h.sites(inner, depth+1, seen, caches)...)
			}
		}
	}
	if depth == 0 {
		h.memo[memo] = out
	}
	return out
}

// helperExcluded: helpers named as lock operations, and as caches unless
// caches count (the lock also guards a store of record).
func helperExcluded(fd *ast.FuncDecl, caches bool) bool {
	names := []string{fd.Name.Name}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		names = append(names, types.ExprString(fd.Recv.List[0].Type))
	}
	for _, n := range names {
		n = strings.ToLower(n)
		for _, w := range []string{"lock", "mutex", "lease", "acquire", "release", "renew", "refresh", "extend"} {
			if strings.Contains(n, w) {
				return true
			}
		}
		if !caches && strings.Contains(n, "cache") {
			return true
		}
	}
	return false
}

// inClosure reports whether call is inside a function literal of fd (a
// goroutine or a callback: not run on the helper's own path).
func inClosure(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	in := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && lit.Pos() <= call.Pos() && call.End() <= lit.End() {
			in = true
		}
		return !in
	})
	return in
}

// persistentSets returns the SETs without expiry that a call makes
// through another package's Redis wrapper (svc.Set(ctx, key, v) whose
// body sends SET key v 0): a key kept without a TTL is a store of record,
// not a cache. Wrappers that set a TTL are taken for caches, unless the
// wrapper makes the key itself and its type or package is named as a
// store (GameStateStorage.Save(ctx, state, ttl) keying by state.RoomID):
// a store's state kept with a TTL is still its state. Keys,
// helpers and receivers named as caches are left out, and with a TTL
// also those named as statistics, limits, sessions, presence, dedup.
func persistentSets(pass *analysis.Pass, res *section.Result, s *section.Section, call *ast.CallExpr) []*stores.Write {
	if fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func); fn != nil && stores.Modeled(fn) {
		return nil // a GoFrame Model.Scan fills its query cache: a read, as modelled
	}
	var out []*stores.Write
	for _, op := range res.Lifecycle.Ops {
		if op.Call != call || op.Kind != lifecycle.Write || op.Via == nil || op.Via.Pkg() == pass.Pkg || op.Lock() != nil && op.Lock().IsLock(pass) {
			continue
		}
		pkgName := op.Via.Pkg().Name()
		if locklib.IsLibPath(op.Via.Pkg().Path()) {
			// A lock library's own client (redis_lock.Client.Set) keeps
			// the application's data: its name says nothing of the keys.
			pkgName = ""
		}
		named := strings.ToLower(op.KeyText() + " " + lifecycle.FuncName(op.Via) + " " + pkgName)
		if op.TTL && (op.KeyExpr != nil || !namedStore(named)) {
			continue // a generic wrapper given the key and a TTL: taken for a cache
		}
		if strings.Contains(named, "cache") || strings.Contains(named, "lock") {
			continue
		}
		if s.Lock.Key.Known() && keyexpr.Same(op.Key, s.Lock.Key, true) {
			continue
		}
		out = append(out, &stores.Write{
			Kind: stores.Redis, Call: call, Values: call.Args,
			What: fmt.Sprintf("%s (Redis %s at %s)", types.ExprString(call.Fun), op.Command, op.ViaWhere),
		})
	}
	return out
}

// inlinedWrite returns the write inside the helper call goes to when the
// helper is unexported, of this package and used only at this call (its
// code is the section's own, moved out), or nil: the one at site
// (file:line) when the helper's summary names it, else the first. Helpers
// of the same kind that it calls are its own code too (tick calls
// processDueJobs calls runJob, each once: the report is at runJob's
// UPDATE). When site is further away (in a repository of another
// package), the write is the helper's call that reaches it, also inside
// a function it passes to a call that runs it (a transaction wrapper's
// callback).
func (h *redisHelpers) inlinedWrite(call *ast.CallExpr, site string) *stores.Write {
	fd := h.inlinable(call)
	if fd == nil {
		return nil
	}
	return h.writeIn(fd, site, 0)
}

// localWrite returns the write at site (file:line) inside the helper of
// this package that call goes to, or nil.
func (h *redisHelpers) localWrite(call *ast.CallExpr, site string) *stores.Write {
	fn, _ := typeutil.Callee(h.pass.TypesInfo, call).(*types.Func)
	if fn == nil || site == "" {
		return nil
	}
	fd := h.declOf[fn.Origin()]
	if fd == nil || fd.Body == nil {
		return nil
	}
	w := h.writeIn(fd, site, 0)
	if w == nil || w.Site() != site && !sameSite(h.pass, w.Call, site) {
		return nil
	}
	return w
}

// sameSite reports whether call is at site (file:line).
func sameSite(pass *analysis.Pass, call *ast.CallExpr, site string) bool {
	p := pass.Fset.Position(call.Pos())
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line) == site
}

// local reports whether call goes to a function declared in this package
// (whose code is followed, or is shared, as inlinable says).
func (h *redisHelpers) local(call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(h.pass.TypesInfo, call).(*types.Func)
	return fn != nil && h.declOf[fn.Origin()] != nil
}

// inlinable returns the declaration of the helper call goes to when it
// is unexported, of this package and called only there, or nil.
func (h *redisHelpers) inlinable(call *ast.CallExpr) *ast.FuncDecl {
	fn, _ := typeutil.Callee(h.pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Exported() {
		return nil
	}
	fd := h.declOf[fn.Origin()]
	if fd == nil || fd.Body == nil || h.calls[fn.Origin()] != 1 {
		return nil
	}
	return fd
}

func (h *redisHelpers) writeIn(fd *ast.FuncDecl, site string, depth int) *stores.Write {
	cmds := map[*ast.CallExpr]*redismodel.Command{}
	for _, c := range h.res.Lifecycle.Calls[fd] {
		if c.Cmd != nil {
			cmds[c.Call] = c.Cmd
		}
	}
	// Callbacks passed to a call run as part of it, unless the call is
	// started by go or defer.
	callbacks := map[*ast.FuncLit]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			for _, a := range n.Args {
				if lit, ok := a.(*ast.FuncLit); ok {
					callbacks[lit] = true
				}
			}
		}
		return true
	})
	var first, reaching *stores.Write
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && !callbacks[lit] || first != nil {
			return false
		}
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if site != "" && reaching == nil && h.stores != nil && !h.local(c) {
			for _, hw := range h.stores.Helper(h.pass.TypesInfo, c) {
				if hw.Site() == site {
					reaching = hw
				}
			}
		}
		if inner := h.inlinable(c); inner != nil && inner != fd && depth < 3 {
			if w := h.writeIn(inner, site, depth+1); w != nil {
				first = w
				return false
			}
		}
		if site != "" {
			p := h.pass.Fset.Position(c.Pos())
			if fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line) != site {
				return true
			}
		}
		if w := stores.Classify(h.pass.TypesInfo, h.res.Defs, c, cmds[c]); w != nil && w.Kind != stores.Fenced {
			first = w
		}
		return first == nil
	})
	if first == nil {
		return reaching
	}
	return first
}

// namedStore reports whether a Redis wrapper, by its key, name, type or
// package, is a store of state (storage, store, repository) and not a
// cache, statistics, a limit, a session, presence, dedup or a short-lived
// credential.
func namedStore(named string) bool {
	if stores.NamedNotRecord(named) {
		return false
	}
	// Short-lived credentials are kept like sessions: a one-time code, a
	// verification or captcha answer, a token.
	for _, w := range []string{"otp", "captcha", "verif", "nonce", "token"} {
		if strings.Contains(named, w) {
			return false
		}
	}
	return strings.Contains(named, "storage") || strings.Contains(named, "store") || strings.Contains(named, "repo")
}
