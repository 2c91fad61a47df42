package stores

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/callorder"
	"github.com/locklint/locklint/analyzers/internal/gostd"
	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/later"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"github.com/locklint/locklint/analyzers/internal/section"
	"github.com/locklint/locklint/analyzers/internal/soleimpl"
)

// Analyzer summarises the SQL, gorm, file and fence-helper writes every
// function makes, directly or through the helpers it calls, as a
// [WriteFact], so a rule sees that s.repo.Save(ctx, o) (a concrete
// function, in this package or another) writes to a database, and which
// of its parameters reach the write. Its Result maps each call of this
// package to such a helper onto the writes it makes.
//
// Redis writes are mostly left out of the summaries: through helpers they
// are mostly caches, and the lifecycle model already follows Redis keys.
// The exception is a record kept in a Redis structure (see
// [RecordWrite]): a job's hash, a queue's list, an index's sorted set.
var Analyzer = &analysis.Analyzer{
	Name:             "lockstores",
	Doc:              "summarises the store writes (SQL, gorm, files) each function makes, for locklint rules",
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/internal/stores/stores.go",
	Requires:         []*analysis.Analyzer{later.Analyzer, lifecycle.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
	ResultType:       reflect.TypeFor[*Result](),
	FactTypes:        []analysis.Fact{new(WriteFact), new(RowLockFact), new(PackageFact)},
}

// PackageFact marks a package with write summaries; packages that import
// no store and no such package are skipped.
type PackageFact struct{}

func (*PackageFact) AFact() {}

func (*PackageFact) String() string { return "writes to stores" }

// storePaths are the packages whose calls are writes.
var storePaths = map[string]bool{
	"database/sql": true, "github.com/jmoiron/sqlx": true, "gorm.io/gorm": true,
	"github.com/jinzhu/gorm": true, "os": true, locklib.FencePath: true,
	"github.com/jackc/pgx/v5": true, "github.com/jackc/pgx/v5/pgxpool": true,
	"github.com/jackc/pgx/v4": true, "github.com/jackc/pgx/v4/pgxpool": true,
	"xorm.io/xorm": true, "github.com/go-xorm/xorm": true,
}

// modeledPaths are the store APIs [Classify] models method by method,
// beside storePaths: their calls are classified by that model, never by
// what their implementation reaches. A GoFrame Model.Scan reads; that it
// also fills the query cache in Redis (gcache's adapter) is not a write
// the caller's lock protects.
var modeledPaths = map[string]bool{
	"github.com/gogf/gf/v2/database/gdb": true, "github.com/gogf/gf/database/gdb": true,
	"go.mongodb.org/mongo-driver/mongo": true, "go.mongodb.org/mongo-driver/v2/mongo": true,
	"gopkg.in/mgo.v2": true, "github.com/globalsign/mgo": true,
}

// Modeled reports whether fn belongs to a store or Redis client API that
// locklint models itself: what fn writes is what the model says, not
// what its implementation reaches.
func Modeled(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	return storePaths[path] || modeledPaths[path] || redismodel.IsClientPackage(path)
}

// relevant reports whether the package imports a store (one of
// storePaths or modeledPaths: a repository over MongoDB alone writes as
// much as one over SQL), a package with write summaries, or an ent client
// generated into the module.
func relevant(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		if storePaths[imp.Path()] || modeledPaths[imp.Path()] || redismodel.IsClientPackage(imp.Path()) || pass.ImportPackageFact(imp, new(PackageFact)) || importsEnt(imp) {
			return true
		}
	}
	return false
}

// WriteFact lists the writes a function makes.
type WriteFact struct{ Writes []FactWrite }

func (*WriteFact) AFact() {}

func (f *WriteFact) String() string {
	var parts []string
	for _, w := range f.Writes {
		parts = append(parts, w.String())
	}
	return strings.Join(parts, "; ")
}

// FactWrite is one summarised write.
type FactWrite struct {
	Kind  Kind
	What  string // "database/sql DB.ExecContext"
	Where string // file:line of the write
	// Reach lists the parameters whose values reach the write; Cond the
	// parameters bound to a fence condition of its statement.
	Reach, Cond []int
	NeedsCond   bool // the write overwrites (UPDATE, DELETE, gorm Save, ...)
	SelfGuarded bool // its statement refuses to overwrite (see Write.SelfGuarded)
	RowLocked   bool // it runs after a row lock of its transaction (see Result.RowLocked)
	Claimed     bool // it runs after a claim the function made (see Claims)
	// RefusesByError: the write is self-guarded and the function returns
	// an error when it changed no row, so a caller's test of that error
	// claims the row as a row-count test would.
	RefusesByError bool
	CondKnown      bool // the statement text is fully known

	// A wrapper that runs SQL text it gets as parameter QueryParam
	// (HasQuery): callers read the text at the call. Binds are the
	// parameters bound to the statement's fixed placeholders (-1:
	// unknown), Variadic the parameter whose variadic values follow (-1:
	// none).
	HasQuery             bool
	QueryParam, Variadic int
	Binds                []int
}

func (w FactWrite) String() string {
	s := fmt.Sprintf("%s at %s reach%v cond%v", w.What, w.Where, w.Reach, w.Cond)
	if w.RowLocked {
		s += " row-locked"
	}
	if w.Claimed {
		s += " claimed"
	}
	return s
}

// maxWrites bounds a fact's size; a helper with more writes is summarised
// by its first ones.
const maxWrites = 8

// Result maps calls of this package to the writes of the helper they call.
type Result struct {
	Calls map[*ast.CallExpr][]FactWrite
	defs  *keyexpr.Defs
	rows  *rowLocker
}

// RowLocked reports whether w, a write found within root (a function),
// runs in a database transaction after a row lock (SELECT ... FOR
// UPDATE, gorm's clause.Locking) taken through the same handle earlier in
// the function around it, directly or in a helper; or, for a write made
// in a helper, after one the helper took. The database then serialises
// it with the newer holder's transaction.
func (r *Result) RowLocked(root ast.Node, w *Write) bool {
	if r.rows == nil {
		return w.via != nil && w.via.RowLocked
	}
	return r.rows.isRowLocked(root, w)
}

// Site returns the file:line where a write made through a helper lands
// ("" for a write made at its call).
func (w *Write) Site() string {
	if w.via == nil {
		return ""
	}
	return w.via.Where
}

// Helper returns the writes a call makes through a helper, as Writes with
// the call's arguments as their values, or nil.
func (r *Result) Helper(info *types.Info, call *ast.CallExpr) []*Write {
	fws := r.Calls[call]
	if len(fws) == 0 {
		return nil
	}
	name := types.ExprString(call.Fun)
	var out []*Write
	for i := range fws {
		fw := &fws[i]
		if fw.HasQuery {
			if w := resolveQuery(info, r.defs, call, fw); w != nil {
				w.What = fmt.Sprintf("%s (%s at %s)", name, fw.What, fw.Where)
				out = append(out, w)
			}
			continue
		}
		w := &Write{Kind: fw.Kind, Call: call, What: fmt.Sprintf("%s (%s at %s)", name, fw.What, fw.Where), via: fw}
		for _, p := range fw.Reach {
			w.Values = append(w.Values, argsOf(info, call, p)...)
		}
		for _, p := range fw.Cond {
			w.condArgs = append(w.condArgs, argsOf(info, call, p)...)
		}
		out = append(out, w)
	}
	return out
}

// argsOf returns the arguments bound to parameter p (all the variadic
// ones for the last parameter of a variadic function).
func argsOf(info *types.Info, call *ast.CallExpr, p int) []ast.Expr {
	if p < 0 || p >= len(call.Args) {
		return nil
	}
	if fn, _ := typeutil.Callee(info, call).(*types.Func); fn != nil {
		sig := fn.Type().(*types.Signature)
		if sig.Variadic() && p == sig.Params().Len()-1 {
			return call.Args[p:]
		}
	}
	return []ast.Expr{call.Args[p]}
}

// resolveQuery reads the SQL text a call passes to a wrapper and makes
// it a Write when it is a write.
func resolveQuery(info *types.Info, defs *keyexpr.Defs, call *ast.CallExpr, fw *FactWrite) *Write {
	q := argsOf(info, call, fw.QueryParam)
	if len(q) != 1 {
		return nil
	}
	text, complete := Text(info, defs, q[0])
	if !IsWriteSQL(text) {
		return nil
	}
	w := &Write{Kind: SQL, Call: call, What: fw.What, Query: text, Complete: complete, QueryExpr: q[0], Values: call.Args}
	for _, b := range fw.Binds {
		if b >= 0 && b < len(call.Args) {
			w.Params = append(w.Params, call.Args[b])
		} else {
			w.Params = append(w.Params, &ast.BadExpr{})
		}
	}
	if fw.Variadic >= 0 {
		w.Params = append(w.Params, argsOf(info, call, fw.Variadic)...)
		w.Spread = call.Ellipsis.IsValid()
	}
	return w
}

func run(pass *analysis.Pass) (any, error) {
	info := pass.TypesInfo
	if gostd.Contains(pass) || !relevant(pass) {
		// The standard library's own writes (os, database/sql) are
		// recognised directly; summarising its thousands of functions
		// would cost more than the rest of locklint.
		return &Result{Calls: map[*ast.CallExpr][]FactWrite{}}, nil
	}
	defs := keyexpr.NewDefs(info, pass.Files)
	res := &Result{Calls: map[*ast.CallExpr][]FactWrite{}, defs: defs}
	var decls []*ast.FuncDecl
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				decls = append(decls, fd)
			}
		}
	}
	local := map[*types.Func]*WriteFact{}
	imported := map[*types.Func]*WriteFact{}
	ifaces := soleimpl.Methods(pass.Pkg, nil) // s.repo.Save through the package's Repo interface
	foreignInterfaceMethods(info, pass.Pkg, decls, ifaces, func(fn *types.Func) bool {
		return lookupFact(pass, local, imported, fn) != nil
	}, sync.OnceValue(func() *soleimpl.Project { return soleimpl.ProjectOf(pass) }))
	rows := rowLocks(pass, defs, decls, ifaces)
	res.rows = rows
	// localCallee is the function whose fact a call reads: an interface
	// method of the package is its sole implementation.
	localCallee := func(call *ast.CallExpr) *types.Func {
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil {
			return nil
		}
		fn = fn.Origin()
		if impl, ok := ifaces[fn]; ok {
			fn = impl
		}
		return fn
	}
	factOf := func(call *ast.CallExpr) *WriteFact {
		fn := localCallee(call)
		if fn == nil || Modeled(fn) {
			return nil
		}
		return lookupFact(pass, local, imported, fn)
	}
	where := func(pos token.Pos) string {
		p := pass.Fset.Position(pos)
		return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
	}
	// Only functions that call functions of this package can change in
	// later rounds.
	declared := map[*types.Func]bool{}
	for _, fd := range decls {
		if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
			declared[fn] = true
		}
	}
	for m := range ifaces {
		declared[m] = true
	}
	callsLocal := map[*ast.FuncDecl]bool{}
	for _, fd := range decls {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn, _ := typeutil.Callee(info, call).(*types.Func); fn != nil && declared[fn.Origin()] {
					callsLocal[fd] = true
				}
			}
			return !callsLocal[fd]
		})
	}
	claimsOf := map[*ast.FuncDecl][]Claim{}
	asyncOf := map[*ast.FuncDecl]map[ast.Node]bool{}
	lr := pass.ResultOf[later.Analyzer].(*later.Result)
	records := recordWrites(pass, defs)
	summariseAll(info, decls, local, localCallee, func(fd *ast.FuncDecl, round int) (*WriteFact, bool) {
		if round > 0 && !callsLocal[fd] {
			return nil, false
		}
		cs, ok := claimsOf[fd]
		if !ok { // a function's own claims do not change from round to round
			cs = Claims(info, fd, selfGuardedWrites(info, defs, fd))
			claimsOf[fd] = cs
			asyncOf[fd] = lr.Async(fd.Body)
		}
		return summarise(info, defs, fd, factOf, rows, where, cs, asyncOf[fd], records[fd]), true
	})
	exported := map[*types.Func]*WriteFact{}
	for fn, f := range local {
		if f = exportable(pass, f); f != nil {
			exported[fn] = f
			pass.ExportObjectFact(fn, f)
		}
	}
	for m, impl := range ifaces {
		if f := exported[impl]; f != nil && m.Pkg() == pass.Pkg { // not a method embedded from another package
			pass.ExportObjectFact(m, f)
		}
	}
	if len(exported) > 0 || rows.any {
		pass.ExportPackageFact(new(PackageFact))
	}
	for _, fd := range decls {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if f := factOf(call); f != nil {
					res.Calls[call] = f.Writes
					if fn := localCallee(call); fn != nil && fn.Pkg() == pass.Pkg {
						// This package's Redis helpers are the rules' own to
						// judge (lockfence reads their keys and names).
						res.Calls[call] = slices.DeleteFunc(slices.Clone(f.Writes), func(w FactWrite) bool { return w.Kind == Redis })
					}
				}
			}
			return true
		})
	}
	return res, nil
}

// lookupFact returns fn's fact: the one computed so far for a function of
// this package, or the one its own package exported (remembered in
// imported), or nil.
// summariseAll summarises decls into local, callees before their callers
// (so a chain of helpers settles in one round however deep it is), round
// after round while a summary changes (at most four: helpers calling each
// other in a cycle); summarise may read the summaries made so far, and
// says false to keep a function's summary as it is. callee resolves a
// call to the function whose summary it reads.
func summariseAll[PT interface {
	comparable
	String() string
}](info *types.Info, decls []*ast.FuncDecl, local map[*types.Func]PT, callee func(*ast.CallExpr) *types.Func, summarise func(fd *ast.FuncDecl, round int) (PT, bool)) {
	var none PT
	declOf := make(map[*types.Func]*ast.FuncDecl, len(decls))
	for _, fd := range decls {
		if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
			declOf[fn] = fd
		}
	}
	decls = callorder.CalleesFirst(decls, func(fd *ast.FuncDecl) []*ast.FuncDecl {
		var out []*ast.FuncDecl
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if cd := declOf[callee(call)]; cd != nil {
					out = append(out, cd)
				}
			}
			return true
		})
		return out
	})
	for round := 0; round < 4; round++ {
		changed := false
		for _, fd := range decls {
			fn, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			f, ok := summarise(fd, round)
			if !ok {
				continue
			}
			old := local[fn]
			if (old == none) != (f == none) || old != none && old.String() != f.String() {
				changed = true
			}
			if f == none {
				delete(local, fn)
			} else {
				local[fn] = f
			}
		}
		if !changed {
			break
		}
	}
}

func lookupFact[T any, PT interface {
	*T
	analysis.Fact
}](pass *analysis.Pass, local, imported map[*types.Func]PT, fn *types.Func) PT {
	if f, ok := local[fn]; ok {
		return f
	}
	if fn.Pkg() == nil || fn.Pkg() == pass.Pkg {
		return nil
	}
	if f, ok := imported[fn]; ok {
		return f
	}
	f := PT(new(T))
	if !pass.ImportObjectFact(fn, f) {
		f = nil
	}
	imported[fn] = f
	return f
}

// exportable returns the part of f that importers see, or nil. A file
// write inside a dependency downloaded from a module proxy (a version is
// known) stays out: there it is a logger writing to stderr or its log
// file (klog.Warningf reaches (*os.File).Write), not the resource a lock
// protects. Files a project writes through its own packages, and SQL
// through any package, travel in facts.
func exportable(pass *analysis.Pass, f *WriteFact) *WriteFact {
	if !lifecycle.Downloaded(pass) {
		return f
	}
	out := &WriteFact{}
	for _, w := range f.Writes {
		if w.Kind != File && w.Kind != Redis {
			out.Writes = append(out.Writes, w)
		}
	}
	if len(out.Writes) == 0 {
		return nil
	}
	return out
}

// selfGuardedWrites returns the self-guarded writes fd makes itself.
func selfGuardedWrites(info *types.Info, defs *keyexpr.Defs, fd *ast.FuncDecl) []*Write {
	var out []*Write
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if w := Classify(info, defs, call, nil); w != nil && w.SelfGuarded() {
				out = append(out, w)
			}
		}
		return true
	})
	return out
}

// summarise computes the writes of one function, given the claims it
// makes itself (see Claims). Writes in async, the code fd starts but
// does not wait for (package later), are not its own: they may land
// after its caller released a lock.
func summarise(info *types.Info, defs *keyexpr.Defs, fd *ast.FuncDecl, factOf func(*ast.CallExpr) *WriteFact, rows *rowLocker, where func(token.Pos) string, claims []Claim, async map[ast.Node]bool, records map[*ast.CallExpr]*Write) *WriteFact {
	var params []types.Object
	for _, field := range fd.Type.Params.List {
		for _, id := range field.Names {
			params = append(params, info.Defs[id])
		}
	}
	flows := make([]*section.Flow, len(params))
	flow := func(i int) *section.Flow {
		if flows[i] == nil {
			flows[i] = section.NewFlowFrom(info, fd, params[i])
		}
		return flows[i]
	}
	f := &WriteFact{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if async[n] {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || len(f.Writes) >= maxWrites {
			return true
		}
		paramOf := func(e ast.Expr) int {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok {
				if obj := info.Uses[id]; obj != nil {
					return slices.Index(params, obj)
				}
			}
			return -1
		}
		w := Classify(info, defs, call, nil)
		if w == nil {
			w = records[call]
		}
		if w == nil {
			// A wrapper running SQL text it gets as a parameter.
			if sw := classify(info, defs, call, nil, true); sw != nil && sw.Kind == SQL && sw.QueryExpr != nil {
				if p := paramOf(sw.QueryExpr); p >= 0 {
					fw := FactWrite{Kind: SQL, What: sw.What, Where: where(call.Pos()), HasQuery: true, QueryParam: p, Variadic: -1}
					for i, b := range sw.Params {
						if sw.Spread && i == len(sw.Params)-1 {
							fw.Variadic = paramOf(b)
						} else {
							fw.Binds = append(fw.Binds, paramOf(b))
						}
					}
					f.Writes = append(f.Writes, fw)
					return true
				}
			}
		}
		at := where(call.Pos())
		if w == nil {
			if inner := factOf(call); inner != nil {
				for i := range inner.Writes {
					if inner.Writes[i].HasQuery {
						if w = resolveQuery(info, defs, call, &inner.Writes[i]); w != nil {
							at = inner.Writes[i].Where
							break
						}
					}
				}
			}
		}
		if w != nil && (w.Kind != Redis || records[call] == w) {
			fw := FactWrite{Kind: w.Kind, What: w.What, Where: at, NeedsCond: w.NeedsCondition(), SelfGuarded: w.SelfGuarded(),
				RowLocked: rows.isRowLocked(fd, w), Claimed: claimedAt(fd, claims, call.Pos()), Variadic: -1}
			fw.RefusesByError = fw.SelfGuarded && refusesByError(info, fd, call)
			anyCond := false // the statement has a fence condition at all
			if fw.NeedsCond {
				_, fw.CondKnown = w.FenceCondition(func(ast.Expr) bool { return false })
				anyCond, _ = w.FenceCondition(func(ast.Expr) bool { return true })
			}
			for i := range params {
				if params[i] == nil {
					continue
				}
				fl := flow(i)
				if anyReaches(fl, w.Values) {
					fw.Reach = append(fw.Reach, i)
				}
				if !fw.NeedsCond || !anyCond {
					continue
				}
				if ok, _ := w.FenceCondition(fl.Reaches); ok {
					fw.Cond = append(fw.Cond, i)
				}
			}
			f.Writes = append(f.Writes, fw)
			return true
		}
		inner := factOf(call)
		if inner == nil {
			return true
		}
		// Map the helper's parameters to ours through the arguments.
		mine := func(ps []int) []int {
			var out []int
			for _, p := range ps {
				for _, a := range argsOf(info, call, p) {
					for i := range params {
						if params[i] != nil && flow(i).Reaches(a) && !slices.Contains(out, i) {
							out = append(out, i)
						}
					}
				}
			}
			return out
		}
		for _, iw := range inner.Writes {
			if len(f.Writes) >= maxWrites {
				break
			}
			if iw.HasQuery {
				continue // resolved above when the text is known here
			}
			fw := iw
			fw.Reach, fw.Cond = mine(iw.Reach), mine(iw.Cond)
			fw.RowLocked = rows.isRowLocked(fd, &Write{Kind: iw.Kind, Call: call, via: &iw})
			fw.Claimed = iw.Claimed || claimedAt(fd, claims, call.Pos())
			fw.RefusesByError = iw.RefusesByError && passesErrorOn(info, fd, call)
			f.Writes = append(f.Writes, fw)
		}
		return true
	})
	if len(f.Writes) == 0 {
		return nil
	}
	return f
}

func anyReaches(f *section.Flow, values []ast.Expr) bool {
	for _, v := range values {
		if f.Reaches(v) {
			return true
		}
	}
	return false
}

// foreignInterfaceMethods adds to ifaces the methods of interfaces the
// package calls that exactly one type implements: of the package (a use
// case calling its domain package's WalletRepository, implemented beside
// it by walletRepository), or else of the project (soleimpl.Project: a
// job's narrow store interface, implemented by the store package it
// imports). A method of another package's interface that has a fact of
// its own (its package resolved it to the implementation beside it)
// keeps it: a service of this package that happens to have the same
// methods wraps that repository, it is not it.
func foreignInterfaceMethods(info *types.Info, pkg *types.Package, decls []*ast.FuncDecl, ifaces map[*types.Func]*types.Func, hasFact func(*types.Func) bool, project func() *soleimpl.Project) {
	tried := map[*types.Func]bool{}
	for _, fd := range decls {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, _ := typeutil.Callee(info, call).(*types.Func)
			if fn == nil || fn.Pkg() == nil || tried[fn] {
				return true
			}
			tried[fn] = true
			if _, ok := ifaces[fn]; ok {
				return true
			}
			if recv := fn.Type().(*types.Signature).Recv(); recv == nil || !types.IsInterface(recv.Type()) {
				return true
			}
			var impl *types.Func
			if fn.Pkg() != pkg {
				if hasFact(fn) {
					return true
				}
				impl = soleimpl.Of(pkg, fn)
			}
			if impl == nil {
				impl = project().Method(fn)
			}
			if impl != nil {
				ifaces[fn] = impl
			}
			return true
		})
	}
}
