package redismodel

import (
	"go/ast"
	"go/types"
)

// isRedigo reports whether path is a redigo client package.
func isRedigo(path string) bool {
	return path == "github.com/gomodule/redigo/redis" || path == "github.com/garyburd/redigo/redis"
}

// redigo models Conn.Do/Send/DoContext/DoWithTimeout (methods, or the
// package functions of the same names) and Script.Do/Send/SendHash/DoContext.
// The command name is the string parameter just before the variadic
// arguments, so every variant is read the same way.
func (p *parser) redigo(call *ast.CallExpr, fn *types.Func) *Command {
	sig := fn.Type().(*types.Signature)
	params := sig.Params()
	if !sig.Variadic() || params.Len() < 1 {
		return nil
	}
	cmd := &Command{Client: Redigo, Package: fn.Pkg().Path(), Call: call, Method: fn, info: p.info}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sig.Recv() != nil {
		cmd.Recv = sel.X
	}
	for i := 0; i < params.Len() && i < len(call.Args); i++ {
		if isContext(params.At(i).Type()) {
			cmd.CtxArg = call.Args[i]
		}
	}
	spread := call.Ellipsis.IsValid()
	last := params.Len() - 1 // the variadic parameter

	if recvNamed(sig) == "Script" {
		switch fn.Name() {
		case "Do", "DoContext", "Send", "SendHash":
		default:
			return nil
		}
		// (s *Script) Do(c Conn, keysAndArgs ...interface{})
		if last < 1 || last-1 >= len(call.Args) {
			return nil
		}
		cmd.Name = "EVAL"
		cmd.Conn = call.Args[last-1]
		sv, ok := p.scriptObject(cmd.Recv, 0)
		if ok {
			cmd.Script = p.parse(sv.Text)
		}
		rest := knownArgs(call.Args[last:], spread)
		if !ok || sv.KeyCount < 0 || sv.KeyCount > len(rest) || spread {
			cmd.Partial = true
			return cmd
		}
		cmd.Keys = rest[:sv.KeyCount]
		cmd.ScriptArgs = rest[sv.KeyCount:]
		return cmd
	}

	switch fn.Name() {
	case "Do", "Send", "DoContext", "DoWithTimeout":
	default:
		if !p.isRaw(fn) { // a wrapper forwarding to Do
			return nil
		}
	}
	nameIdx := last - 1
	if nameIdx < 0 || nameIdx >= len(call.Args) || !isString(params.At(nameIdx).Type()) {
		return nil
	}
	word, ok := constString(p.info, call.Args[nameIdx])
	if !ok || word == "" {
		return nil
	}
	p.rawArgs(cmd, word, call.Args[last:], spread)
	return cmd
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}
