package lockresult

import (
	"fmt"
	"go/ast"
	"regexp"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/luascript"
)

// returnsSetStatus finds "return redis.call('set', ...)" in Lua: the reply
// of a SET (without GET) is the status "OK".
var (
	returnsSetStatus = regexp.MustCompile(`(?i)return\s+redis\.p?call\(\s*['"]set['"]([^)]*)\)`)
	getOption        = regexp.MustCompile(`(?i)['"]get['"]`)
)

// numericReaders are go-redis Cmd methods that cannot parse "OK".
var numericReaders = map[string]bool{"Bool": true, "Int": true, "Int64": true, "Uint64": true, "Float64": true, "Float32": true}

// misreadScripts reports a lock script whose success reply is the SET
// status "OK" read with Cmd.Bool() or Cmd.Int(): go-redis cannot parse
// "OK" as a bool or a number, so a successful acquire comes back as an
// error (and the lock stays held until its TTL), while "held elsewhere"
// (a nil reply) comes back as redis.Nil.
func (r *runner) misreadScripts(fd *ast.FuncDecl) {
	var parent map[ast.Node]ast.Node
	for _, c := range r.res.Calls[fd] {
		cmd := c.Cmd
		if cmd == nil || cmd.Script == nil || cmd.Name != "EVAL" && cmd.Name != "EVALSHA" || !acquiresWithSet(cmd.Script) {
			continue
		}
		if parent == nil {
			parent = parents(fd)
		}
		sel, ok := parent[c.Call].(*ast.SelectorExpr)
		if !ok || !numericReaders[sel.Sel.Name] {
			continue
		}
		if call, ok := parent[sel].(*ast.CallExpr); !ok || call.Fun != sel {
			continue
		}
		r.pass.Report(analysis.Diagnostic{
			Pos: c.Call.Pos(), End: sel.End(),
			Message: fmt.Sprintf("the lock script returns the reply of SET, the status \"OK\", but it is read with %s(): "+
				"go-redis cannot parse \"OK\" as a %s, so a successful acquire comes back as an error (and the lock stays held until its TTL); "+
				"return 1 from the script (return redis.call('SET', ...) and 1), or read the reply with Text()/Result()", sel.Sel.Name, readerKind(sel.Sel.Name)),
		})
	}
}

// acquiresWithSet reports whether the script returns the status of a
// SET that writes a value (not SET ... GET, which returns the old value).
func acquiresWithSet(s *luascript.Script) bool {
	for _, m := range returnsSetStatus.FindAllStringSubmatch(s.Text, -1) {
		if !getOption.MatchString(m[1]) {
			return true
		}
	}
	return false
}

func readerKind(m string) string {
	if m == "Bool" {
		return "bool"
	}
	return "number"
}

func parents(root ast.Node) map[ast.Node]ast.Node {
	m := map[ast.Node]ast.Node{}
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			m[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return m
}
