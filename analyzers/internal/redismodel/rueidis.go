package redismodel

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// isRueidis reports whether path is rueidis (under its module path, or
// github.com/rueian/rueidis, the one before v1) or its generated command
// package, or valkey-go, rueidis's fork with the same builders.
func isRueidis(path string) bool {
	return IsRueidisClient(path) ||
		strings.HasPrefix(path, "github.com/redis/rueidis/internal/cmds") ||
		strings.HasPrefix(path, "github.com/rueian/rueidis/internal/cmds") ||
		strings.HasPrefix(path, "github.com/valkey-io/valkey-go/internal/cmds")
}

// IsRueidisClient reports whether path is the client package of rueidis
// or of valkey-go, whose Do sends a built command.
func IsRueidisClient(path string) bool {
	return path == "github.com/redis/rueidis" || path == "github.com/rueian/rueidis" || path == "github.com/valkey-io/valkey-go"
}

// rueidis models a command builder chain ending in Build() or Cache():
//
//	c.B().Set().Key(k).Value(v).Nx().Px(ttl).Build()
//
// and (*Lua).Exec(ctx, c, keys, args) on a rueidis.NewLuaScript value.
// The command is anchored at the Build call; the client is the receiver
// of B().
func (p *parser) rueidis(call *ast.CallExpr, fn *types.Func) *Command {
	sig := fn.Type().(*types.Signature)
	cmd := &Command{Client: Rueidis, Package: fn.Pkg().Path(), Call: call, Method: fn, info: p.info}
	if recvNamed(sig) == "Lua" {
		switch fn.Name() {
		case "Exec", "ExecRO":
		default:
			return nil
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) != 4 {
			return nil
		}
		cmd.Recv, cmd.CtxArg, cmd.Conn = sel.X, call.Args[0], call.Args[1]
		cmd.Name = "EVAL"
		if sv, ok := p.scriptObject(sel.X, 0); ok {
			cmd.Script = p.parse(sv.Text)
		}
		p.evalKeys(cmd, call.Args[2], nil, 0, false)
		if lit, ok := ast.Unparen(call.Args[3]).(*ast.CompositeLit); ok {
			cmd.ScriptArgs = lit.Elts
		}
		return cmd
	}
	if fn.Name() != "Build" && fn.Name() != "Cache" {
		return nil
	}
	// Collect the chain from the inside out.
	type link struct {
		name string
		args []ast.Expr
	}
	var chain []link
	e := ast.Expr(call)
	for hops := 0; ; {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && p.defs != nil && hops < 4 {
			// q := c.B().Zadd().Key(k); q = q.ScoreMember(...); q.Build():
			// the command and its key are where the builder was declared;
			// what later assignments add is not known here.
			if v, ok := p.info.Uses[id].(*types.Var); ok {
				if x, again := p.defs.Declared(v); x != nil {
					e, hops = x, hops+1
					cmd.Partial = cmd.Partial || again
					continue
				}
			}
		}
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return nil
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		f, _ := typeutil.Callee(p.info, c).(*types.Func)
		if f == nil || f.Pkg() == nil || !isRueidis(f.Pkg().Path()) {
			return nil
		}
		if sel.Sel.Name == "B" {
			cmd.Recv = sel.X
			break
		}
		if c.Ellipsis.IsValid() {
			cmd.Partial = true
		}
		chain = append(chain, link{sel.Sel.Name, c.Args})
		e = sel.X
	}
	if len(chain) < 2 {
		return nil
	}
	// chain[len-1] is the command, chain[0] is Build/Cache.
	cmd.Name = builderCommand(chain[len(chain)-1].name)
	for i := len(chain) - 2; i >= 1; i-- {
		l := chain[i]
		var a ast.Expr
		if len(l.args) > 0 {
			a = l.args[0]
		}
		switch l.name {
		case "Key":
			cmd.Keys = append(cmd.Keys, l.args...)
		case "Value":
			cmd.Value = a
		case "Nx":
			if cmd.Name == "SET" {
				cmd.Opts.NX = true
			} else {
				cmd.Opts.Cond = "NX"
			}
		case "Xx":
			if cmd.Name == "SET" {
				cmd.Opts.XX = true
			} else {
				cmd.Opts.Cond = "XX"
			}
		case "Gt", "Lt":
			cmd.Opts.Cond = strings.ToUpper(l.name)
		case "Get":
			cmd.Opts.Get = true
		case "Keepttl":
			cmd.Opts.KeepTTL = true
		case "Ex", "Px":
			cmd.Opts.Expiry, cmd.TTL, cmd.Unit = strings.ToUpper(l.name), a, UnitDuration
		case "ExSeconds":
			cmd.Opts.Expiry, cmd.TTL, cmd.Unit = "EX", a, UnitSeconds
		case "PxMilliseconds":
			cmd.Opts.Expiry, cmd.TTL, cmd.Unit = "PX", a, UnitMillis
		case "Exat", "Pxat":
			cmd.Opts.Expiry, cmd.TTL, cmd.Unit = strings.ToUpper(l.name), a, UnitTime
		case "ExatTimestamp":
			cmd.Opts.Expiry, cmd.TTL, cmd.Unit = "EXAT", a, UnitUnixSeconds
		case "PxatMillisecondsTimestamp":
			cmd.Opts.Expiry, cmd.TTL, cmd.Unit = "PXAT", a, UnitUnixMillis
		case "Seconds":
			cmd.TTL, cmd.Unit = a, UnitSeconds
		case "Milliseconds":
			cmd.TTL, cmd.Unit = a, UnitMillis
		case "Timestamp":
			cmd.TTL, cmd.Unit = a, UnitUnixSeconds
		case "MillisecondsTimestamp":
			cmd.TTL, cmd.Unit = a, UnitUnixMillis
		case "Ifeq":
			cmd.Opts.IfEq = a
		case "Ifne":
			cmd.Opts.IfNe = a
		case "Script":
			cmd.Script = p.scriptOf(a)
		case "Arg":
			cmd.ScriptArgs = append(cmd.ScriptArgs, l.args...)
		case "Numkeys", "Sha1":
		default:
			cmd.Partial = true
		}
	}
	if cmd.Name == "SETNX" && cmd.TTL != nil {
		cmd.Partial = true
	}
	return cmd
}

// builderCommand names the command of a rueidis builder method: Set is
// SET; a module's commands carry its prefix, JsonSet is JSON.SET.
func builderCommand(method string) string {
	for _, module := range []string{"Json", "Ft", "Ts", "Bf", "Cf", "Cms", "Topk", "Tdigest"} {
		if rest, ok := strings.CutPrefix(method, module); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			return strings.ToUpper(module) + "." + strings.ToUpper(rest)
		}
	}
	return strings.ToUpper(method)
}
