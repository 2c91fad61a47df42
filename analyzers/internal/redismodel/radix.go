package redismodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// IsRadix reports whether path is the radix client (v3 or v4).
func IsRadix(path string) bool { return isRadix(path) }

// ReplyVar returns the variable a radix action writes its reply into
// (radix.Cmd(&reply, ...)), or nil: a nil receiver, a MaybeNil literal,
// a field.
func (c *Command) ReplyVar() *types.Var {
	u, ok := ast.Unparen(c.ReplyTo).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND || c.info == nil {
		return nil
	}
	id, ok := ast.Unparen(u.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := c.info.Uses[id].(*types.Var)
	return v
}

func isRadix(path string) bool {
	return path == "github.com/mediocregopher/radix/v3" || path == "github.com/mediocregopher/radix/v4"
}

// isRadixV2 reports whether path is a package of radix.v2 (redis, pool,
// cluster, sentinel, util), whose calls send at once.
func isRadixV2(path string) bool {
	return strings.HasPrefix(path, "github.com/mediocregopher/radix.v2/")
}

// radixV2 models radix.v2's Cmd(cmd, args...) on a Client, Pool, Cluster
// or util.Cmder, which sends at once and returns the reply (*redis.Resp)
// as redigo's Do does; PipeAppend, which queues one (see scanner.call);
// and util.LuaEval(c, script, numKeys, keysAndArgs...).
func (p *parser) radixV2(call *ast.CallExpr, fn *types.Func) *Command {
	sig := fn.Type().(*types.Signature)
	if !sig.Variadic() {
		return nil
	}
	cmd := &Command{Client: RadixV2, Package: fn.Pkg().Path(), Call: call, Method: fn, info: p.info}
	spread := call.Ellipsis.IsValid()
	if fn.Name() == "LuaEval" && sig.Recv() == nil {
		if len(call.Args) < 3 {
			return nil
		}
		cmd.Conn = call.Args[0]
		p.evalScript(cmd, false, call.Args[1])
		n, ok := constInt(p.info, call.Args[2])
		rest := knownArgs(call.Args[3:], spread)
		if !ok || n < 0 || int(n) > len(rest) || spread {
			cmd.Partial = true
			return cmd
		}
		cmd.Keys, cmd.ScriptArgs = rest[:n], rest[n:]
		return cmd
	}
	switch fn.Name() {
	case "Cmd", "PipeAppend":
	default:
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sig.Recv() != nil {
		cmd.Recv = sel.X
	}
	if len(call.Args) < 1 || sig.Params().Len() != 2 || !isString(sig.Params().At(0).Type()) {
		return nil
	}
	word, ok := constString(p.info, call.Args[0])
	if !ok || word == "" {
		return nil
	}
	p.rawArgs(cmd, word, call.Args[1:], spread)
	return cmd
}

// radix models the action constructors of mediocregopher/radix:
//
//	radix.Cmd(&rcv, "SET", key, value, "NX", "EX", "10")
//	radix.FlatCmd(&rcv, "SET", key, value, "PX", ttl)   // v3: (rcv, cmd, key, args...)
//	script.Cmd(&rcv, key, token)                         // v3 EvalScript: keys and args, NewEvalScript(numKeys, src)
//	script.Cmd(&rcv, []string{key}, token)               // v4 EvalScript: NewEvalScript(src)
//
// The command is anchored at the constructor, as rueidis' is at Build:
// the action is sent later by a client's Do. Its reply is not a result of
// any call but is written into the receiver (ReplyTo).
func (p *parser) radix(call *ast.CallExpr, fn *types.Func) *Command {
	sig := fn.Type().(*types.Signature)
	if !sig.Variadic() || len(call.Args) < 1 {
		return nil
	}
	v3 := fn.Pkg().Path() == "github.com/mediocregopher/radix/v3"
	cmd := &Command{Client: Radix, Package: fn.Pkg().Path(), Call: call, Method: fn, info: p.info, ReplyTo: call.Args[0]}
	spread := call.Ellipsis.IsValid()
	if recvNamed(sig) == "EvalScript" {
		if fn.Name() != "Cmd" && fn.Name() != "FlatCmd" {
			return nil
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		cmd.Recv = sel.X
		cmd.Name = "EVAL"
		sv, ok := p.scriptObject(sel.X, 0)
		if ok {
			cmd.Script = p.parse(sv.Text)
		}
		if v3 && fn.Name() == "Cmd" {
			// Cmd(rcv, keysAndArgs ...string): the script's key count splits them.
			rest := knownArgs(call.Args[1:], spread)
			if !ok || sv.KeyCount < 0 || sv.KeyCount > len(rest) || spread {
				cmd.Partial = true
				return cmd
			}
			cmd.Keys, cmd.ScriptArgs = rest[:sv.KeyCount], rest[sv.KeyCount:]
			return cmd
		}
		if len(call.Args) < 2 {
			return nil
		}
		p.evalKeys(cmd, call.Args[1], call.Args, 2, spread)
		return cmd
	}
	if sig.Recv() != nil || len(call.Args) < 2 {
		return nil
	}
	var args []ast.Expr
	switch fn.Name() {
	case "Cmd":
		args = call.Args[2:]
	case "FlatCmd":
		args = call.Args[2:]
		if v3 && len(args) == 0 {
			return nil
		}
	default:
		return nil
	}
	word, ok := constString(p.info, call.Args[1])
	if !ok || word == "" {
		return nil
	}
	p.rawArgs(cmd, word, args, spread)
	return cmd
}
