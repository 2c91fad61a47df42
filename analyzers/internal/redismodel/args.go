package redismodel

import (
	"go/ast"
	"strings"
)

// rawArgs fills cmd from a command name and its raw arguments, as sent by
// redigo's Do/Send and go-redis's Do. Option words may come in any order
// and any case; a word that is not a constant makes the command Partial.
// spread says the last argument was passed as args..., so more may follow.
func (p *parser) rawArgs(cmd *Command, name string, args []ast.Expr, spread bool) {
	cmd.Name = strings.ToUpper(name)
	if spread && len(args) > 0 {
		if elems, ok := p.spreadElems(args[len(args)-1], cmd.Call); ok {
			args = append(args[:len(args)-1:len(args)-1], elems...)
		} else {
			// f(cmd, xs...): the elements of xs are unknown.
			cmd.Partial = true
			args = args[:len(args)-1]
		}
	}
	info := p.info
	arg := func(i int) ast.Expr {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	keys := func(from int) {
		if from < len(args) {
			cmd.Keys = append(cmd.Keys, args[from:]...)
		}
	}
	// options reads modifier words from args[from:].
	options := func(from int) {
		for i := from; i < len(args); i++ {
			w, ok := constString(info, args[i])
			if !ok {
				cmd.Partial = true
				continue
			}
			switch strings.ToUpper(w) {
			case "NX":
				if cmd.Name == "SET" {
					cmd.Opts.NX = true
				} else {
					cmd.Opts.Cond = "NX"
				}
			case "XX":
				if cmd.Name == "SET" {
					cmd.Opts.XX = true
				} else {
					cmd.Opts.Cond = "XX"
				}
			case "GT", "LT":
				cmd.Opts.Cond = strings.ToUpper(w)
			case "GET":
				cmd.Opts.Get = true
			case "KEEPTTL":
				cmd.Opts.KeepTTL = true
			case "EX", "PX", "EXAT", "PXAT":
				cmd.Opts.Expiry = strings.ToUpper(w)
				cmd.Unit = rawUnit[cmd.Opts.Expiry]
				cmd.TTL = arg(i + 1)
				i++
			case "IFEQ":
				cmd.Opts.IfEq = arg(i + 1)
				i++
			case "IFNE":
				cmd.Opts.IfNe = arg(i + 1)
				i++
			default:
				// IFDEQ and friends, or an unknown word: we cannot tell.
				cmd.Partial = true
			}
		}
	}

	switch cmd.Name {
	case "SET":
		cmd.Keys = nonNil(arg(0))
		cmd.Value = arg(1)
		options(2)
	case "SETNX", "GETSET":
		cmd.Keys = nonNil(arg(0))
		cmd.Value = arg(1)
	case "SETEX", "PSETEX":
		cmd.Keys = nonNil(arg(0))
		cmd.TTL, cmd.Value = arg(1), arg(2)
		cmd.Unit = UnitSeconds
		cmd.Opts.Expiry = "EX"
		if cmd.Name == "PSETEX" {
			cmd.Unit, cmd.Opts.Expiry = UnitMillis, "PX"
		}
	case "DEL", "UNLINK", "WATCH", "EXISTS", "TOUCH":
		keys(0)
	case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT":
		cmd.Keys = nonNil(arg(0))
		cmd.TTL = arg(1)
		cmd.Unit = rawUnit[cmd.Name]
		options(2)
	case "DELEX":
		cmd.Keys = nonNil(arg(0))
		options(1)
	case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO":
		if cmd.Name == "EVAL" || cmd.Name == "EVAL_RO" {
			cmd.Script = p.scriptOf(arg(0))
		}
		n, ok := constInt(info, arg(1))
		if !ok || int(n)+2 > len(args) {
			cmd.Partial = true
			return
		}
		cmd.Keys = append(cmd.Keys, args[2:2+n]...)
		cmd.ScriptArgs = args[2+n:]
	case "MULTI", "EXEC", "DISCARD", "UNWATCH", "PING":
	default:
		cmd.Keys = nonNil(arg(0))
	}
}

var rawUnit = map[string]Unit{
	"EX": UnitSeconds, "PX": UnitMillis, "EXAT": UnitUnixSeconds, "PXAT": UnitUnixMillis,
	"EXPIRE": UnitSeconds, "PEXPIRE": UnitMillis, "EXPIREAT": UnitUnixSeconds, "PEXPIREAT": UnitUnixMillis,
}

func nonNil(e ast.Expr) []ast.Expr {
	if e == nil {
		return nil
	}
	return []ast.Expr{e}
}
