package lockresult

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"golang.org/x/tools/go/types/typeutil"
)

// signal says how an acquire reports that someone else holds the lock.
type signal int

const (
	// byError: a failed acquire always comes with a non-nil error
	// (go-redis Do and SetArgs return redis.Nil, redigo's redis.String
	// returns ErrNil, the lock libraries return an error), so checking
	// the error is enough.
	byError signal = iota + 1
	// byValue: a held lock comes back as false, 0 or a nil reply with a
	// nil error (go-redis SetNX, redigo's raw reply, SETNX), so the value
	// must be looked at.
	byValue
)

// acquire is one call that tries to take a lock, and what it returns.
type acquire struct {
	call   *ast.CallExpr // the Go call whose results say whether it worked
	name   string        // for messages: "SetNX", "SET NX", "redsync Mutex.Lock"
	signal signal
	// Result positions: okAt is the bool (true = acquired), replyAt the
	// raw reply (nil = not acquired), handleAt the lock handle (nil = not
	// acquired), errAt the error; -1 when absent.
	okAt, replyAt, handleAt, errAt int
	// cmd is the Redis command for raw acquires, nil for libraries.
	cmd *redismodel.Command
	// lib is set for lock-library acquires.
	lib bool
	// unjudged: an NX not known to take a lock (see AcquireFact.Unjudged):
	// it is never reported, only summarised when returned.
	unjudged bool
	// emptyToken: the handle is a token, "" when the lock was not taken
	// (see AcquireFact.EmptyToken).
	emptyToken bool
}

// rawAcquire describes a raw NX acquire sent by cmd, or nil when its
// result is not simply the call's results (scripts, pipelines, Send).
func rawAcquire(info *types.Info, cmd *redismodel.Command) *acquire {
	if !cmd.AcquiresNX() || cmd.Script != nil || cmd.In.Multi || cmd.In.Pipeline {
		return nil
	}
	a := &acquire{call: cmd.Call, cmd: cmd, okAt: -1, replyAt: -1, handleAt: -1, errAt: -1}
	switch cmd.Client {
	case redismodel.GoRedis:
		// The call returns a *Cmd; its methods give the outcome.
		a.name = cmd.Method.Name()
		switch cmd.Method.Name() {
		case "SetNX":
			a.signal = byValue // *BoolCmd: false with a nil error when held
		case "SetArgs", "Do":
			a.signal = byError // redis.Nil when held
			if cmd.Method.Name() == "Do" {
				a.name = "Do(" + cmd.Name + " NX)"
			}
		default:
			return nil
		}
		return a
	case redismodel.Redigo:
		switch cmd.Method.Name() {
		case "Do", "DoContext", "DoWithTimeout":
		default:
			return nil // Send: the reply comes later
		}
		a.name = cmd.Name
		if cmd.Name == "SET" {
			a.name = "SET NX"
		}
		a.signal = byValue // a nil reply (SET NX) or 0 (SETNX) with a nil error
		a.replyAt, a.errAt = 0, 1
		return a
	case redismodel.GoZero:
		// Setnx/SetnxEx(Ctx) return (bool, error): false with a nil error
		// when held.
		a.name = cmd.Method.Name()
		a.signal = byValue
		a.okAt, a.errAt = 0, 1
		return a
	case redismodel.Radix:
		// cmd.Call is the action; its reply goes into the receiver, and
		// the Do it is passed to returns only an error (see check).
		a.name = "SET NX"
		if cmd.Name == "SETNX" {
			a.name = "SETNX"
		}
		a.signal = byValue // a nil reply (SET NX) or 0 (SETNX) with a nil error
		return a
	case redismodel.RadixV2:
		// Cmd returns a *redis.Resp; a held lock is a nil reply whose
		// Err is nil (see radixV2Outcome).
		if cmd.Method.Name() != "Cmd" {
			return nil
		}
		a.name = "SET NX"
		if cmd.Name == "SETNX" {
			a.name = "SETNX"
		}
		a.signal = byValue
		return a
	case redismodel.Rueidis:
		// cmd.Call is Build(); the result is that of the Do it is passed to.
		a.name = "SET NX"
		a.signal = byError // rueidis.Nil when held
		if cmd.Name == "SETNX" {
			a.signal = byValue
		}
		return a
	}
	return nil
}

// failOpenAcquire names a raw NX acquire for the fail-open check, which
// follows only the call's error result: rawAcquire's, and GoFrame
// gredis's SetNX and Do(SET ... NX). The other checks do not judge gredis
// acquires: how its callers read a held lock (Do gives a gvar holding
// nil, with a nil error) is not modelled yet.
func failOpenAcquire(info *types.Info, cmd *redismodel.Command) string {
	if a := rawAcquire(info, cmd); a != nil {
		return a.name
	}
	if cmd.Client != redismodel.GoFrame || !cmd.AcquiresNX() || cmd.Script != nil || cmd.In.Multi || cmd.In.Pipeline {
		return ""
	}
	switch cmd.Method.Name() {
	case "SetNX":
		return "SetNX"
	case "Do":
		return "Do(" + cmd.Name + " NX)"
	}
	return ""
}

// libAcquire describes a lock-library acquire (safelock TryAcquire and
// Acquire, redsync Mutex.Lock and friends, bsm/redislock Obtain,
// rueidislock WithContext, and the smaller libraries' Lock), or nil. safelock's Do runs the section itself
// and is not an acquire whose result the caller handles.
func libAcquire(info *types.Info, call *ast.CallExpr) *acquire {
	c := locklib.Classify(info, call)
	if c == nil || c.Role != locklib.Acquire || c.Fn != nil {
		return nil
	}
	results := c.Method.Type().(*types.Signature).Results()
	if results.Len() == 0 {
		return nil
	}
	a := &acquire{
		call: call, name: c.Name(), signal: byError, lib: true,
		okAt: -1, replyAt: -1, handleAt: c.Handle, errAt: results.Len() - 1,
	}
	switch c.Lib {
	case locklib.Rueidislock:
		a.handleAt = -1 // the context and cancel func are never nil-checked
	case locklib.GoZero:
		// AcquireCtx returns (false, nil) when another owner holds the key.
		a.signal, a.okAt, a.errAt = byValue, 0, 1
	case locklib.BsmRedisLock:
		switch c.Method.Name() {
		case "Lock", "LockWithContext":
			// (false, nil) when another owner holds the key.
			a.signal, a.okAt, a.errAt = byValue, 0, 1
		case "ObtainLock":
			// v6 answers a held key with (nil, nil), which the
			// checks here do not model: not judged.
			return nil
		}
	}
	return a
}

// sentinelAcquire describes a call named as taking a lock (lock.Lock(ctx),
// an interface method whose implementation no fact describes) whose error
// the test right after it compares with a lock library's refusal
// sentinel (if err = lock.Lock(ctx); err != nil && err !=
// redislock.ErrNotObtained): the code says the call is an acquire that
// refuses by error. nil otherwise.
func sentinelAcquire(info *types.Info, fd *ast.FuncDecl, call *ast.CallExpr) *acquire {
	if !calledName(call, acquireNamed) {
		return nil
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || !acquireNamed(fn.Name()) {
		return nil
	}
	results := fn.Type().(*types.Signature).Results()
	if results.Len() == 0 || !isErrorType(results.At(results.Len()-1).Type()) {
		return nil
	}
	errVar, cond := testedAfter(info, fd.Body, call, results.Len())
	if errVar == nil || !comparesWithRefusal(info, cond, errVar) {
		return nil
	}
	return &acquire{
		call: call, name: lifecycle.FuncName(fn), signal: byError, lib: true,
		okAt: -1, replyAt: -1, handleAt: -1, errAt: results.Len() - 1,
	}
}

// testedAfter finds the statement that assigns call's n results (x, err
// := call, or err = call) and returns the error variable and the
// condition of the if statement that has it as its init, or of the if
// statement right after it.
func testedAfter(info *types.Info, body *ast.BlockStmt, call *ast.CallExpr, n int) (*types.Var, ast.Expr) {
	var errVar *types.Var
	var cond ast.Expr
	assigns := func(st ast.Stmt) bool {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != call || len(as.Lhs) != n {
			return false
		}
		id, ok := as.Lhs[n-1].(*ast.Ident)
		if !ok {
			return false
		}
		errVar, _ = info.ObjectOf(id).(*types.Var)
		return errVar != nil
	}
	ast.Inspect(body, func(node ast.Node) bool {
		if cond != nil {
			return false
		}
		switch node := node.(type) {
		case *ast.IfStmt:
			if node.Init != nil && assigns(node.Init) {
				cond = node.Cond
			}
		case *ast.BlockStmt:
			for i, st := range node.List {
				if i+1 < len(node.List) && assigns(st) {
					if is, ok := node.List[i+1].(*ast.IfStmt); ok && is.Init == nil {
						cond = is.Cond
					}
				}
			}
		}
		return true
	})
	if cond == nil {
		return nil, nil
	}
	return errVar, cond
}

// comparesWithRefusal reports whether cond compares err with a lock
// library's refusal sentinel named as such (err != ErrNotObtained,
// errors.Is(err, ErrLockNotObtained)); a client's nil reply (redis.Nil)
// is no evidence here, as a GET's error is tested with it too.
func comparesWithRefusal(info *types.Info, cond ast.Expr, errVar *types.Var) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				found = found || keyexpr.VarOf(info, n.X) == errVar && namedRefusal(info, n.Y) || keyexpr.VarOf(info, n.Y) == errVar && namedRefusal(info, n.X)
			}
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, n).(*types.Func)
			if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" && len(n.Args) == 2 {
				found = found || keyexpr.VarOf(info, n.Args[0]) == errVar && namedRefusal(info, n.Args[1])
			}
		}
		return !found
	})
	return found
}

// portAcquire describes a call of an interface method that takes a lock
// but is implemented where no fact reaches this package (a domain port:
// storage.AcquireTaskLock(id, node, ttl) behind an interface declared
// here, implemented by a package that imports this one): its name says
// it takes a lock (AcquireTaskLock, TryLock, ObtainLock; or Acquire on a
// receiver named for locks, m.locker.Acquire) and its last two results
// are a bool and an error, which is how such ports answer (false, nil)
// for a lock held elsewhere. nil otherwise, and for a method some fact
// describes.
func (r *runner) portAcquire(call *ast.CallExpr) *acquire {
	if !calledName(call, acquireNamed) {
		return nil
	}
	info := r.pass.TypesInfo
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || r.facts[fn] != nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || !acquireNamed(fn.Name()) {
		return nil
	}
	res := sig.Results()
	n := res.Len()
	if n < 2 || !isBoolType(res.At(n-2).Type()) || !isErrorType(res.At(n-1).Type()) {
		return nil
	}
	if fn.Pkg() != nil && fn.Pkg() != r.pass.Pkg && r.pass.ImportObjectFact(fn.Origin(), new(AcquireFact)) {
		return nil
	}
	named := lockWord(fn.Name())
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && !named {
		switch x := ast.Unparen(sel.X).(type) {
		case *ast.Ident:
			named = lockWord(x.Name)
		case *ast.SelectorExpr:
			named = lockWord(x.Sel.Name)
		}
	}
	if !named {
		return nil
	}
	return &acquire{
		call: call, name: lifecycle.FuncName(fn), signal: byValue,
		okAt: n - 2, replyAt: -1, handleAt: -1, errAt: n - 1,
	}
}

// lockWord reports whether an identifier has a word naming a lock (lock,
// locker, mutex, lease; not block, clock or unlock).
func lockWord(name string) bool {
	for _, w := range keyexpr.Words(name) {
		switch w {
		case "lock", "locker", "locks", "mutex", "lease":
			return true
		}
	}
	return false
}

// callsPorts reports whether a function of the package calls an
// interface method portAcquire or sentinelAcquire could read as an
// acquire: one named as taking a lock.
func (r *runner) callsPorts() bool {
	info := r.pass.TypesInfo
	found := false
	for _, f := range r.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && !found && calledName(call, acquireNamed) {
				if fn, _ := typeutil.Callee(info, call).(*types.Func); fn != nil && acquireNamed(fn.Name()) {
					if recv := fn.Type().(*types.Signature).Recv(); recv != nil && types.IsInterface(recv.Type()) {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}

// portCalls checks, in a package with no Redis of its own, the acquires
// it makes through interfaces implemented elsewhere.
func (r *runner) portCalls(file *ast.File, fd *ast.FuncDecl) {
	info := r.pass.TypesInfo
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if a := sentinelAcquire(info, fd, call); a != nil {
			r.check(file, fd, a, nil)
		} else if a := r.portAcquire(call); a != nil {
			r.check(file, fd, a, nil)
		}
		return true
	})
}

// calledName reports whether the name call is made through (f, pkg.F,
// x.M, also instantiated: f[T]) satisfies named: a cheap test on the
// syntax before the types are looked at, for the checks that run on
// every call of a package.
func calledName(call *ast.CallExpr, named func(string) bool) bool {
	fun := ast.Unparen(call.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
	switch x := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return named(x.Name)
	case *ast.SelectorExpr:
		return named(x.Sel.Name)
	}
	return false
}
