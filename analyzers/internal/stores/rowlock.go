package stores

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/section"
)

// A write in a database transaction that has already locked the rows it
// changes (SELECT ... FOR UPDATE, gorm's clause.Locking) is serialised by
// the database: a stale holder's transaction waits until the newer
// holder's commits, then reads what that one wrote, and the state it
// re-checks refuses the late write. The row lock is a check where the
// write lands, which is what a fence is for.

// rowLockText matches the locking clauses of a SELECT (PostgreSQL,
// MySQL, SQLite has none).
var rowLockText = regexp.MustCompile(`(?i)\bFOR\s+(NO\s+KEY\s+UPDATE|UPDATE|KEY\s+SHARE|SHARE)\b|\bLOCK\s+IN\s+SHARE\s+MODE\b`)

// RowLock says that a function locks rows through the database handle it
// gets as parameter Tx, when its bool parameter If is true (-1: always).
type RowLock struct{ Tx, If int }

// RowLockFact lists the row locks a function takes through its
// parameters (a repository's loadOrderTx(tx, id, forUpdate)).
type RowLockFact struct{ Locks []RowLock }

func (*RowLockFact) AFact() {}

func (f *RowLockFact) String() string {
	var parts []string
	for _, l := range f.Locks {
		parts = append(parts, fmt.Sprintf("locks rows via param %d if %d", l.Tx, l.If))
	}
	return strings.Join(parts, "; ")
}

// handleType reports whether t is a database handle a transaction's row
// lock is taken and kept through: gorm's DB (a transaction inside
// Transaction or after Begin), database/sql's and sqlx's Tx, pgx's Tx,
// go-zero's Session.
func handleType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	path := n.Obj().Pkg().Path()
	switch n.Obj().Name() {
	case "DB":
		return path == "gorm.io/gorm" || path == "github.com/jinzhu/gorm"
	case "Tx":
		return path == "database/sql" || path == "github.com/jmoiron/sqlx" ||
			strings.HasPrefix(path, "github.com/jackc/pgx/")
	case "Session":
		// go-zero's sqlx.Session: the transaction TransactCtx hands its
		// callback (also in forks of go-zero, under the same path).
		return strings.HasSuffix(path, "/core/stores/sqlx")
	}
	return false
}

// rowLocker finds the row locks of a package's functions.
type rowLocker struct {
	any    bool // the package has functions that lock rows
	info   *types.Info
	defs   *keyexpr.Defs
	factOf func(*ast.CallExpr) *RowLockFact
}

// lockEvent is a call that locks rows through the handle at root, in
// statement stmt, which stores what it read in reads.
type lockEvent struct {
	call  *ast.CallExpr
	root  ast.Expr
	stmt  ast.Node
	reads map[types.Object]bool
}

// events returns the calls of fn's own body (not of the function literals
// in it) that lock rows, and the handle each goes through.
func (r *rowLocker) events(fn ast.Node) []lockEvent {
	var out []lockEvent
	body := section.FuncBody(fn)
	if body == nil {
		return nil
	}
	var stmts []ast.Node // the statements around the node visited
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if root := r.locks(n); root != nil {
				ev := lockEvent{call: n, root: root, stmt: n}
				for i := len(stmts) - 1; i >= 0; i-- {
					if stmts[i].Pos() <= n.Pos() && n.End() <= stmts[i].End() {
						ev.stmt = stmts[i]
						break
					}
				}
				ev.reads = r.readsOf(ev.stmt)
				out = append(out, ev)
			}
		case *ast.AssignStmt, *ast.ExprStmt, *ast.DeclStmt, *ast.ReturnStmt:
			stmts = append(stmts, n)
		}
		return true
	})
	return out
}

// readsOf returns the variables a statement stores what it reads in: the
// non-error variables it assigns, and those whose address it passes
// (First(&user), Scan(&state)).
func (r *rowLocker) readsOf(stmt ast.Node) map[types.Object]bool {
	out := map[types.Object]bool{}
	add := func(id *ast.Ident) {
		obj := r.info.ObjectOf(id)
		if obj == nil || id.Name == "_" || handleType(obj.Type()) ||
			types.Identical(obj.Type(), types.Universe.Lookup("error").Type()) {
			return
		}
		out[obj] = true
	}
	if as, ok := stmt.(*ast.AssignStmt); ok {
		for _, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok {
				add(id)
			}
		}
	}
	ast.Inspect(stmt, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id := rootIdent(n.X); id != nil {
					add(id) // Scan(&state), Scan(&job.ID): the row lands in job
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				add(id)
			}
		}
		return true
	})
	return out
}

// rootIdent returns the variable a selector chain starts from (job in
// job.Meta.ID), or nil.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// rechecked reports whether fn tests what the row lock ev read (an if or
// switch on it) after ev and before pos: the decision to write is then
// made under the lock. A row lock taken only to write (a balance update
// after checks made on reads without it) serialises the arithmetic, not
// the decision.
func rechecked(info *types.Info, fn ast.Node, ev lockEvent, pos token.Pos) bool {
	if len(ev.reads) == 0 {
		return false
	}
	// What is computed from the read counts as the read (bal :=
	// coinOf(wallet); stream.Before = bal).
	reads := maps.Clone(ev.reads)
	mentions := func(e ast.Node) bool {
		found := false
		if e == nil {
			return false
		}
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && reads[info.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	found := false
	ast.Inspect(section.FuncBody(fn), func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= pos {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if is, ok := n.(*ast.IfStmt); ok && is.Init == ev.stmt && mentions(is.Cond) {
			found = true // if err := ...First(&o).Error; err != nil || o.State == "paid"
			return false
		}
		if n.Pos() < ev.stmt.End() {
			return true
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				if !mentions(r) {
					continue
				}
				for _, l := range n.Lhs {
					if id := rootIdent(l); id != nil && info.ObjectOf(id) != nil && id.Name != "_" {
						reads[info.ObjectOf(id)] = true
					}
				}
			}
		case *ast.IfStmt:
			found = mentions(n.Cond)
		case *ast.SwitchStmt:
			found = mentions(n.Tag)
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					found = found || mentions(e)
				}
			}
		}
		return !found
	})
	return found
}

// claims reports whether the locking read ev selects only rows in the
// state that the UPDATE w moves them out of: SELECT ... FROM jobs WHERE
// status = 0 ... FOR UPDATE [SKIP LOCKED], then UPDATE jobs SET status = 1.
// The read's own condition is the test made under the row lock: the
// database re-evaluates it on the current row (or skips a row another
// claimant holds), so once a newer holder's transaction has claimed a
// row, a stale holder's read no longer returns it.
func (r *rowLocker) claims(ev lockEvent, w *Write) bool {
	if w.via != nil || w.Kind != SQL || !w.Complete {
		return false
	}
	cols, _, ok := updateParts(w.Query)
	if !ok {
		return false
	}
	for _, a := range ev.call.Args {
		if !r.lockingArg(a) {
			continue
		}
		q, _ := Text(r.info, r.defs, a)
		read := selectFromWhere.FindStringSubmatch(q)
		if read != nil && sameTable(read[1], updateTable(w.Query)) && whereGuards(read[2], cols) {
			return true
		}
	}
	return false
}

var (
	// selectFromWhere: the table a SELECT reads and its condition, up to
	// the clauses that follow it.
	selectFromWhere = regexp.MustCompile(`(?is)^\s*select\s.*?\sfrom\s+(\S+).*?\swhere\s(.*?)(?:\s(?:group\s+by|order\s+by|limit|for\s+(?:no\s+key\s+)?update|for\s+(?:key\s+)?share|lock\s+in\s+share\s+mode)\b.*)?$`)
	updateTableName = regexp.MustCompile(`(?is)^\s*update\s+(\S+)`)
)

func updateTable(q string) string {
	if m := updateTableName.FindStringSubmatch(q); m != nil {
		return m[1]
	}
	return ""
}

// sameTable compares two table names without schema and quotes.
func sameTable(a, b string) bool {
	norm := func(s string) string {
		s = strings.Trim(s, "`\"[];,()")
		return strings.ToLower(s[strings.LastIndex(s, ".")+1:])
	}
	return a != "" && b != "" && norm(a) == norm(b)
}

// locks returns the handle through which call locks rows, or nil: a
// statement method of a handle given a clause.Locking or statement text
// with a locking clause (jinzhu/gorm: Set("gorm:query_option", "FOR
// UPDATE"), which gorm v2 ignores), or a function whose RowLockFact says
// so for the arguments given.
func (r *rowLocker) locks(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && r.info.Types[sel.X].Type != nil && handleType(r.info.TypeOf(sel.X)) {
		if lockMethod(r.info, call) {
			for _, a := range call.Args {
				if r.lockingArg(a) {
					return handleRoot(sel.X)
				}
			}
		}
	}
	f := r.factOf(call)
	if f == nil {
		return nil
	}
	for _, l := range f.Locks {
		if l.If >= 0 {
			cond := argsOf(r.info, call, l.If)
			if len(cond) != 1 || !constTrue(r.info, cond[0]) {
				continue
			}
		}
		if tx := argsOf(r.info, call, l.Tx); len(tx) == 1 {
			return handleRoot(tx[0])
		}
	}
	return nil
}

// lockMethod reports whether call is a method of a handle that can take a
// row lock: gorm's Clauses, a method that runs statement text, or
// jinzhu/gorm's Set of a query option.
func lockMethod(info *types.Info, call *ast.CallExpr) bool {
	fn := calleeFunc(info, call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch name := fn.Name(); {
	case name == "Clauses":
		return fn.Pkg().Path() == "gorm.io/gorm"
	case name == "Set":
		return fn.Pkg().Path() == "github.com/jinzhu/gorm"
	case strings.HasPrefix(name, "Query"), strings.HasPrefix(name, "Exec"), strings.HasPrefix(name, "Select"),
		strings.HasPrefix(name, "Get"), name == "Raw", strings.HasPrefix(name, "MustExec"):
		return true
	}
	return false
}

// lockingArg reports whether a is gorm's clause.Locking or a statement
// with a locking clause.
func (r *rowLocker) lockingArg(a ast.Expr) bool {
	t := r.info.TypeOf(a)
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Name() == "Locking" && n.Obj().Pkg() != nil &&
		strings.HasSuffix(n.Obj().Pkg().Path(), "gorm/clause") {
		return true
	}
	if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
		return false
	}
	text, _ := Text(r.info, r.defs, a)
	return rowLockText.MatchString(text)
}

// handleRoot strips the method calls chained on a handle
// (tx.Where(...).Clauses(...) -> tx).
func handleRoot(e ast.Expr) ast.Expr {
	for {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return ast.Unparen(e)
		}
		s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return ast.Unparen(e)
		}
		e = s.X
	}
}

func constTrue(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
}

// summarise returns the row locks fd takes through its parameters, or
// nil.
func (r *rowLocker) summarise(fd *ast.FuncDecl) *RowLockFact {
	var params []types.Object
	for _, field := range fd.Type.Params.List {
		for _, id := range field.Names {
			params = append(params, r.info.Defs[id])
		}
	}
	f := &RowLockFact{}
	for _, ev := range r.events(fd) {
		id, ok := ev.root.(*ast.Ident)
		if !ok {
			continue
		}
		for i, p := range params {
			if p == nil || !handleType(p.Type()) || !derives(r.info, fd, p, id) {
				continue
			}
			l := RowLock{Tx: i, If: condParam(r.info, fd, params, ev.call)}
			if !containsLock(f.Locks, l) {
				f.Locks = append(f.Locks, l)
			}
		}
	}
	if len(f.Locks) == 0 {
		return nil
	}
	return f
}

func containsLock(ls []RowLock, l RowLock) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// condParam returns the bool parameter whose truth the lock at call
// depends on (if forUpdate { q = q.Clauses(clause.Locking{...}) }), or -1.
func condParam(info *types.Info, fd *ast.FuncDecl, params []types.Object, call *ast.CallExpr) int {
	at := -1
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil || n.Pos() > call.Pos() || n.End() < call.End() {
			return false
		}
		if is, ok := n.(*ast.IfStmt); ok && is.Body.Pos() <= call.Pos() && call.End() <= is.Body.End() {
			if id, ok := ast.Unparen(is.Cond).(*ast.Ident); ok {
				for i, p := range params {
					if p != nil && info.Uses[id] == p {
						at = i
					}
				}
			}
		}
		return true
	})
	return at
}

// derives reports whether the variable at id is v or is derived from it
// in fn (q := tx; q = q.Where(...)).
func derives(info *types.Info, fn ast.Node, v types.Object, id *ast.Ident) bool {
	obj := info.Uses[id]
	if obj == nil {
		obj = info.Defs[id]
	}
	if obj == nil {
		return false
	}
	return obj == v || section.NewFlowFrom(info, fn, v).Reaches(id)
}

// rowLocked reports whether the write call, made through handle (the
// root of its receiver chain, or an argument passed to a helper), runs
// after a row lock taken through the same handle earlier in the function
// around it, within root, and after a test of what that lock read.
func (r *rowLocker) rowLocked(root ast.Node, w *Write, handle ast.Expr) bool {
	call := w.Call
	id, ok := handle.(*ast.Ident)
	if !ok {
		return false
	}
	v := r.info.Uses[id]
	if v == nil || !handleType(v.Type()) {
		return false
	}
	fn := section.EnclosingFunc(root, call.Pos())
	if fn == nil {
		return false
	}
	for _, ev := range r.events(fn) {
		if ev.stmt.End() > call.Pos() {
			continue
		}
		eid, ok := ev.root.(*ast.Ident)
		if !ok {
			continue
		}
		eo := r.info.Uses[eid]
		if (eo == v || derives(r.info, fn, v, eid) || eo != nil && derives(r.info, fn, eo, id)) && (rechecked(r.info, fn, ev, call.Pos()) || r.claims(ev, w)) {
			return true
		}
	}
	return false
}

// writeHandles returns the handles a write goes through: the root of its
// receiver chain, or, for a write made in a helper, the handles passed
// to it.
func writeHandles(info *types.Info, w *Write) []ast.Expr {
	if w.via == nil {
		if sel, ok := ast.Unparen(w.Call.Fun).(*ast.SelectorExpr); ok {
			return []ast.Expr{handleRoot(sel.X)}
		}
		return nil
	}
	var out []ast.Expr
	if sel, ok := ast.Unparen(w.Call.Fun).(*ast.SelectorExpr); ok {
		if t := info.TypeOf(sel.X); t != nil && handleType(t) {
			out = append(out, handleRoot(sel.X))
		}
	}
	for _, a := range w.Call.Args {
		if t := info.TypeOf(a); t != nil && handleType(t) {
			out = append(out, handleRoot(a))
		}
	}
	return out
}

// isRowLocked is RowLocked with the locker of this package.
func (r *rowLocker) isRowLocked(root ast.Node, w *Write) bool {
	if w.via != nil && w.via.RowLocked {
		return true
	}
	if w.Kind != SQL && w.Kind != Gorm {
		return false
	}
	for _, h := range writeHandles(r.info, w) {
		if r.rowLocked(root, w, h) {
			return true
		}
	}
	return false
}

// calleeFunc is the function call calls, or nil.
func calleeFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// rowLocks summarises the row locks of the package's functions (helpers
// calling helpers: a few rounds), exports them as facts and returns the
// locker that reads them. A method of an interface that stands for one
// implementation (ifaces, as for writes: a repository's
// GetForUpdate(ctx, tx, id) behind its Repository interface) locks what
// that implementation locks, and this package's interface methods carry
// their implementation's fact for callers in other packages.
func rowLocks(pass *analysis.Pass, defs *keyexpr.Defs, decls []*ast.FuncDecl, ifaces map[*types.Func]*types.Func) *rowLocker {
	info := pass.TypesInfo
	local := map[*types.Func]*RowLockFact{}
	imported := map[*types.Func]*RowLockFact{}
	r := &rowLocker{info: info, defs: defs}
	callee := func(call *ast.CallExpr) *types.Func {
		fn := calleeFunc(info, call)
		if impl, ok := ifaces[fn]; ok {
			return impl
		}
		return fn
	}
	r.factOf = func(call *ast.CallExpr) *RowLockFact {
		fn := callee(call)
		if fn == nil {
			return nil
		}
		return lookupFact(pass, local, imported, fn)
	}
	summariseAll(info, decls, local, callee, func(fd *ast.FuncDecl, _ int) (*RowLockFact, bool) {
		return r.summarise(fd), true
	})
	for fn, f := range local {
		pass.ExportObjectFact(fn, f)
	}
	for m, impl := range ifaces {
		if f := local[impl]; f != nil && m.Pkg() == pass.Pkg { // not a method embedded from another package
			pass.ExportObjectFact(m, f)
		}
	}
	r.any = len(local) > 0
	return r
}
