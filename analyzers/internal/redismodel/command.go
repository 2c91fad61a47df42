// Package redismodel turns the call shapes of every supported Redis client
// into one model: a [Command] says which Redis command a Go call sends, on
// which keys, with which value, options, TTL and Lua script, and whether it
// runs inside a MULTI/EXEC transaction or a WATCH.
//
// Clients are recognised by the import path of the called function and its
// name (via go/types and typeutil.Callee), never by identifier names, so a
// client hidden behind a struct field, an embedded field or a Cmdable
// interface is still seen. One file per client family:
//
//   - goredis.go: go-redis v6, v7, v8 (github.com/go-redis/redis[/vN]) and v9
//     (github.com/redis/go-redis/v9): every method of Client, ClusterClient,
//     Ring, Conn, Tx, Pipeliner and the Cmdable interfaces, SetArgs,
//     DelExArgs, Do, Eval/EvalSha and Script.Run.
//   - redigo.go: github.com/gomodule/redigo and github.com/garyburd/redigo:
//     Conn.Do/Send/DoContext/DoWithTimeout with raw arguments, options in any
//     order and case, and Script.Do/Send.
//   - rueidis.go: rueidis command builders (B().Set().Key(k)...Build()) and
//     rueidis.NewLuaScript(...).Exec.
//   - gredis.go: GoFrame's gredis client (g.Redis().SetNX, Do, Eval; v1's Do without a context).
//   - gozero.go: go-zero's *redis.Redis (SetnxEx, DelCtx, EvalCtx).
//   - radix.go: mediocregopher/radix v3 and v4 actions (radix.Cmd,
//     radix.FlatCmd, EvalScript.Cmd), sent later by a client's Do; and
//     radix.v2's Cmd, PipeAppend and util.LuaEval.
//   - args.go: the raw-argument parser shared by Do-style calls.
//   - script.go: finding Lua text behind an expression: literals, constants,
//     package-level variables, //go:embed files, NewScript values.
//   - scan.go: [Scan] walks a package and reports every command with its
//     [Context] (enclosing function, defer/go, transaction state).
//
// Guarantee: a Command's fields are only set when the source says so. When
// arguments cannot be read (a spread args..., a non-constant option word, an
// options struct that is not a literal), Partial is true and rules must stay
// silent about what the command does or does not do.
package redismodel

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/locklint/locklint/analyzers/internal/luascript"
)

// Client is a client family.
type Client int

const (
	GoRedis Client = iota + 1 // go-redis v6..v9
	Redigo                    // gomodule/redigo, garyburd/redigo
	Rueidis                   // redis/rueidis
	GoFrame                   // gogf/gf gredis
	GoZero                    // zeromicro/go-zero core/stores/redis
	Radix                     // mediocregopher/radix v3, v4
	RadixV2                   // mediocregopher/radix.v2
)

func (c Client) String() string {
	switch c {
	case GoRedis:
		return "go-redis"
	case Redigo:
		return "redigo"
	case Rueidis:
		return "rueidis"
	case GoFrame:
		return "gredis"
	case GoZero:
		return "go-zero"
	case Radix:
		return "radix"
	case RadixV2:
		return "radix.v2"
	}
	return "unknown"
}

// Unit says how a TTL expression is interpreted by the client.
type Unit int

const (
	UnitNone        Unit = iota
	UnitDuration         // a time.Duration (the client converts it)
	UnitSeconds          // an integer number of seconds (EX, EXPIRE)
	UnitMillis           // an integer number of milliseconds (PX, PEXPIRE)
	UnitUnixSeconds      // a Unix time in seconds (EXAT, EXPIREAT)
	UnitUnixMillis       // a Unix time in milliseconds (PXAT, PEXPIREAT)
	UnitTime             // a time.Time (the client converts it)
)

// Options are the SET/DEL/EXPIRE modifiers that matter for locks.
type Options struct {
	NX, XX  bool
	Get     bool     // SET ... GET
	KeepTTL bool     // SET ... KEEPTTL (or go-redis KeepTTL / redis.KeepTTL)
	Expiry  string   // "EX", "PX", "EXAT", "PXAT" or ""
	IfEq    ast.Expr // IFEQ value (SET ... IFEQ v, DELEX k IFEQ v)
	IfNe    ast.Expr // IFNE value
	// Cond holds EXPIRE's NX/XX/GT/LT condition, upper case, if any.
	Cond string
}

// Command is one Redis command sent by one Go call.
type Command struct {
	Name    string        // upper-case Redis command: SET, SETNX, DEL, EXPIRE, EVAL, WATCH, ...
	Client  Client        // client family
	Package string        // import path of the client package
	Call    *ast.CallExpr // the Go call that sends (or, for rueidis, builds) the command
	Method  *types.Func   // the client function or method called
	Recv    ast.Expr      // the client, connection, pipeline or script the method is called on
	Conn    ast.Expr      // the client passed to Script.Run/Script.Do/Lua.Exec, if any
	CtxArg  ast.Expr      // context.Context argument, if any
	// ReplyTo is where a radix action writes its reply (its rcv
	// argument: &v, a radix.MaybeNil, or nil to drop it).
	ReplyTo ast.Expr

	Keys  []ast.Expr // key arguments, in order
	Value ast.Expr   // the value of SET/SETNX/SETEX
	Opts  Options
	TTL   ast.Expr // TTL or expiry time expression (SET EX/PX..., EXPIRE, SetNX's expiration)
	Unit  Unit     // how TTL is interpreted

	// Script is set for EVAL-like commands whose Lua text was found.
	Script     *luascript.Script
	ScriptArgs []ast.Expr // ARGV expressions, when known
	// ScriptSource is the expression holding the Lua text when it could
	// not be read here (a wrapper's parameter: NewScript(src)), so the
	// lifecycle can read it at each caller.
	ScriptSource ast.Expr

	// Partial is true when some arguments could not be read; rules must
	// not conclude anything from an option or TTL being absent.
	Partial bool

	In Context // where the command runs

	info *types.Info
}

// Key returns the first key argument, or nil.
func (c *Command) Key() ast.Expr {
	if len(c.Keys) == 0 {
		return nil
	}
	return c.Keys[0]
}

// Pos returns the position of the call.
func (c *Command) Pos() token.Pos { return c.Call.Pos() }

// AcquiresNX reports whether the command sets its key only if absent
// (SET NX, SETNX, go-redis SetNX, SetArgs{Mode: "NX"}, rueidis Nx()).
func (c *Command) AcquiresNX() bool {
	return c.Name == "SETNX" || c.Name == "SET" && c.Opts.NX
}

// NoExpiry reports whether a SET/SETNX certainly leaves the key without a
// TTL: no EX/PX/EXAT/PXAT, or an expiration that is the constant 0 (or
// KEEPTTL, which keeps "none" on a new key). False when unsure.
func (c *Command) NoExpiry() bool {
	if c.Partial || (c.Name != "SET" && c.Name != "SETNX") {
		return false
	}
	if c.Opts.KeepTTL {
		return true
	}
	if c.TTL == nil {
		return true
	}
	return isZeroConst(c.info, c.TTL)
}

// SetsExpiry reports whether the command gives its key a TTL: SET with a
// TTL that is not the constant 0, SETEX/PSETEX, and the EXPIRE family.
func (c *Command) SetsExpiry() bool {
	switch c.Name {
	case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "SETEX", "PSETEX":
		return true
	case "SET", "SETNX":
		return c.TTL != nil && !c.Opts.KeepTTL && !isZeroConst(c.info, c.TTL)
	}
	return false
}

// Deletes reports whether the command deletes its keys outright
// (DEL, UNLINK, GETDEL) — not DELEX with a condition.
func (c *Command) Deletes() bool {
	switch c.Name {
	case "DEL", "UNLINK", "GETDEL":
		return true
	case "DELEX":
		return c.Opts.IfEq == nil && c.Opts.IfNe == nil && !c.Partial
	}
	return false
}

func isZeroConst(info *types.Info, e ast.Expr) bool {
	if info == nil {
		return false
	}
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	v := constant.ToInt(tv.Value)
	return v.Kind() == constant.Int && constant.Sign(v) == 0
}

// constString returns the constant string value of e.
func constString(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// constInt returns the constant integer value of e.
func constInt(info *types.Info, e ast.Expr) (int64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	v := constant.ToInt(tv.Value)
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}
