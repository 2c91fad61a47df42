package section

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
)

// PeriodKey reports whether the lock's key names one period of time (it
// holds time.Now() formatted with a layout: "2006-01-02-15:04" is one
// minute) and no other holder can take it once it lapsed: its TTL is
// unknown or at least the period. Such a lock is a run-once-per-period
// marker (a cron tick taken by one replica); a holder that outlives it
// meets nobody, since the next period has a key of its own.
func (s *Section) PeriodKey(info *types.Info, defs *keyexpr.Defs) bool {
	period, ok := timePeriod(info, defs, s.Lock.KeyExpr, 0)
	if !ok {
		return false
	}
	ttl, known := s.TTLValue(info, defs)
	return !known || ttl >= period
}

// timePeriod finds time.Now()...Format(layout) in e, through variables
// assigned once and the arguments of calls that build the key, and
// returns the period its finest layout element names.
func timePeriod(info *types.Info, defs *keyexpr.Defs, e ast.Expr, depth int) (time.Duration, bool) {
	if e == nil || depth > 4 {
		return 0, false
	}
	var period time.Duration
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.Ident:
			if r := Resolve(info, defs, x); r != x {
				period, found = timePeriod(info, defs, r, depth+1)
			}
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, x).(*types.Func)
			if fn == nil || fn.Name() != "Format" || len(x.Args) != 1 || !isTimeMethod(fn) || !fromNow(info, x) {
				return true
			}
			tv := info.Types[x.Args[0]]
			if tv.Value == nil || tv.Value.Kind() != constant.String {
				return false
			}
			period, found = layoutPeriod(constant.StringVal(tv.Value))
			return false
		}
		return !found
	})
	return period, found
}

func isTimeMethod(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Type().(*types.Signature).Recv() != nil
}

// fromNow reports whether the receiver chain of a time.Time method call
// starts at time.Now() (time.Now().UTC().Format(...)).
func fromNow(info *types.Info, call *ast.CallExpr) bool {
	var e ast.Expr = call
	for range 6 {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, _ := typeutil.Callee(info, c).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "time" {
			return false
		}
		if fn.Name() == "Now" {
			return true
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		e = sel.X
	}
	return false
}

// layoutPeriod returns the span of the finest element of a time layout.
func layoutPeriod(layout string) (time.Duration, bool) {
	for _, el := range []struct {
		text string
		span time.Duration
	}{
		{"05", time.Second}, {"04", time.Minute}, {"15", time.Hour}, {"03", time.Hour},
		{"02", 24 * time.Hour}, {"_2", 24 * time.Hour}, {"Mon", 24 * time.Hour},
		{"01", 28 * 24 * time.Hour}, {"Jan", 28 * 24 * time.Hour}, {"2006", 365 * 24 * time.Hour},
	} {
		if strings.Contains(layout, el.text) {
			return el.span, true
		}
	}
	return 0, false
}
