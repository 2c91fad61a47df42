// Package locklib recognises the calls of Redis lock libraries — safelock,
// redsync, bsm/redislock, rueidislock (with its valkey-go fork,
// valkeylock), go-zero's RedisLock, and the smaller libraries of
// handles.go (the old bsm/redis-lock, amyangfei/redlock-go,
// jefferyjob/go-redislock, xiaoxuxiansheng/redis_lock) — by package
// path, receiver type and method name, the way redismodel recognises raw
// client commands. A
// [Call] says what a library call does to a lock (acquire, release, renew,
// watch for loss, read the fence) and which of its arguments are the key,
// the TTL and the context.
//
// A method of an interface shaped like rueidislock's WithContext (named as
// an acquire, taking a context and the key, returning a context, its
// cancel func and an error) is read as a rueidislock acquire too: a lock
// that hands back a context hands back its lease, whatever main wires in
// behind the interface.
//
// Guarantee: Classify returns nil for anything it does not know, so rules
// built on it stay silent about code that uses other libraries.
package locklib

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Lib is a lock library.
type Lib int

const (
	Raw             Lib = iota // a lock built on raw SET NX (see lifecycle)
	Safelock                   // github.com/locklint/locklint/safelock
	Redsync                    // github.com/go-redsync/redsync
	Redislock                  // github.com/bsm/redislock
	Rueidislock                // github.com/redis/rueidis/rueidislock, and valkey-go's valkeylock (its fork, the same API)
	GoZero                     // github.com/zeromicro/go-zero/core/stores/redis RedisLock
	BsmRedisLock               // github.com/bsm/redis-lock, bsm/redislock's predecessor
	RedlockGo                  // github.com/amyangfei/redlock-go (v1 to v3)
	GoRedislock                // github.com/jefferyjob/go-redislock
	XiaoxuRedisLock            // github.com/xiaoxuxiansheng/redis_lock
	Gocron                     // github.com/go-co-op/gocron/v2: jobs run under its distributed locker
)

func (l Lib) String() string {
	switch l {
	case Safelock:
		return "safelock"
	case Redsync:
		return "redsync"
	case Redislock:
		return "redislock"
	case Rueidislock:
		return "rueidislock"
	case GoZero:
		return "go-zero"
	case BsmRedisLock:
		return "bsm/redis-lock"
	case RedlockGo:
		return "redlock-go"
	case GoRedislock:
		return "go-redislock"
	case XiaoxuRedisLock:
		return "redis_lock"
	case Gocron:
		return "gocron"
	}
	return "raw"
}

// Import paths.
const (
	SafelockPath = "github.com/locklint/locklint/safelock"
	// FencePath holds safelock's protected-resource helpers: every call
	// into it is a write that checks the fence where it lands.
	FencePath       = "github.com/locklint/locklint/safelock/fence"
	RedislockPath   = "github.com/bsm/redislock"
	RueidislockPath = "github.com/redis/rueidis/rueidislock"
	ValkeylockPath  = "github.com/valkey-io/valkey-go/valkeylock"
	GoZeroRedisPath = "github.com/zeromicro/go-zero/core/stores/redis"
)

// Role is what a library call does.
type Role int

const (
	Acquire       Role = iota + 1 // takes the lock (TryAcquire, Lock, Obtain, WithContext, Do)
	Release                       // Release, Unlock
	Renew                         // Renew, Extend, Refresh
	Watch                         // asks whether the lock is still held: Done, Err, Deadline, Valid, Until, TTL
	Fence                         // safelock Lease.Fence
	NewMutex                      // redsync Redsync.NewMutex
	NewLocker                     // safelock New/NewRedlock, rueidislock NewLocker
	AutoRenew                     // safelock WithAutoRenew option
	Expiry                        // redsync WithExpiry option, go-zero RedisLock.SetExpire
	Option                        // any other With... option of safelock or redsync
	SchedLocker                   // gocron WithDistributedLocker/WithDistributedJobLocker: jobs run under the locker's lock
	NoSchedLocker                 // gocron WithDisabledDistributedJobLocker
	JobName                       // gocron WithName: the job's name, the locker's key
)

// Call is one library call.
type Call struct {
	Lib    Lib
	Role   Role
	Call   *ast.CallExpr
	Method *types.Func
	Recv   ast.Expr // Locker, Mutex, Lease, Client or Lock the method is called on
	Ctx    ast.Expr // context argument, if any
	Key    ast.Expr // lock name or key, if an argument here
	TTL    ast.Expr // TTL argument, if any
	// TTLSeconds: TTL counts seconds, not a time.Duration (redis_lock's
	// WithExpireSeconds and DelayExpire). DefaultTTL: no TTL is given
	// and the library's default applies (see Lib.Defaults).
	TTLSeconds, DefaultTTL bool
	Fn                     ast.Expr // safelock Do's callback
	Opts                   []ast.Expr
	// Returns says how the acquire hands back the lock: the result index
	// of the lease/lock (safelock, redislock), of the lock-loss context and
	// cancel func (rueidislock), -1 when the receiver is the lock (redsync).
	Handle, LostCtx int
	// Wrapper names a project's own method that does this call for its
	// caller ("RedisLock.TryLock (redislock Client.Obtain)"); empty for the
	// library's own calls.
	Wrapper string
}

// Name is how messages name the call: "safelock Locker.TryAcquire".
func (c *Call) Name() string {
	if c.Wrapper != "" {
		return c.Wrapper
	}
	name := c.Method.Name()
	if sig, ok := c.Method.Type().(*types.Signature); ok && sig.Recv() != nil {
		if n := recvName(sig); n != "" {
			name = n + "." + name
		}
	}
	lib := c.Lib.String()
	if c.Lib == Rueidislock && c.Method.Pkg() != nil {
		lib = c.Method.Pkg().Name() // rueidislock or valkeylock
	}
	return lib + " " + name
}

// IsLibPath reports whether path is a supported lock library.
func IsLibPath(path string) bool { return libOf(path) != Raw }

// ImportsLib reports whether pkg imports a lock library directly.
func ImportsLib(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if isLibOrFence(imp.Path()) {
			return true
		}
	}
	return false
}

// UsesLib reports whether pkg imports a lock library or uses one without
// importing it: through another package's variable or function
// (global.RedisMutex.NewMutex(...) in a package that imports only the
// project's global package), which info records as a use of the
// library's method.
func UsesLib(pkg *types.Package, info *types.Info) bool {
	if ImportsLib(pkg) {
		return true
	}
	for _, obj := range info.Uses {
		if p := obj.Pkg(); p != nil && p != pkg && isLibOrFence(p.Path()) {
			return true
		}
		if fn, ok := obj.(*types.Func); ok && IsLeaseContextAPI(fn) {
			return true
		}
	}
	return false
}

// IsLeaseContextAPI reports whether fn is an interface method shaped like
// rueidislock's WithContext: named as an acquire, taking a context and
// the key, and returning (context.Context, context.CancelFunc, error).
// A lock that hands back a context of its own hands back its lease: the
// context ends when the lock is lost (core.Locker's Lock(ctx, key) in a
// package that never sees the implementation main wires in).
func IsLeaseContextAPI(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return false
	}
	switch fn.Name() {
	case "Lock", "TryLock", "Acquire", "TryAcquire", "Obtain", "WithContext", "TryWithContext":
	default:
		return false
	}
	p, r := sig.Params(), sig.Results()
	if p.Len() < 2 || !isContext(p.At(0).Type()) || !isString(p.At(1).Type()) || r.Len() != 3 {
		return false
	}
	return isContext(r.At(0).Type()) && isNamed(r.At(1).Type(), "context", "CancelFunc") && isNamed(r.At(2).Type(), "", "error")
}

// leaseContextAcquire reads a call of an IsLeaseContextAPI method as a
// rueidislock acquire: the first result is the lock-loss context, the
// second the cancel func that releases the lock.
func leaseContextAcquire(info *types.Info, call *ast.CallExpr, fn *types.Func) *Call {
	c := &Call{Lib: Rueidislock, Role: Acquire, Call: call, Method: fn, LostCtx: 0, Handle: 1}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		c.Recv = sel.X
	}
	if len(call.Args) >= 2 {
		c.Ctx, c.Key = call.Args[0], call.Args[1]
	}
	return c
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Name() != name {
		return false
	}
	if n.Obj().Pkg() == nil {
		return pkg == ""
	}
	return n.Obj().Pkg().Path() == pkg
}

func isLibOrFence(path string) bool { return IsLibPath(path) || path == FencePath }

func libOf(path string) Lib {
	switch {
	case path == SafelockPath:
		return Safelock
	case path == "github.com/go-redsync/redsync" || strings.HasPrefix(path, "github.com/go-redsync/redsync/v"):
		if strings.Count(path, "/") <= 3 { // not .../redis/goredis
			return Redsync
		}
	case path == RedislockPath:
		return Redislock
	case path == RueidislockPath || path == ValkeylockPath || path == "github.com/rueian/rueidis/rueidislock":
		return Rueidislock
	case path == GoZeroRedisPath:
		return GoZero
	}
	return handleLibOf(path)
}

// Classify returns what call does as a lock-library call, or nil.
func Classify(info *types.Info, call *ast.CallExpr) *Call {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	lib := libOf(fn.Pkg().Path())
	if lib == Raw {
		if IsLeaseContextAPI(fn) {
			return leaseContextAcquire(info, call, fn)
		}
		return nil
	}
	sig := fn.Type().(*types.Signature)
	c := &Call{Lib: lib, Call: call, Method: fn, Handle: -1, LostCtx: -1}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sig.Recv() != nil {
		c.Recv = sel.X
	}
	args := call.Args
	arg := func(i int) ast.Expr {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	for i := 0; i < sig.Params().Len() && i < len(args); i++ {
		if isContext(sig.Params().At(i).Type()) {
			c.Ctx = args[i]
			break
		}
	}
	recv := recvName(sig)
	name := fn.Name()
	switch lib {
	case Safelock:
		switch {
		case recv == "Locker" && (name == "TryAcquire" || name == "Acquire"):
			c.Role, c.Key, c.TTL, c.Handle = Acquire, arg(1), arg(2), 0
		case recv == "Locker" && name == "Do":
			c.Role, c.Key, c.TTL, c.Fn = Acquire, arg(1), arg(2), arg(3)
		case recv == "Lease" && name == "Release":
			c.Role = Release
		case recv == "Lease" && name == "Renew":
			c.Role, c.TTL = Renew, arg(1)
		case recv == "Lease" && (name == "Done" || name == "Err" || name == "Deadline"):
			c.Role = Watch
		case recv == "Lease" && name == "Fence":
			c.Role = Fence
		case recv == "" && (name == "New" || name == "NewRedlock"):
			c.Role, c.Opts = NewLocker, rest(args, 1)
		case recv == "" && name == "WithAutoRenew":
			c.Role = AutoRenew
		}
	case Redsync:
		switch {
		case recv == "Redsync" && name == "NewMutex":
			c.Role, c.Key, c.Opts = NewMutex, arg(0), rest(args, 1)
		case recv == "Mutex" && (name == "Lock" || name == "LockContext" || name == "TryLock" || name == "TryLockContext"):
			c.Role = Acquire
		case recv == "Mutex" && (name == "Unlock" || name == "UnlockContext"):
			c.Role = Release
		case recv == "Mutex" && (name == "Extend" || name == "ExtendContext"):
			c.Role = Renew
		case recv == "Mutex" && (name == "Valid" || name == "ValidContext" || name == "Until"):
			c.Role = Watch
		case recv == "" && name == "WithExpiry":
			c.Role, c.TTL = Expiry, arg(0)
		}
	case Redislock:
		switch {
		case recv == "Client" && name == "Obtain":
			c.Role, c.Key, c.TTL, c.Handle = Acquire, arg(1), arg(2), 0
		case recv == "" && name == "Obtain":
			c.Role, c.Key, c.TTL, c.Handle = Acquire, arg(2), arg(3), 0
		case recv == "Lock" && name == "Release":
			c.Role = Release
		case recv == "Lock" && name == "Refresh":
			c.Role, c.TTL = Renew, arg(1)
		case recv == "Lock" && name == "TTL":
			c.Role = Watch
		}
	case GoZero:
		// The RedisLock is the handle: NewRedisLock(store, key), then
		// SetExpire(seconds), AcquireCtx(ctx) (bool, error), ReleaseCtx.
		switch {
		case recv == "" && name == "NewRedisLock":
			c.Role, c.Key = NewMutex, arg(1)
		case recv == "RedisLock" && (name == "Acquire" || name == "AcquireCtx"):
			c.Role = Acquire
		case recv == "RedisLock" && (name == "Release" || name == "ReleaseCtx"):
			c.Role = Release
		case recv == "RedisLock" && name == "SetExpire":
			c.Role, c.TTL = Expiry, arg(0)
		}
	case Rueidislock:
		switch {
		case recv == "Locker" && (name == "WithContext" || name == "TryWithContext" || name == "ForceWithContext"):
			c.Role, c.Key, c.LostCtx, c.Handle = Acquire, arg(1), 0, 1
		case recv == "" && name == "NewLocker":
			c.Role = NewLocker
		}
	default:
		classifyHandleLib(c, sig, recv, name, args)
	}
	if c.Role == 0 && recv == "" && strings.HasPrefix(name, "With") && (lib == Safelock || lib == Redsync) {
		c.Role = Option
	}
	if c.Role == 0 {
		return nil
	}
	return c
}

func rest(args []ast.Expr, from int) []ast.Expr {
	if from < len(args) {
		return args[from:]
	}
	return nil
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

func recvName(sig *types.Signature) string {
	if sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// IsToken reports whether call reads the random value a library lock
// stores as its owner (redsync Mutex.Value, redislock Lock.Token,
// safelock Lease.Token). It is no Role: reading the token neither uses
// nor watches the lock.
func IsToken(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || len(call.Args) != 0 {
		return false
	}
	recv := recvName(fn.Type().(*types.Signature))
	switch libOf(fn.Pkg().Path()) {
	case Redsync:
		return recv == "Mutex" && fn.Name() == "Value"
	case Redislock:
		return recv == "Lock" && fn.Name() == "Token"
	case Safelock:
		return recv == "Lease" && fn.Name() == "Token"
	}
	return false
}
