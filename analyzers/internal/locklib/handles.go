package locklib

import (
	"go/ast"
	"go/types"
	"strings"
	"time"
)

// The smaller lock libraries. All but redlock-go hand out a lock object
// made by a constructor that names the key (New, NewLock, NewRedisLock),
// whose methods take, renew and give back the lock, as redsync's Mutex
// does; redlock-go's manager takes and gives back a lock by its key.
// What each does was read in its source:
//
//   - bsm/redis-lock: New/NewLock(client, key, opts) make a Locker (v8)
//     or Lock (v6); its Lock()/LockWithContext(ctx) return (false, nil)
//     when the key is held, and a second Lock on a held lock refreshes
//     it. Obtain (v8) fails with ErrLockNotObtained; ObtainLock (v6)
//     returns (nil, nil). Run(client, key, opts, handler) runs handler
//     under the lock. The TTL is Options.LockTimeout, 5 s by default; no
//     renewal.
//   - amyangfei/redlock-go: RedLock.Lock(ctx, resource, ttl) returns the
//     validity left and an error when no quorum was reached;
//     UnLock(ctx, resource). No renewal. (v1 takes no context.)
//   - jefferyjob/go-redislock: New([ctx,] client, key, opts...) makes a
//     RedisLockInter whose Lock, SpinLock, FairLock, RLock, WLock (and
//     Spin variants) fail with an error; UnLock, Renew and their fair,
//     read and write forms. WithTimeout sets the TTL (5 s by default);
//     WithAutoRenew starts a watchdog, whose failures are only logged.
//   - xiaoxuxiansheng/redis_lock: NewRedisLock(key, client, opts...);
//     Lock(ctx) fails with an error; Unlock(ctx); DelayExpire(ctx,
//     seconds). Without WithExpireSeconds a watchdog keeps a 30 s key
//     alive; with it the key lives that many seconds, unrenewed.
//     NewRedLock(key, confs, opts...) is its Redlock, the same way, its
//     TTL set by WithRedLockExpireDuration.
func handleLibOf(path string) Lib {
	switch {
	case path == "github.com/bsm/redis-lock":
		return BsmRedisLock
	case path == "github.com/amyangfei/redlock-go/redlock",
		strings.HasPrefix(path, "github.com/amyangfei/redlock-go/v") && strings.HasSuffix(path, "/redlock"):
		return RedlockGo
	case path == "github.com/jefferyjob/go-redislock":
		return GoRedislock
	case path == "github.com/xiaoxuxiansheng/redis_lock":
		return XiaoxuRedisLock
	case path == "github.com/go-co-op/gocron/v2":
		return Gocron
	}
	return Raw
}

// Defaults says what a lock of lib does when nothing sets its TTL: the
// TTL it gets and whether the library renews it by itself.
func (l Lib) Defaults() (ttl time.Duration, renews bool) {
	switch l {
	case Redsync:
		return 8 * time.Second, false
	case BsmRedisLock, GoRedislock:
		return 5 * time.Second, false
	case XiaoxuRedisLock:
		return 30 * time.Second, true
	}
	return 0, false
}

// classifyHandleLib fills c for a call of one of the smaller libraries.
func classifyHandleLib(c *Call, sig *types.Signature, recv, name string, args []ast.Expr) {
	arg := func(i int) ast.Expr {
		if i >= 0 && i < len(args) {
			return args[i]
		}
		return nil
	}
	// The key is the first string parameter in every constructor and in
	// redlock-go's Lock and UnLock.
	key := -1
	for i := 0; i < sig.Params().Len(); i++ {
		if isString(sig.Params().At(i).Type()) {
			key = i
			break
		}
	}
	switch c.Lib {
	case BsmRedisLock:
		switch {
		case recv == "" && (name == "New" || name == "NewLock"):
			c.Role, c.Key = NewMutex, arg(1)
			c.TTL, c.DefaultTTL = lockTimeoutField(arg(2))
		case recv == "" && (name == "Obtain" || name == "ObtainLock"):
			c.Role, c.Key, c.Handle = Acquire, arg(1), 0
			c.TTL, c.DefaultTTL = lockTimeoutField(arg(2))
		case recv == "" && name == "Run":
			c.Role, c.Key, c.Fn = Acquire, arg(1), arg(3)
			c.TTL, c.DefaultTTL = lockTimeoutField(arg(2))
		case (recv == "Locker" || recv == "Lock") && (name == "Lock" || name == "LockWithContext"):
			c.Role = Acquire
		case (recv == "Locker" || recv == "Lock") && name == "Unlock":
			c.Role = Release
		}
	case RedlockGo:
		if recv != "RedLock" {
			if recv == "" && name == "NewRedLock" {
				c.Role = NewLocker
			}
			return
		}
		switch name {
		case "Lock":
			c.Role, c.Key = Acquire, arg(key)
			if key+1 < sig.Params().Len() && isNamed(sig.Params().At(key+1).Type(), "time", "Duration") {
				c.TTL = arg(key + 1)
			}
		case "UnLock":
			c.Role, c.Key = Release, arg(key)
		}
	case GoRedislock:
		switch {
		case recv == "" && name == "New":
			c.Role, c.Key = NewMutex, arg(key)
			if key >= 0 {
				c.Opts = rest(args, key+1)
			}
		case recv == "" && name == "WithTimeout":
			c.Role, c.TTL = Expiry, arg(0)
		case recv == "" && name == "WithAutoRenew":
			c.Role = AutoRenew
		case recv == "" && strings.HasPrefix(name, "With"):
			c.Role = Option
		case recv == "RedisLockInter" || recv == "RedisLock":
			switch name {
			case "Lock", "SpinLock", "TryLock", "FairLock", "SpinFairLock", "RLock", "SpinRLock", "WLock", "SpinWLock":
				c.Role = Acquire
			case "UnLock", "FairUnLock", "RUnLock", "WUnLock", "UnRLock", "UnWLock":
				c.Role = Release
			case "Renew", "FairRenew", "RRenew", "WRenew":
				c.Role = Renew
			}
		}
	case Gocron:
		classifyGocron(c, recv, name, args)
	case XiaoxuRedisLock:
		switch {
		case recv == "" && name == "NewRedisLock":
			c.Role, c.Key, c.Opts = NewMutex, arg(0), rest(args, 2)
		case recv == "" && name == "NewRedLock":
			c.Role, c.Key, c.Opts = NewMutex, arg(0), rest(args, 2)
		case recv == "" && name == "WithExpireSeconds":
			c.Role, c.TTL, c.TTLSeconds = Expiry, arg(0), true
		case recv == "" && name == "WithRedLockExpireDuration":
			c.Role, c.TTL = Expiry, arg(0)
		case recv == "" && strings.HasPrefix(name, "With"):
			c.Role = Option
		case (recv == "RedisLock" || recv == "RedLock") && name == "Lock":
			c.Role = Acquire
		case (recv == "RedisLock" || recv == "RedLock") && name == "Unlock":
			c.Role = Release
		case recv == "RedisLock" && name == "DelayExpire":
			c.Role, c.TTL, c.TTLSeconds = Renew, arg(1), true
		}
	}
}

// KeyedRelease reports whether a lock of lib is given back by its key on
// the object that took it (redlock-go's UnLock(ctx, resource)) rather
// than through a handle of its own.
func (l Lib) KeyedRelease() bool { return l == RedlockGo }

// lockTimeoutField returns the LockTimeout of a bsm/redis-lock options
// literal (&lock.Options{LockTimeout: 30 * time.Second}), or, when the
// options are nil or a literal without it, that the default applies. Of
// options made elsewhere it knows nothing.
func lockTimeoutField(e ast.Expr) (ttl ast.Expr, isDefault bool) {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && id.Name == "nil" {
		return nil, true
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok {
		e = u.X
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "LockTimeout" {
				return kv.Value, false
			}
		}
	}
	return nil, true
}

// classifyGocron fills c for gocron v2, whose executor takes the
// distributed locker's lock (Locker.Lock(ctx, job name)) before each run
// of a job and releases it when the task returns: NewJob(def,
// NewTask(fn, ...), opts...) is an acquire whose section is fn, when the
// scheduler (NewScheduler(WithDistributedLocker(l))) or the job
// (WithDistributedJobLocker(l)) has a locker, which section decides.
func classifyGocron(c *Call, recv, name string, args []ast.Expr) {
	arg := func(i int) ast.Expr {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	switch {
	case recv == "" && name == "NewScheduler":
		c.Role, c.Opts = NewLocker, args
	case recv == "" && (name == "WithDistributedLocker" || name == "WithDistributedJobLocker"):
		c.Role = SchedLocker
	case recv == "" && name == "WithDisabledDistributedJobLocker":
		c.Role = NoSchedLocker
	case recv == "" && name == "WithName":
		c.Role, c.Key = JobName, arg(0)
	case recv == "Scheduler" && (name == "NewJob" || name == "Update"):
		at := 1 // NewJob(def, task, opts...)
		if name == "Update" {
			at = 2 // Update(id, def, task, opts...)
		}
		task := arg(at)
		if task == nil {
			return
		}
		// The task's function, or the Task value, which section resolves
		// (task := gocron.NewTask(fn); s.NewJob(def, task)).
		c.Role, c.Fn, c.Opts = Acquire, task, rest(args, at+1)
		if call, ok := ast.Unparen(task).(*ast.CallExpr); ok && IsGocronTask(call) {
			c.Fn = call.Args[0]
		}
	}
}

// IsGocronTask reports whether call is gocron.NewTask(fn, ...) with its
// function.
func IsGocronTask(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "NewTask" && len(call.Args) > 0
}
