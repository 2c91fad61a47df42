package stores

import (
	"go/ast"
	"regexp"
	"strconv"
	"strings"
)

// fenceColumn matches column names that hold a fencing token.
var fenceColumn = regexp.MustCompile(`(?i)(fence|epoch|generation|version|token|term)[a-z0-9_]*$`)

// comparison finds "column < rhs", "column <= rhs", "rhs > column" and
// "rhs >= column" where rhs is a placeholder (?, $n, :name, @name) or
// the value being inserted (excluded.col, VALUES(col)).
var (
	ident      = "[A-Za-z_`\"\\[][A-Za-z0-9_.`\"\\]]*"
	operand    = `\?|\$\d+|:[A-Za-z_]\w*|@[A-Za-z_]\w*|(?i:excluded)\.\w+|(?i:values)\s*\(\s*\w+\s*\)`
	colLess    = regexp.MustCompile(`(` + ident + `)\s*(?:<=|<)\s*(` + operand + `)`)
	greaterCol = regexp.MustCompile(`(` + operand + `)\s*(?:>=|>)\s*(` + ident + `)`)
)

// NeedsCondition reports whether the write can overwrite what a newer lock
// holder wrote, so that only a condition on the fence makes it safe:
// UPDATE, DELETE, REPLACE, MERGE, upserts (ON CONFLICT, ON DUPLICATE KEY),
// gorm Save/Update/Updates/UpdateColumn(s)/Delete. A plain INSERT that
// records the fence adds a row and overwrites nothing.
func (w *Write) NeedsCondition() bool {
	if w.via != nil {
		return w.via.NeedsCond
	}
	switch w.Kind {
	case SQL:
		q := strings.ToLower(w.Query)
		if m := writeVerb.FindStringSubmatch(w.Query); m != nil && strings.EqualFold(m[1], "insert") {
			if insertDoNothing.MatchString(w.Query) {
				return false // adds its row or nothing
			}
			return strings.Contains(q, "on conflict") || strings.Contains(q, "on duplicate key")
		}
		return true
	case Gorm:
		sel, ok := ast.Unparen(w.Call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		switch sel.Sel.Name {
		case "Save", "Update", "Updates", "UpdateColumn", "UpdateColumns", "Delete":
			return true
		}
	case GoFrame, Xorm:
		return !strings.Contains(w.What, ".Insert")
	case Ent:
		return !strings.Contains(w.What, "Create ") && !strings.Contains(w.What, "CreateBulk ")
	}
	return false
}

// SelfGuarded reports whether the write's own statement refuses to
// overwrite: an UPDATE whose WHERE requires a column it sets to be empty
// or to hold an expected value (SET device_id = ? WHERE ... AND
// (device_id = ” OR device_id IS NULL); SET status = 'done' WHERE
// status = 'pending'), or an INSERT that does nothing when its row's key
// exists (INSERT ... ON CONFLICT DO NOTHING, INSERT IGNORE, INSERT OR
// IGNORE: a claim of a unique key, such as a job run per tick). The
// database then decides at the row what the lock was for (set once, move
// a state on once, claim once), and a stale holder's write finds the row
// changed or taken.
func (w *Write) SelfGuarded() bool {
	if w.via != nil {
		return w.via.SelfGuarded
	}
	switch w.Kind {
	case SQL:
		return w.Complete && selfGuarded(w.Query)
	case Gorm:
		// tx.Model(&o).Where("no = ? AND status = ?", no, "pending").Update("status", "cancelled")
		for _, c := range w.Conds {
			if c.Complete && whereGuards(c.Query, w.SetCols) {
				return true
			}
		}
	}
	return false
}

var (
	insertIgnore    = regexp.MustCompile(`(?is)^\s*insert\s+(?:or\s+)?ignore\s+into\s`)
	insertDoNothing = regexp.MustCompile(`(?is)^\s*insert\s+into\s.*\bon\s+conflict\b[^;]*\bdo\s+nothing\b`)
	updateSetWhere  = regexp.MustCompile(`(?is)^\s*update\s+\S+\s+set\s+(.*?)\s+where\s+(.*)$`)
	setColumn       = regexp.MustCompile(`(?i)(?:^|,)\s*[\x60"]?([A-Za-z_][A-Za-z0-9_]*)[\x60"]?\s*=`)
)

// selfGuarded is SelfGuarded for statement text q.
func selfGuarded(q string) bool {
	if insertIgnore.MatchString(q) || insertDoNothing.MatchString(q) {
		return true
	}
	cols, where, ok := updateParts(q)
	return ok && whereGuards(where, cols)
}

// updateParts splits an UPDATE's text into the columns it sets and its
// condition; ok is false for any other statement.
func updateParts(q string) (cols []string, where string, ok bool) {
	m := updateSetWhere.FindStringSubmatch(q)
	if m == nil {
		return nil, "", false
	}
	for _, c := range setColumn.FindAllStringSubmatch(m[1], -1) {
		cols = append(cols, c[1])
	}
	return cols, m[2], true
}

// whereGuards reports whether the condition where requires one of the
// columns to be empty or to hold an expected value (a parameter, a string
// or a number: status = 0).
func whereGuards(where string, cols []string) bool {
	for _, c := range cols {
		col := regexp.QuoteMeta(c)
		guard := regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9_.])[\x60"]?` + col + `[\x60"]?\s*(?:is\s+null\b|=\s*(?:''|'[^']*'|\?|\$\d+|:[A-Za-z_]\w*|@[A-Za-z_]\w*|-?\d+\b))`)
		if guard.MatchString(where) {
			return true
		}
	}
	return false
}

// FenceCondition reports whether the write's statement compares a fence
// column with "<" or "<=" against a value bound to a fencing token
// (reaches says which expressions carry one). known is false when the
// statement text has unknown parts and no such condition in what is known.
func (w *Write) FenceCondition(reaches func(ast.Expr) bool) (ok, known bool) {
	if w.via != nil {
		for _, a := range w.condArgs {
			if reaches(a) {
				return true, true
			}
		}
		return false, w.via.CondKnown
	}
	switch w.Kind {
	case SQL:
		if hasCondition(w.Query, w.Params, w.Spread, w.Named, reaches) {
			return true, true
		}
		return false, w.Complete
	case Gorm, GoFrame, Xorm:
		complete := true
		for _, c := range w.Conds {
			if hasCondition(c.Query, c.Args, false, false, reaches) {
				return true, true
			}
			complete = complete && c.Complete
		}
		return false, complete
	case Ent:
		// Generated predicates: fence column + LT/LTE (order.FenceLT(f)),
		// anywhere in the chain's arguments (inside And/Or too).
		found := false
		for _, v := range w.Values {
			ast.Inspect(v, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok || found || len(c.Args) != 1 {
					return !found
				}
				name := ""
				switch f := ast.Unparen(c.Fun).(type) {
				case *ast.Ident:
					name = f.Name
				case *ast.SelectorExpr:
					name = f.Sel.Name
				}
				col := strings.TrimSuffix(strings.TrimSuffix(name, "LTE"), "LT")
				if col != name && fenceColumn.MatchString(col) && reaches(c.Args[0]) {
					found = true
				}
				return !found
			})
		}
		return found, true
	}
	return false, false
}

func hasCondition(q string, params []ast.Expr, spread, named bool, reaches func(ast.Expr) bool) bool {
	check := func(col, rhs string, at int) bool {
		col = strings.Trim(col[strings.LastIndex(col, ".")+1:], "`\"[]")
		if !fenceColumn.MatchString(col) {
			return false
		}
		return bound(q, rhs, at, params, spread, named, reaches)
	}
	for _, m := range colLess.FindAllStringSubmatchIndex(q, -1) {
		if check(q[m[2]:m[3]], q[m[4]:m[5]], m[4]) {
			return true
		}
	}
	for _, m := range greaterCol.FindAllStringSubmatchIndex(q, -1) {
		if check(q[m[4]:m[5]], q[m[2]:m[3]], m[2]) {
			return true
		}
	}
	return false
}

// bound reports whether the placeholder rhs (at offset at in q) is bound
// to a value that reaches from a fence.
func bound(q, rhs string, at int, params []ast.Expr, spread, named bool, reaches func(ast.Expr) bool) bool {
	anyParam := func() bool {
		for _, p := range params {
			if reaches(p) {
				return true
			}
		}
		return false
	}
	param := func(i int) bool {
		switch {
		case i < 0:
			return false
		case i < len(params) && (!spread || i < len(params)-1):
			return reaches(params[i])
		case spread && len(params) > 0:
			return reaches(params[len(params)-1])
		}
		return false
	}
	switch {
	case rhs == "?":
		if named {
			return anyParam()
		}
		return param(strings.Count(q[:at], "?"))
	case strings.HasPrefix(rhs, "$"):
		n, err := strconv.Atoi(rhs[1:])
		return err == nil && param(n-1)
	default: // :name, @name, excluded.col, VALUES(col)
		return anyParam()
	}
}
