package lockunits

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// TTLParamFact marks a function that passes a parameter with no unit of
// its own (ttl int64) on as a TTL counted in seconds or milliseconds (after
// EX or PX, to EXPIRE, as a script's ARGV used so): its callers' arguments
// are checked as if they stood there (writeLock(conn, key, secret,
// int64(10*time.Second)) sends nanoseconds to EX). It also marks a
// time.Duration parameter passed unchanged to a client that takes a
// time.Duration (a SetNX wrapper): a caller's bare 30 is 30ns there.
type TTLParamFact struct {
	Uses []TTLParamUse
}

// TTLParamUse is one parameter passed on as a TTL count.
type TTLParamUse struct {
	Param   int    // index in the signature
	Opt     string // "EX (ARGV[2] in the script)"
	Where   string // "redis_cache.go:498"
	Want    int64  // nanoseconds per unit the position takes: 1e9, 1e6, or 1 for a time.Duration
	Client  redismodel.Client
	Package string
	// For a time.Duration (Want 1): the client method that takes it
	// (SetNX) and whether it acquires a lock.
	Setter  string
	Acquire bool
}

func (*TTLParamFact) AFact() {}

func (f *TTLParamFact) String() string {
	s := "passes on as a TTL:"
	for _, u := range f.Uses {
		s += fmt.Sprintf(" param %d to %s", u.Param, u.Opt)
	}
	return s
}

// paramUse records, when e is a parameter of the function cmd runs in and
// nothing says its unit, that the function passes it on to opt.
func (c *checker) paramUse(cmd *redismodel.Command, opt string, e ast.Expr, want int64) {
	fd := cmd.In.Decl
	if fd == nil {
		return
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !isParam(c.pass.TypesInfo, fd, v) || c.m.of(e).known() {
		return
	}
	c.addUse(fd, v, TTLParamUse{
		Opt: opt, Where: c.where(cmd.Call.Pos()), Want: want, Client: cmd.Client, Package: cmd.Package,
	})
}

// durationParamUse records, when e is a time.Duration parameter of the
// function cmd runs in, passed on unchanged, that the function hands it to
// a client that takes a time.Duration.
func (c *checker) durationParamUse(cmd *redismodel.Command, e ast.Expr) {
	if cmd.Client != redismodel.GoRedis {
		return // rueidis's Ex and Px truncate: checked where they are called
	}
	if v := c.durationParam(cmd.In.Decl, e); v != nil {
		c.addUse(cmd.In.Decl, v, TTLParamUse{
			Opt: c.callName(cmd), Where: c.where(cmd.Call.Pos()), Want: 1, Client: cmd.Client, Package: cmd.Package,
			Setter: cmd.TTLSetter(), Acquire: cmd.AcquiresNX(),
		})
	}
}

// durationParam returns the parameter of fd that e names, when it is a
// time.Duration.
func (c *checker) durationParam(fd *ast.FuncDecl, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || fd == nil {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !isParam(c.pass.TypesInfo, fd, v) || !isDuration(v.Type()) {
		return nil
	}
	return v
}

// passedDuration checks a caller's argument for a time.Duration parameter
// that reaches the client unchanged: a bare number there is nanoseconds,
// as it would be at the client.
func (c *checker) passedDuration(fd *ast.FuncDecl, call *ast.CallExpr, arg ast.Expr, u TTLParamUse, report bool) {
	if v := c.durationParam(fd, arg); v != nil {
		u.Param = 0
		c.addUse(fd, v, u)
		return
	}
	if !report {
		return
	}
	d, ok := c.m.bareConstant(arg)
	if !ok || d <= 0 || d >= 1e9 {
		return
	}
	wire := bareSent(u.Client, u.Package, u.Setter, d)
	if wire == "" {
		return
	}
	hint := ""
	if u.Acquire {
		hint = safelockHint
	}
	src := c.src(arg)
	diag := analysis.Diagnostic{
		Pos: arg.Pos(), End: arg.End(),
		Message: fmt.Sprintf("%s passes this time.Duration on to %s (%s), so TTL %s is %d nanoseconds: %s; write %s*time.Second (or the unit you meant)%s",
			calleeName(c.pass.TypesInfo, call), u.Opt, u.Where, src, d, wire, src, hint),
	}
	if rel := c.constDecl(arg); rel != nil {
		diag.Related = rel
	}
	c.pass.Report(diag)
}

func (c *checker) addUse(fd *ast.FuncDecl, v *types.Var, u TTLParamUse) {
	fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return
	}
	params := fn.Type().(*types.Signature).Params()
	for i := 0; i < params.Len(); i++ {
		if params.At(i) != v {
			continue
		}
		f := c.params[fn]
		if f == nil {
			f = new(TTLParamFact)
			c.params[fn] = f
		}
		for _, old := range f.Uses {
			if old.Param == i && old.Opt == u.Opt && old.Where == u.Where {
				return
			}
		}
		u.Param = i
		f.Uses = append(f.Uses, u)
		c.changed = true
		return
	}
}

func (c *checker) where(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// paramFact returns the TTLParamFact of the function call calls, of this
// package or imported.
func (c *checker) paramFact(call *ast.CallExpr) *TTLParamFact {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn == nil {
		return nil
	}
	if f := c.params[fn]; f != nil {
		return f
	}
	if fn.Pkg() == nil || fn.Pkg() == c.pass.Pkg {
		return nil
	}
	f := new(TTLParamFact)
	if !c.pass.ImportObjectFact(fn.Origin(), f) {
		return nil
	}
	return f
}

// passParams checks every call of a function that passes a parameter on
// as a TTL count: an argument whose unit is known is checked as if it
// stood where the parameter goes; one that is a parameter of the caller
// with no unit passes the fact on (report is false while facts settle).
func (c *checker) passParams(fd *ast.FuncDecl, report bool) {
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		f := c.paramFact(call)
		if f == nil {
			return true
		}
		for _, u := range f.Uses {
			if u.Param >= len(call.Args) || call.Ellipsis.IsValid() && u.Param == len(call.Args)-1 {
				continue
			}
			arg := call.Args[u.Param]
			if u.Want == 1 {
				c.passedDuration(fd, call, arg, u, report)
				continue
			}
			opt := fmt.Sprintf("%s at %s, through %s", u.Opt, u.Where, calleeName(c.pass.TypesInfo, call))
			if id, ok := ast.Unparen(arg).(*ast.Ident); ok && !c.m.of(arg).known() {
				if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && isParam(c.pass.TypesInfo, fd, v) {
					c.addUse(fd, v, TTLParamUse{Opt: u.Opt, Where: u.Where, Want: u.Want, Client: u.Client, Package: u.Package})
				}
				continue
			}
			if report {
				c.count(&redismodel.Command{Client: u.Client, Package: u.Package, Call: call}, opt, arg, c.m.of(arg), u.Want)
			}
		}
		return true
	})
}

func calleeName(info *types.Info, call *ast.CallExpr) string {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return "the callee"
	}
	return fn.Name()
}
