package redismodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
)

// Context says where a call runs.
type Context struct {
	Decl *ast.FuncDecl // enclosing declared function; nil at package level
	Lit  *ast.FuncLit  // innermost enclosing function literal, if any

	InDefer bool // in a deferred call, or in a literal a defer runs
	InGo    bool // in a goroutine started by a go statement

	// Multi is true when the command is queued inside MULTI/EXEC: on a
	// TxPipeline, in a TxPipelined callback (Pipelined on a v6 Tx), in a
	// rueidis DoMulti that starts with MULTI, or between redigo MULTI and
	// EXEC. Queued commands run atomically, and their results are not
	// available until EXEC.
	Multi bool
	// Pipeline is true for a non-transactional pipeline (Pipeline,
	// Pipelined): batched, but not atomic.
	Pipeline bool
	// Watch is set inside an optimistic transaction: the callback of
	// go-redis Watch, or after a redigo WATCH until EXEC/DISCARD/UNWATCH.
	// It identifies the transaction, so reads and queued writes of one
	// WATCH can be grouped.
	Watch ast.Node
}

// Call is one call expression in a function body, with the command it
// sends (nil when it is not a Redis command: a helper, a wrapper, ...).
type Call struct {
	Call *ast.CallExpr
	Cmd  *Command
	In   Context
}

// ScanOptions configure Scan.
type ScanOptions struct {
	// Defs is the package's single-assignment table; built if nil.
	Defs *keyexpr.Defs
	// ImportedScript returns the Lua text behind a package-level variable
	// of another package (from a fact). May be nil.
	ImportedScript func(*types.Var) (ScriptValue, bool)
	// ImportedClient reports whether an interface of another package is
	// marked with ClientDirective (from a fact). May be nil.
	ImportedClient func(*types.TypeName) bool
	// ImportedRaw reports whether a function of another package forwards
	// its command name and arguments to redigo (from a fact, see
	// RawWrappers). May be nil.
	ImportedRaw func(*types.Func) bool
}

// ImportsClient reports whether pkg imports a supported Redis client
// directly.
func ImportsClient(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if IsClientPackage(imp.Path()) {
			return true
		}
	}
	return false
}

// IsClientPackage reports whether path is a supported client package.
func IsClientPackage(path string) bool {
	return isGoRedis(path) || isRedigo(path) || isRueidis(path) || isGoFrame(path) || isGoZero(path) || isRadix(path) || isRadixV2(path)
}

// Scan visits every call expression inside function bodies (and
// package-level initializers) of the pass, in source order, with its
// command model and context.
func Scan(pass *analysis.Pass, opts ScanOptions, visit func(Call)) {
	defs := opts.Defs
	if defs == nil {
		defs = keyexpr.NewDefs(pass.TypesInfo, pass.Files)
	}
	p := newParser(pass, defs, opts.ImportedScript)
	p.importedClient = opts.ImportedClient
	p.importedRaw = opts.ImportedRaw
	for _, f := range pass.Files {
		s := &scanner{p: p, visit: visit, roles: map[*ast.FuncLit]role{}}
		s.findRoles(f)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			s.raw = rawTx{}
			s.walk(fd.Body, Context{Decl: fd})
		}
	}
}

// ParseCall models a single call with no context (tests, quick checks).
func ParseCall(pass *analysis.Pass, call *ast.CallExpr) *Command {
	p := newParser(pass, keyexpr.NewDefs(pass.TypesInfo, pass.Files), nil)
	return p.command(call)
}

// command models one call, or returns nil.
func (p *parser) command(call *ast.CallExpr) *Command {
	fn, _ := typeutil.Callee(p.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	path := fn.Pkg().Path()
	switch {
	case isGoRedis(path):
		return p.goRedis(call, fn)
	case isRedigo(path):
		return p.redigo(call, fn)
	case isRueidis(path):
		return p.rueidis(call, fn)
	case isGoFrame(path):
		return p.goFrame(call, fn)
	case isGoZero(path):
		return p.goZero(call, fn)
	case isRadix(path):
		return p.radix(call, fn)
	case isRadixV2(path):
		return p.radixV2(call, fn)
	case p.isRaw(fn):
		return p.redigo(call, fn)
	case goRedisSubset(fn) || p.optedIn(fn):
		return p.goRedis(call, fn)
	}
	return nil
}

type role int

const (
	roleNone  role = iota
	roleMulti      // TxPipelined callback
	rolePipe       // Pipelined callback
	roleWatch      // Watch callback
)

// rawTx tracks MULTI/WATCH sent as raw commands (redigo, Do).
type rawTx struct {
	multi bool
	watch ast.Node
}

type scanner struct {
	p     *parser
	visit func(Call)
	roles map[*ast.FuncLit]role
	raw   rawTx
	// multiRanges are rueidis DoMulti calls that start with MULTI.
	multiRanges [][2]token.Pos
	// pipeRanges are actions put in a radix pipeline.
	pipeRanges [][2]token.Pos
}

// findRoles marks function literals passed (directly or through a local
// variable) to Watch, TxPipelined and Pipelined.
func (s *scanner) findRoles(f *ast.File) {
	info := s.p.info
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil {
			return true
		}
		path := fn.Pkg().Path()
		if isRueidis(path) && fn.Name() == "DoMulti" && len(call.Args) > 1 {
			if first, ok := ast.Unparen(call.Args[1]).(*ast.CallExpr); ok {
				if c := s.p.command(first); c != nil && c.Name == "MULTI" {
					s.multiRanges = append(s.multiRanges, [2]token.Pos{call.Pos(), call.End()})
				}
			}
			return true
		}
		if isRadix(path) && (fn.Name() == "Pipeline" && fn.Type().(*types.Signature).Recv() == nil ||
			fn.Name() == "Append" && recvNamed(fn.Type().(*types.Signature)) == "Pipeline") {
			// radix.Pipeline(actions...) (v3), pipeline.Append(action) (v4).
			for _, a := range call.Args {
				s.pipeRanges = append(s.pipeRanges, [2]token.Pos{a.Pos(), a.End()})
			}
			return true
		}
		if !isGoRedis(path) {
			return true
		}
		var r role
		switch fn.Name() {
		case "TxPipelined":
			r = roleMulti
		case "Pipelined":
			r = rolePipe
			// Only go-redis v6 wraps Tx.Pipelined in MULTI/EXEC; from v7 on
			// it is a plain pipeline on the watched connection.
			if path == "github.com/go-redis/redis" && recvNamed(fn.Type().(*types.Signature)) == "Tx" {
				r = roleMulti
			}
		case "Watch":
			// go-redis sends WATCH only for the keys after the callback:
			// Watch(ctx, fn) with none watches nothing, and the callback's
			// GET, compare and MULTI/DEL is a plain check-then-act.
			if !watchesKeys(call, s.funcLit) {
				return true
			}
			r = roleWatch
		default:
			return true
		}
		for _, a := range call.Args {
			if lit := s.funcLit(a); lit != nil {
				s.roles[lit] = r
			}
		}
		return true
	})
}

// watchesKeys reports whether a go-redis Watch call passes keys after its
// callback (Watch(ctx, fn, key) or Watch(ctx, fn, keys...)).
func watchesKeys(call *ast.CallExpr, funcLit func(ast.Expr) *ast.FuncLit) bool {
	for i, a := range call.Args {
		if funcLit(a) != nil {
			return i+1 < len(call.Args)
		}
	}
	return true // a callback we cannot see: assume it is watched, as before
}

func (s *scanner) funcLit(e ast.Expr) *ast.FuncLit {
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return e
	case *ast.Ident:
		if v, ok := s.p.info.Uses[e].(*types.Var); ok {
			if lit, ok := s.p.defs.Single(v).(*ast.FuncLit); ok {
				return lit
			}
		}
	}
	return nil
}

func (s *scanner) walk(root ast.Node, ctx Context) {
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			inner := ctx
			inner.Lit = n
			switch s.roles[n] {
			case roleMulti:
				inner.Multi = true
			case rolePipe:
				inner.Pipeline = true
			case roleWatch:
				inner.Watch = n
			}
			s.walk(n.Body, inner)
			return false
		case *ast.DeferStmt:
			inner := ctx
			inner.InDefer = true
			s.walk(n.Call, inner)
			return false
		case *ast.GoStmt:
			inner := ctx
			inner.InGo = true
			s.walk(n.Call, inner)
			return false
		case *ast.CallExpr:
			// Visit arguments first: in f(g()), g runs before f.
			for _, a := range n.Args {
				s.walk(a, ctx)
			}
			s.walk(n.Fun, ctx)
			s.call(n, ctx)
			return false
		}
		return true
	})
}

func (s *scanner) call(call *ast.CallExpr, ctx Context) {
	cmd := s.p.command(call)
	if cmd != nil {
		s.pipelineState(cmd, &ctx)
		switch cmd.Name {
		case "MULTI":
			s.raw.multi = true
		case "EXEC", "DISCARD":
			s.raw = rawTx{}
		case "WATCH":
			if cmd.Client != GoRedis || isDo(cmd) {
				s.raw.watch = call
			}
		}
		if s.raw.multi && cmd.Name != "MULTI" {
			ctx.Multi = true
		}
		if s.raw.watch != nil && ctx.Watch == nil {
			ctx.Watch = s.raw.watch
		}
		for _, r := range s.multiRanges {
			if r[0] <= call.Pos() && call.End() <= r[1] {
				ctx.Multi = true
			}
		}
		for _, r := range s.pipeRanges {
			if r[0] <= call.Pos() && call.End() <= r[1] {
				ctx.Pipeline = true
			}
		}
		if cmd.Client == RadixV2 && cmd.Method.Name() == "PipeAppend" {
			ctx.Pipeline = true
		}
		cmd.In = ctx
	}
	s.visit(Call{Call: call, Cmd: cmd, In: ctx})
}

func isDo(cmd *Command) bool { return cmd.Method != nil && cmd.Method.Name() == "Do" }

// pipelineState marks commands sent on a pipeline made by TxPipeline()
// (atomic) or Pipeline() (not atomic).
func (s *scanner) pipelineState(cmd *Command, ctx *Context) {
	if cmd.Client != GoRedis || cmd.Recv == nil {
		return
	}
	src := cmd.Recv
	if id, ok := ast.Unparen(src).(*ast.Ident); ok {
		if v, ok := s.p.info.Uses[id].(*types.Var); ok {
			if def := s.p.defs.Single(v); def != nil {
				src = def
			}
		}
	}
	c, ok := ast.Unparen(src).(*ast.CallExpr)
	if !ok {
		return
	}
	fn, _ := typeutil.Callee(s.p.info, c).(*types.Func)
	if fn == nil || fn.Pkg() == nil || !isGoRedis(fn.Pkg().Path()) {
		return
	}
	switch fn.Name() {
	case "TxPipeline":
		ctx.Multi = true
	case "Pipeline":
		ctx.Pipeline = true
	}
}

// goRedisSubset reports whether fn is a method of a project's own
// interface that declares a go-redis command method with its go-redis
// result (Expire(ctx, key, ttl) *redis.BoolCmd): a subset of the client,
// implemented by it, so calls are that command whatever the package.
func goRedisSubset(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || sig.Results().Len() != 1 {
		return false
	}
	ptr, ok := sig.Results().At(0).Type().(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || !isGoRedis(named.Obj().Pkg().Path()) {
		return false
	}
	return strings.HasSuffix(named.Obj().Name(), "Cmd")
}
