package redismodel

import "go/ast"

// TTLSetter returns the name of the Go method or function that received
// the TTL expression: "SetNX", "Expire", "SetArgs" for go-redis, the
// builder step "Ex", "Px", "ExSeconds", "Seconds" for rueidis, "" for raw
// arguments (Do, redigo) or when there is no TTL. Rules use it to say what
// the client does with the value (rueidis Ex truncates to seconds, go-redis
// Expire rounds up to one second).
func (c *Command) TTLSetter() string {
	if c.TTL == nil || c.Method == nil {
		return ""
	}
	if c.Client != Rueidis {
		if c.Method.Name() == "Do" || c.Client == Redigo {
			return ""
		}
		return c.Method.Name()
	}
	// Walk the builder chain from Build() inwards to the step whose
	// argument is the TTL.
	e := ast.Expr(c.Call)
	for {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return ""
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		for _, a := range call.Args {
			if a == c.TTL {
				return sel.Sel.Name
			}
		}
		e = sel.X
	}
}
