package section

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/soleimpl"
)

// LockAPIFact marks a project's own lock API over a lock library: a
// method that acquires a library lock and keeps it in its receiver
// (l.lock = lock; or the receiver's redsync Mutex), or a function that
// returns the lock it acquired (FetchLock(chain) (*redislock.Lock,
// error); m := rs.NewMutex(key); m.Lock(); return m, nil); and the
// methods that release or renew the lock the receiver keeps. Callers treat such calls as the library's own, so the code after
// redisLock.TryLock(...) is a critical section that ends at
// redisLock.Unlock().
type LockAPIFact struct {
	Role locklib.Role // Acquire, Release or Renew
	Lib  locklib.Lib
	How  string // the library call inside, for messages
	// Handle is the result holding the lock (-1: the receiver holds it);
	// LostCtx the result holding rueidislock's lock-loss context (-1:
	// none). KeyParam is the parameter the key comes from (-1: unknown).
	Handle, LostCtx, KeyParam int
}

func (*LockAPIFact) AFact() {}

func (f *LockAPIFact) String() string {
	return fmt.Sprintf("lock API %d over %s (handle %d)", f.Role, f.How, f.Handle)
}

// exportLockAPI finds this package's lock API functions (LockAPIFact).
func (b *builder) exportLockAPI() {
	if locklib.IsLibPath(b.pass.Pkg.Path()) {
		return
	}
	info := b.pass.TypesInfo
	for _, fd := range b.decls {
		if lifecycle.IsTestFile(b.pass.Fset, fd.Pos()) {
			continue
		}
		fn, ok := info.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		if f := b.lockAPI(fd); f != nil {
			b.apis[fn] = f
			b.pass.ExportObjectFact(fn, f)
		}
	}
	for m, impl := range soleimpl.Methods(b.pass.Pkg, nil) {
		if f := b.apis[impl]; f != nil && m.Pkg() == b.pass.Pkg { // not a method embedded from another package
			b.apis[m] = f
			b.pass.ExportObjectFact(m, f)
		}
	}
}

// lockAPI returns fd's LockAPIFact, or nil.
func (b *builder) lockAPI(fd *ast.FuncDecl) *LockAPIFact {
	info := b.pass.TypesInfo
	var recv types.Object
	if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		recv = info.Defs[fd.Recv.List[0].Names[0]]
	}
	// onRecv: e is recv.field.
	onRecv := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok || recv == nil {
			return false
		}
		id, ok := ast.Unparen(sel.X).(*ast.Ident)
		return ok && info.Uses[id] == recv
	}
	for _, c := range b.libCalls {
		if !within(c.Call, fd) || c.Wrapper != "" {
			continue
		}
		if f, _ := b.funcOf(c.Call); f != ast.Node(fd) {
			continue // in a closure: a withLock helper or a goroutine
		}
		switch c.Role {
		case locklib.Release, locklib.Renew:
			if onRecv(c.Recv) {
				return &LockAPIFact{Role: c.Role, Lib: c.Lib, How: c.Name(), Handle: -1, LostCtx: -1, KeyParam: -1}
			}
			continue
		case locklib.Acquire:
			if c.Fn != nil {
				continue
			}
		default:
			continue
		}
		f := &LockAPIFact{Role: locklib.Acquire, Lib: c.Lib, How: c.Name(), Handle: -2, LostCtx: -1, KeyParam: b.paramIndex(fd, c.Key)}
		if c.Handle < 0 {
			if onRecv(c.Recv) { // l.mu.Lock(): the receiver keeps the mutex
				f.Handle = -1
			} else if id, ok := ast.Unparen(c.Recv).(*ast.Ident); ok {
				// mu := rs.NewMutex(key); mu.Lock(); return mu, nil: the
				// caller gets the locked mutex.
				if v := info.Uses[id]; v != nil && !b.releasedByDefer(fd, v) {
					if at := b.returnedAt(fd, v); at >= 0 {
						f.Handle = at
					}
				}
			}
		} else if ret, ok := b.parent[c.Call].(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
			f.Handle, f.LostCtx = c.Handle, c.LostCtx // return client.Obtain(...)
		} else if as, ok := b.parent[c.Call].(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == c.Call {
			handle := b.lhsObj(as, c.Handle)
			lost := b.lhsObj(as, c.LostCtx)
			if handle != nil && b.storedInRecv(fd, handle, onRecv) {
				f.Handle = -1
			} else if handle != nil {
				f.Handle, f.LostCtx = b.returnedAt(fd, handle), b.returnedAt(fd, lost)
			}
			if handle != nil && b.releasedByDefer(fd, handle) {
				continue // takes and releases its own lock
			}
		}
		if f.Handle == -2 || f.Handle == -1 && recv == nil {
			continue
		}
		return f
	}
	return nil
}

func (b *builder) lhsObj(as *ast.AssignStmt, i int) types.Object {
	if i < 0 || i >= len(as.Lhs) {
		return nil
	}
	id, ok := ast.Unparen(as.Lhs[i]).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	return b.pass.TypesInfo.ObjectOf(id)
}

// paramIndex returns the index of the parameter e names, or -1.
func (b *builder) paramIndex(fd *ast.FuncDecl, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return -1
	}
	obj := b.pass.TypesInfo.Uses[id]
	i := 0
	for _, field := range fd.Type.Params.List {
		for _, name := range field.Names {
			if b.pass.TypesInfo.Defs[name] == obj {
				return i
			}
			i++
		}
	}
	return -1
}

// storedInRecv reports whether fd assigns v to a field of its receiver.
func (b *builder) storedInRecv(fd *ast.FuncDecl, v types.Object, onRecv func(ast.Expr) bool) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return !found
		}
		for i, l := range as.Lhs {
			if id, ok := ast.Unparen(as.Rhs[i]).(*ast.Ident); ok && b.pass.TypesInfo.Uses[id] == v && onRecv(l) {
				found = true
			}
		}
		return !found
	})
	return found
}

// returnedAt returns the result index at which fd returns v (-1: never).
func (b *builder) returnedAt(fd *ast.FuncDecl, v types.Object) int {
	if v == nil {
		return -1
	}
	at := -1
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return true
		}
		for i, r := range ret.Results {
			if id, ok := ast.Unparen(r).(*ast.Ident); ok && b.pass.TypesInfo.Uses[id] == v {
				at = i
			}
		}
		return true
	})
	return at
}

// releasedByDefer reports whether fd defers a release of the lock v.
func (b *builder) releasedByDefer(fd *ast.FuncDecl, v types.Object) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		d, ok := n.(*ast.DeferStmt)
		if !ok {
			return !found
		}
		ast.Inspect(d, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if c := locklib.Classify(b.pass.TypesInfo, call); c != nil && c.Role == locklib.Release {
					if id, ok := ast.Unparen(c.Recv).(*ast.Ident); ok && b.pass.TypesInfo.Uses[id] == v {
						found = true
					}
				}
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && b.pass.TypesInfo.Uses[id] == v {
					found = true // a rueidislock cancel func
				}
			}
			return !found
		})
		return !found
	})
	return found
}

// apiCalls adds the calls of lock API functions (this package's and
// imported ones) to the library calls.
func (b *builder) apiCalls() {
	info := b.pass.TypesInfo
	imported := map[*types.Func]*LockAPIFact{}
	factOf := func(fn *types.Func) *LockAPIFact {
		fn = fn.Origin()
		if f := b.apis[fn]; f != nil {
			return f
		}
		if fn.Pkg() == nil || fn.Pkg() == b.pass.Pkg {
			return nil
		}
		if f, ok := imported[fn]; ok {
			return f
		}
		f := new(LockAPIFact)
		if !b.pass.ImportObjectFact(fn, f) {
			f = nil
		}
		imported[fn] = f
		return f
	}
	for _, file := range b.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || locklib.Classify(info, call) != nil {
				return true
			}
			fn, _ := typeutil.Callee(info, call).(*types.Func)
			if fn == nil {
				return true
			}
			f := factOf(fn)
			if f == nil {
				return true
			}
			c := &locklib.Call{
				Lib: f.Lib, Role: f.Role, Call: call, Method: fn, Handle: f.Handle, LostCtx: f.LostCtx,
				Wrapper: fmt.Sprintf("%s (%s)", lifecycle.FuncName(fn), f.How),
			}
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Type().(*types.Signature).Recv() != nil {
				c.Recv = sel.X
			}
			if f.KeyParam >= 0 && f.KeyParam < len(call.Args) {
				c.Key = call.Args[f.KeyParam]
			}
			b.libCalls = append(b.libCalls, c)
			return true
		})
	}
}
