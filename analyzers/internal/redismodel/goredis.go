package redismodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// isGoRedis reports whether path is a go-redis client package.
func isGoRedis(path string) bool {
	switch path {
	case "github.com/go-redis/redis", "github.com/go-redis/redis/v7",
		"github.com/go-redis/redis/v8", "github.com/go-redis/redis/v9", "github.com/redis/go-redis/v9",
		// the import paths before github.com (v3 to v6)
		"gopkg.in/redis.v3", "gopkg.in/redis.v4", "gopkg.in/redis.v5", "gopkg.in/redis.v6":
		return true
	}
	return IsGoRedisCompat(path)
}

// IsGoRedisCompat reports whether path is rueidis's go-redis-compatible
// adapter (rueidiscompat, valkey-go's valkeycompat): go-redis v9's
// Cmdable, Script, Pipeliner and Tx, with the same method names and
// results, sent by rueidis. It is read as go-redis.
func IsGoRedisCompat(path string) bool {
	switch path {
	case "github.com/redis/rueidis/rueidiscompat", "github.com/rueian/rueidis/rueidiscompat",
		"github.com/valkey-io/valkey-go/valkeycompat":
		return true
	}
	return false
}

// goRedis models a call to a go-redis function or method. All client
// types share their command methods (through the embedded cmdable), and
// interface methods (Cmdable, UniversalClient, Pipeliner) live in the same
// package, so the package path and method name are enough.
func (p *parser) goRedis(call *ast.CallExpr, fn *types.Func) *Command {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return nil // NewClient, NewScript, ...: not commands
	}
	cmd, args := p.methodCommand(call, fn, GoRedis)
	spread := call.Ellipsis.IsValid()
	arg := func(i int) ast.Expr { return argAt(args, i) }
	name := fn.Name()

	if recvNamed(sig) == "Script" {
		// (*Script).Run/RunRO/Eval/EvalRO/EvalSha/EvalShaRO(ctx, c, keys, args...)
		switch name {
		case "Run", "RunRO", "Eval", "EvalRO", "EvalSha", "EvalShaRO":
		default:
			return nil
		}
		cmd.Name = "EVAL"
		cmd.Conn = arg(0)
		if sv, ok := p.scriptObject(cmd.Recv, 0); ok {
			cmd.Script = p.parse(sv.Text)
		} else {
			cmd.ScriptSource = p.scriptSource(cmd.Recv, 0)
		}
		p.evalKeys(cmd, arg(1), args, 2, spread)
		return cmd
	}

	switch name {
	case "SetNX":
		cmd.Name, cmd.Opts.NX = "SET", true
		p.setTTL(cmd, arg(2))
		cmd.Keys, cmd.Value = nonNil(arg(0)), arg(1)
	case "Set", "SetEx", "SetEX", "SetXX":
		cmd.Name = "SET"
		cmd.Opts.XX = name == "SetXX"
		p.setTTL(cmd, arg(2))
		cmd.Keys, cmd.Value = nonNil(arg(0)), arg(1)
	case "SetIFEQ", "SetIFEQGet":
		cmd.Name = "SET"
		cmd.Opts.IfEq = arg(2)
		cmd.Opts.Get = name == "SetIFEQGet"
		p.setTTL(cmd, arg(3))
		cmd.Keys, cmd.Value = nonNil(arg(0)), arg(1)
	case "GetSet":
		cmd.Name = "GETSET"
		cmd.Keys, cmd.Value = nonNil(arg(0)), arg(1)
	case "SetArgs":
		cmd.Name = "SET"
		cmd.Keys, cmd.Value = nonNil(arg(0)), arg(1)
		p.setArgs(cmd, arg(2))
	case "Expire", "PExpire", "ExpireNX", "ExpireXX", "ExpireGT", "ExpireLT":
		cmd.Name = "EXPIRE"
		if name == "PExpire" {
			cmd.Name = "PEXPIRE"
		}
		if len(name) > 6 && name[0] == 'E' {
			cmd.Opts.Cond = name[6:]
		}
		cmd.Keys, cmd.TTL, cmd.Unit = nonNil(arg(0)), arg(1), UnitDuration
	case "ExpireAt", "PExpireAt":
		cmd.Name = strings.ToUpper(name)
		cmd.Keys, cmd.TTL, cmd.Unit = nonNil(arg(0)), arg(1), UnitTime
	case "Del", "Unlink", "Exists", "Touch":
		cmd.Name = strings.ToUpper(name)
		cmd.Keys = knownArgs(args, spread)
		cmd.Partial = spread
	case "DelExArgs":
		cmd.Name = "DELEX"
		cmd.Keys = nonNil(arg(0))
		p.delExArgs(cmd, arg(1))
	case "Eval", "EvalRO", "EvalSha", "EvalShaRO":
		p.evalScript(cmd, strings.HasPrefix(name, "EvalSha"), arg(0))
		p.evalKeys(cmd, arg(1), args, 2, spread)
	case "Do":
		word, ok := constString(p.info, arg(0))
		if !ok {
			return nil
		}
		p.rawArgs(cmd, word, args[1:], spread)
	case "XAdd":
		// XAdd(ctx, &redis.XAddArgs{Stream: key, ...})
		cmd.Name = "XADD"
		cmd.Keys = nonNil(p.fieldOf(arg(0), "Stream"))
		cmd.Partial = cmd.Keys == nil
	case "Watch":
		// Watch(ctx, fn, keys...) (v6/v7: Watch(fn, keys...))
		cmd.Name = "WATCH"
		if len(args) > 1 {
			cmd.Keys = knownArgs(args[1:], spread)
		}
	default:
		return keyFirst(cmd, args, spread)
	}
	return cmd
}

// methodCommand starts the model of a call of a client method: the
// command with its client, call and receiver, and the call's arguments
// after a leading context.Context (recorded as CtxArg).
func (p *parser) methodCommand(call *ast.CallExpr, fn *types.Func, client Client) (*Command, []ast.Expr) {
	cmd := &Command{Client: client, Package: fn.Pkg().Path(), Call: call, Method: fn, info: p.info}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		cmd.Recv = sel.X
	}
	args := call.Args
	if sig := fn.Type().(*types.Signature); sig.Params().Len() > 0 && isContext(sig.Params().At(0).Type()) && len(args) > 0 {
		cmd.CtxArg, args = args[0], args[1:]
	}
	return cmd, args
}

// argAt returns args[i], or nil past the end.
func argAt(args []ast.Expr, i int) ast.Expr {
	if i < len(args) {
		return args[i]
	}
	return nil
}

// keyFirst models any other command method by its name, when its first
// parameter after the context is the key ("key") or the keys ("keys");
// nil otherwise.
func keyFirst(cmd *Command, args []ast.Expr, spread bool) *Command {
	params := cmd.Method.Type().(*types.Signature).Params()
	first := 0
	if cmd.CtxArg != nil {
		first = 1
	}
	if params.Len() <= first {
		return nil
	}
	switch params.At(first).Name() {
	case "key", "stream": // XAck(ctx, stream, group, ids...), XDel(ctx, stream, ids...)
		cmd.Keys = nonNil(argAt(args, 0))
	case "keys":
		cmd.Keys = knownArgs(args, spread)
		cmd.Partial = spread
	default:
		return nil
	}
	cmd.Name = strings.ToUpper(cmd.Method.Name())
	return cmd
}

// fieldOf returns the value of field in an options literal (&T{F: v} or
// T{F: v}), or nil when e is not such a literal or does not set it.
func (p *parser) fieldOf(e ast.Expr, field string) ast.Expr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field {
				return kv.Value
			}
		}
	}
	return nil
}

// setTTL records a go-redis expiration argument: a time.Duration where 0
// means none and redis.KeepTTL (-1) means KEEPTTL.
func (p *parser) setTTL(cmd *Command, ttl ast.Expr) {
	if ttl == nil {
		return
	}
	if n, ok := constInt(p.info, ttl); ok && n == -1 {
		cmd.Opts.KeepTTL = true
		return
	}
	cmd.TTL, cmd.Unit = ttl, UnitDuration
}

// setArgs reads a redis.SetArgs composite literal.
func (p *parser) setArgs(cmd *Command, e ast.Expr) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		cmd.Partial = true
		return
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			cmd.Partial = true
			continue
		}
		field, _ := kv.Key.(*ast.Ident)
		if field == nil {
			continue
		}
		switch field.Name {
		case "Mode":
			mode, ok := constString(p.info, kv.Value)
			if !ok {
				cmd.Partial = true
				continue
			}
			switch strings.ToUpper(mode) {
			case "NX":
				cmd.Opts.NX = true
			case "XX":
				cmd.Opts.XX = true
			case "IFEQ":
				cmd.Opts.IfEq = matchValue(lit)
			case "IFNE":
				cmd.Opts.IfNe = matchValue(lit)
			case "":
			default:
				cmd.Partial = true
			}
		case "TTL":
			cmd.TTL, cmd.Unit = kv.Value, UnitDuration
		case "ExpireAt":
			cmd.TTL, cmd.Unit, cmd.Opts.Expiry = kv.Value, UnitTime, "EXAT"
		case "KeepTTL":
			cmd.Opts.KeepTTL = !isFalse(p.info, kv.Value)
		case "Get":
			cmd.Opts.Get = !isFalse(p.info, kv.Value)
		}
	}
}

// delExArgs reads a redis.DelExArgs composite literal.
func (p *parser) delExArgs(cmd *Command, e ast.Expr) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		cmd.Partial = true
		return
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			cmd.Partial = true
			continue
		}
		if field, _ := kv.Key.(*ast.Ident); field != nil && field.Name == "Mode" {
			mode, _ := constString(p.info, kv.Value)
			switch strings.ToUpper(mode) {
			case "IFEQ":
				cmd.Opts.IfEq = matchValue(lit)
			case "IFNE":
				cmd.Opts.IfNe = matchValue(lit)
			default:
				cmd.Partial = true // digests or unknown: owner-checked as far as we know
			}
		}
	}
}

func matchValue(lit *ast.CompositeLit) ast.Expr {
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, _ := kv.Key.(*ast.Ident); id != nil && id.Name == "MatchValue" {
				return kv.Value
			}
		}
	}
	return &ast.BadExpr{From: lit.Pos(), To: lit.End()}
}

func isFalse(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.String() == "false"
}

// evalKeys reads the keys slice of an EVAL-like call and the ARGV that
// follow it at args[from:].
func (p *parser) evalKeys(cmd *Command, keys ast.Expr, args []ast.Expr, from int, spread bool) {
	if v := p.varOf(keys); v != nil && v.Parent() != nil && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
		if def, ok := ast.Unparen(p.defs.Single(v)).(*ast.CompositeLit); ok {
			keys = def // keys := []string{key}, assigned once
		}
	}
	if lit, ok := ast.Unparen(keys).(*ast.CompositeLit); ok {
		for _, elt := range lit.Elts {
			if _, kv := elt.(*ast.KeyValueExpr); kv {
				cmd.Partial = true
				return
			}
		}
		cmd.Keys = lit.Elts
	} else if keys != nil && !isNilIdent(p.info, keys) {
		cmd.Partial = true
	}
	if from < len(args) {
		cmd.ScriptArgs = knownArgs(args[from:], spread)
	}
	if spread {
		cmd.Partial = true
	}
}

func isNilIdent(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// recvNamed returns the name of the receiver's named type ("" if none).
func recvNamed(sig *types.Signature) string {
	if sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// knownArgs drops the spread slice of f(xs...): its elements are unknown.
func knownArgs(args []ast.Expr, spread bool) []ast.Expr {
	if spread && len(args) > 0 {
		return args[:len(args)-1]
	}
	return args
}
