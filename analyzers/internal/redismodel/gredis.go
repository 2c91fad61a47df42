package redismodel

import (
	"go/ast"
	"go/types"
	"strings"
)

// isGoFrame reports whether path is GoFrame's Redis client package.
func isGoFrame(path string) bool {
	return path == "github.com/gogf/gf/v2/database/gredis" || path == "github.com/gogf/gf/database/gredis"
}

// goFrame models a call of GoFrame's gredis client, v2 and v1 (g.Redis() is a
// *gredis.Redis, whose command methods come from the adapter interfaces
// it embeds): Do(ctx, "SET", args...) like redigo's Do, SetNX (which has
// no TTL), SetEX and Expire in seconds, PExpire in milliseconds, Del,
// Eval with its script text, and other methods whose first parameter
// after ctx is the key. Set with options is partial.
func (p *parser) goFrame(call *ast.CallExpr, fn *types.Func) *Command {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return nil // Instance, SetConfig, ...: not commands
	}
	cmd, args := p.methodCommand(call, fn, GoFrame)
	spread := call.Ellipsis.IsValid()
	if cmd.CtxArg == nil {
		// Every v2 command takes a context first. GoFrame v1 sends
		// commands as redigo does, Do("SET", args...) on the client or a
		// connection (DoVar too; the WithTimeout forms take the timeout
		// first).
		if fn.Pkg().Path() != "github.com/gogf/gf/database/gredis" {
			return nil
		}
		switch fn.Name() {
		case "Do", "DoVar":
		case "DoWithTimeout", "DoVarWithTimeout":
			args = args[min(1, len(args)):]
		default:
			return nil
		}
		word, ok := constString(p.info, argAt(args, 0))
		if !ok {
			return nil
		}
		p.rawArgs(cmd, word, args[1:], spread)
		return cmd
	}
	arg := func(i int) ast.Expr { return argAt(args, i) }
	switch name := fn.Name(); name {
	case "Do":
		word, ok := constString(p.info, arg(0))
		if !ok {
			return nil
		}
		p.rawArgs(cmd, word, args[1:], spread)
	case "SetNX":
		cmd.Name, cmd.Opts.NX = "SET", true
		cmd.Keys, cmd.Value = nonNil(arg(0)), arg(1)
	case "SetEX":
		cmd.Name, cmd.Opts.Expiry = "SET", "EX"
		cmd.Keys, cmd.Value, cmd.TTL, cmd.Unit = nonNil(arg(0)), arg(1), arg(2), UnitSeconds
	case "Set":
		cmd.Name = "SET"
		cmd.Keys, cmd.Value = nonNil(arg(0)), arg(1)
		cmd.Partial = len(args) > 2 // SetOption{NX, TTLOption{EX: &n}}: not read
	case "Expire", "PExpire":
		cmd.Name, cmd.Unit = "EXPIRE", UnitSeconds
		if name == "PExpire" {
			cmd.Name, cmd.Unit = "PEXPIRE", UnitMillis
		}
		cmd.Keys, cmd.TTL = nonNil(arg(0)), arg(1)
		cmd.Partial = len(args) > 2
	case "Del", "Unlink", "Exists":
		cmd.Name = strings.ToUpper(name)
		cmd.Keys = knownArgs(args, spread)
		cmd.Partial = spread
	case "Eval", "EvalSha":
		// Eval(ctx, script, numKeys, keys, args)
		p.evalScript(cmd, name == "EvalSha", arg(0))
		p.evalKeys(cmd, arg(2), nil, 0, false)
		if lit, ok := ast.Unparen(arg(3)).(*ast.CompositeLit); ok {
			cmd.ScriptArgs = lit.Elts
		} else if a := arg(3); a != nil && !p.info.Types[a].IsNil() {
			cmd.Partial = true
		}
	default:
		return keyFirst(cmd, args, spread)
	}
	return cmd
}
