package redismodel

import (
	"go/ast"
	"go/types"
	"strings"
)

// goZeroRedisPath is go-zero's Redis package: the *Redis client, and its
// RedisLock (a lock library: see locklib).
const goZeroRedisPath = "github.com/zeromicro/go-zero/core/stores/redis"

func isGoZero(path string) bool { return path == goZeroRedisPath }

// goZero models a call of go-zero's *redis.Redis. Every command has a
// plain form and a ...Ctx form taking a context first; the name, less
// Ctx, is the command's (Hset is HSET), with the key first. Setnx has no
// TTL; SetnxEx, Setex and Expire take seconds; Eval and EvalSha take the
// script and a []string of keys, ScriptRun a go-zero Script.
func (p *parser) goZero(call *ast.CallExpr, fn *types.Func) *Command {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || recvNamed(sig) != "Redis" {
		return nil // New, NewRedisLock, RedisLock's methods: not commands
	}
	cmd, args := p.methodCommand(call, fn, GoZero)
	spread := call.Ellipsis.IsValid()
	arg := func(i int) ast.Expr { return argAt(args, i) }
	switch name := strings.TrimSuffix(fn.Name(), "Ctx"); name {
	case "Setnx":
		cmd.Name, cmd.Opts.NX = "SET", true
		cmd.Keys, cmd.Value = nonNil(arg(0)), arg(1)
	case "SetnxEx":
		cmd.Name, cmd.Opts.NX, cmd.Opts.Expiry = "SET", true, "EX"
		cmd.Keys, cmd.Value, cmd.TTL, cmd.Unit = nonNil(arg(0)), arg(1), arg(2), UnitSeconds
	case "Set":
		cmd.Name = "SET"
		cmd.Keys, cmd.Value = nonNil(arg(0)), arg(1)
	case "Setex":
		cmd.Name, cmd.Opts.Expiry = "SET", "EX"
		cmd.Keys, cmd.Value, cmd.TTL, cmd.Unit = nonNil(arg(0)), arg(1), arg(2), UnitSeconds
	case "GetSet":
		cmd.Name = "GETSET"
		cmd.Keys, cmd.Value = nonNil(arg(0)), arg(1)
	case "Expire":
		cmd.Name, cmd.Unit = "EXPIRE", UnitSeconds
		cmd.Keys, cmd.TTL = nonNil(arg(0)), arg(1)
	case "Expireat":
		cmd.Name, cmd.Unit = "EXPIREAT", UnitUnixSeconds
		cmd.Keys, cmd.TTL = nonNil(arg(0)), arg(1)
	case "Del":
		cmd.Name = "DEL"
		cmd.Keys = knownArgs(args, spread)
		cmd.Partial = spread
	case "Eval", "EvalSha":
		p.evalScript(cmd, name == "EvalSha", arg(0))
		p.evalKeys(cmd, arg(1), args, 2, spread)
	case "ScriptRun":
		cmd.Name = "EVAL"
		if sv, ok := p.scriptObject(arg(0), 0); ok {
			cmd.Script = p.parse(sv.Text)
		}
		p.evalKeys(cmd, arg(1), args, 2, spread)
	default:
		c := keyFirst(cmd, args, spread)
		if c != nil {
			c.Name = strings.ToUpper(name)
		}
		return c
	}
	return cmd
}
