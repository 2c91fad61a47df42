package lockunits

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/docs"
	"github.com/locklint/locklint/analyzers/internal/fixes"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

//go:embed doc.go
var doc string

// Analyzer reports TTLs given to Redis in the wrong unit.
var Analyzer = &analysis.Analyzer{
	Name:             "lockunits",
	Doc:              docs.Extract(doc, "lockunits"),
	URL:              "https://github.com/locklint/locklint/blob/main/analyzers/lockunits/doc.go",
	Requires:         []*analysis.Analyzer{lifecycle.Analyzer},
	Run:              run,
	RunDespiteErrors: true,
	FactTypes:        []analysis.Fact{new(TTLParamFact)},
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	if len(res.Calls) == 0 && len(pass.AllObjectFacts()) == 0 {
		// No Redis here and no helper imported that passes a TTL on.
		return nil, nil
	}
	c := &checker{pass: pass, m: newMeasurer(pass.TypesInfo, res.Env(nil).Defs, pass.Files), params: map[*types.Func]*TTLParamFact{}}
	var decls []*ast.FuncDecl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				decls = append(decls, fd)
			}
		}
	}
	for _, fd := range decls {
		for _, call := range res.Calls[fd] {
			if call.Cmd != nil && call.Cmd.TTL != nil {
				c.check(call.Cmd)
			}
			if call.Cmd != nil && call.Cmd.Script != nil && !call.Cmd.Partial {
				c.script(call.Cmd)
			}
		}
	}
	// Parameters passed on as TTL counts: helpers of helpers first, then
	// the calls whose arguments have a unit.
	for round := 0; round < 4; round++ {
		c.changed = false
		for _, fd := range decls {
			c.passParams(fd, false)
		}
		if !c.changed {
			break
		}
	}
	for _, fd := range decls {
		c.passParams(fd, true)
	}
	for fn, f := range c.params {
		pass.ExportObjectFact(fn, f)
	}
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	m    *measurer
	// params are this package's functions that pass a parameter on as a
	// TTL count (see TTLParamFact); changed says one was added.
	params  map[*types.Func]*TTLParamFact
	changed bool
}

func (c *checker) check(cmd *redismodel.Command) {
	e := cmd.TTL
	ms := c.m.of(e)
	if ms.mix != nil {
		c.mixup(cmd, ms.mix)
		return
	}
	switch cmd.Unit {
	case redismodel.UnitDuration:
		c.duration(cmd, e, ms)
		c.durationParamUse(cmd, e)
	case redismodel.UnitSeconds:
		c.count(cmd, optName(cmd), e, ms, 1e9)
		c.paramUse(cmd, optName(cmd), e, 1e9)
	case redismodel.UnitMillis:
		c.count(cmd, optName(cmd), e, ms, 1e6)
		c.paramUse(cmd, optName(cmd), e, 1e6)
	case redismodel.UnitUnixSeconds:
		c.timestamp(cmd, optName(cmd), e, ms, 1e9)
	case redismodel.UnitUnixMillis:
		c.timestamp(cmd, optName(cmd), e, ms, 1e6)
	}
}

// script checks the ARGV values a Lua script uses as TTLs.
func (c *checker) script(cmd *redismodel.Command) {
	uses := cmd.Script.TTLUses()
	single := cmd.Script.TTLArgs()
	ns := make([]int, 0, len(uses))
	for n := range uses {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	for _, n := range ns {
		if n > len(cmd.ScriptArgs) {
			continue
		}
		e := cmd.ScriptArgs[n-1]
		ms := c.m.of(e)
		check := func(word string) {
			opt := fmt.Sprintf("%s (ARGV[%d] in the script)", word, n)
			switch word {
			case "EX", "EXPIRE", "SETEX":
				c.count(cmd, opt, e, ms, 1e9)
			case "PX", "PEXPIRE", "PSETEX":
				c.count(cmd, opt, e, ms, 1e6)
			case "EXAT", "EXPIREAT":
				c.timestamp(cmd, opt, e, ms, 1e9)
			case "PXAT", "PEXPIREAT":
				c.timestamp(cmd, opt, e, ms, 1e6)
			}
		}
		if w, ok := single[n]; ok {
			check(w)
			if want := unitOf[countWord[w]]; want != 0 {
				c.paramUse(cmd, fmt.Sprintf("%s (ARGV[%d] in the script)", w, n), e, want)
			}
			continue
		}
		// The script takes ARGV[n] in two units (PX and EXPIRE): whatever
		// is passed, one use is wrong. Report the use the value's known
		// unit does not fit, once.
		words := uses[n]
		report := c.pass.Report
		done := false
		c.pass.Report = func(d analysis.Diagnostic) {
			if !done {
				done = true
				d.SuggestedFixes = nil // the fix for one use breaks the other
				d.Message += fmt.Sprintf(" (the script also takes ARGV[%d] with %s, so one of its uses is wrong whatever is passed)", n, strings.Join(words, " and "))
				report(d)
			}
		}
		for _, w := range words {
			check(w)
		}
		c.pass.Report = report
	}
}

// duration checks a TTL the client takes as a time.Duration.
func (c *checker) duration(cmd *redismodel.Command, e ast.Expr, ms measure) {
	src := c.src(e)
	what := c.callName(cmd)
	if p := c.intParamConversion(cmd.In.Decl, e); p != nil && cmd.AcquiresNX() {
		c.pass.Report(analysis.Diagnostic{
			Pos: e.Pos(), End: e.End(),
			Message: fmt.Sprintf("%s takes a time.Duration, and %s turns the %s parameter %s into that many nanoseconds: "+
				"a caller passing 60 gets a 60ns TTL (go-redis sends at least 1ms), so the lock expires at once; "+
				"take a time.Duration parameter, or multiply by the unit the callers mean (%s*time.Second)%s",
				what, src, p.Type(), p.Name(), src, c.lockHint(cmd)),
		})
		return
	}
	if d, ok := c.m.bareConstant(e); ok && d > 0 && d < 1e9 {
		wire := bareOnWire(cmd, d)
		if wire == "" {
			return
		}
		per := c.evidentUnit(cmd, e)
		hint := fmt.Sprintf("write %s*time.Second (or the unit you meant)", src)
		if per != 0 {
			hint = fmt.Sprintf("write %s*time.%s", src, timeUnit[per])
		}
		diag := analysis.Diagnostic{
			Pos: e.Pos(), End: e.End(),
			Message: fmt.Sprintf("%s takes a time.Duration, so TTL %s is %d nanoseconds: %s; %s%s",
				what, src, d, wire, hint, c.lockHint(cmd)),
		}
		if per != 0 {
			diag.SuggestedFixes = c.multiply(e, per)
		}
		if rel := c.constDecl(e); rel != nil {
			diag.Related = rel
		}
		c.pass.Report(diag)
		return
	}
	if d, ok := c.m.intConst(e); ok && cmd.Client == redismodel.Rueidis {
		// rueidis truncates: Ex(500*time.Millisecond) sends EX 0.
		name := cmd.TTLSetter()
		hint := map[string]string{"Ex": "use Px for a TTL under a second", "Px": "use a TTL of at least 1ms"}[name]
		if name == "Ex" && d > 0 && d < 1e9 || name == "Px" && d > 0 && d < 1e6 {
			c.pass.Report(analysis.Diagnostic{
				Pos: e.Pos(), End: e.End(),
				Message: fmt.Sprintf("TTL %s: %s; %s%s", src, bareOnWire(cmd, d), hint, c.lockHint(cmd)),
			})
		}
		return
	}
	if !ms.known() || ms.unix || ms.per == 1 {
		return
	}
	diag := analysis.Diagnostic{
		Pos: e.Pos(), End: e.End(),
		Message: fmt.Sprintf("%s takes a time.Duration, which counts nanoseconds, but %s counts %s: the TTL is %s times shorter than meant; %s%s",
			what, src, unitName(ms.per), ratio(ms.per), c.durationHint(e, ms), c.lockHint(cmd)),
	}
	switch {
	case ms.base != nil && c.src(ms.base) != "":
		diag.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   "Pass the time.Duration " + c.src(ms.base),
			TextEdits: []analysis.TextEdit{{Pos: e.Pos(), End: e.End(), NewText: []byte(c.src(ms.base))}},
		}}
	case timeUnit[ms.per] != "" && ms.dur:
		diag.SuggestedFixes = c.multiply(e, ms.per)
	}
	c.pass.Report(diag)
}

func (c *checker) durationHint(e ast.Expr, ms measure) string {
	if ms.base != nil {
		return "pass " + c.src(ms.base) + " itself"
	}
	if u := timeUnit[ms.per]; u != "" {
		return fmt.Sprintf("multiply by time.%s", u)
	}
	return "convert it with the right time unit"
}

// count checks a raw integer TTL in units of want nanoseconds.
func (c *checker) count(cmd *redismodel.Command, opt string, e ast.Expr, ms measure, want int64) {
	src := c.src(e)
	if c.runeText(e) {
		c.pass.Report(analysis.Diagnostic{
			Pos: e.Pos(), End: e.End(),
			Message: fmt.Sprintf("%s takes a number of %s, but %s makes the one character whose code point is that number, not its digits (10 becomes \"\\n\"): Redis refuses it or reads another TTL; format the number with strconv.Itoa or strconv.FormatInt%s",
				opt, unitName(want), src, c.lockHint(cmd)),
		})
		return
	}
	if ms.unix {
		c.pass.Report(analysis.Diagnostic{
			Pos: e.Pos(), End: e.End(),
			Message: fmt.Sprintf("%s takes a TTL in %s, but %s is a Unix time: the key lives for decades; pass the time left (d.Milliseconds()), or a deadline option (EXAT, PXAT, EXPIREAT)%s",
				opt, unitName(want), src, c.lockHint(cmd)),
		})
		return
	}
	if !ms.known() {
		return
	}
	if ms.dur {
		bad := cmd.Client == redismodel.Redigo || cmd.Client == redismodel.Radix
		if cmd.Client == redismodel.GoRedis {
			// v5 to v7 cannot encode a Duration, v8 and v9 send its
			// nanoseconds; what v3 and v4 send is not known here.
			v := goRedisMajor(cmd.Package)
			bad = v >= 5 && (v <= 7 || ms.per != want)
		}
		if !bad {
			return
		}
		d := int64(-1)
		if v, ok := c.m.intConst(e); ok && ms.per == 1 {
			d = v
		}
		msg := fmt.Sprintf("%s takes an integer number of %s, but %s is a time.Duration: %s; pass %s%s",
			opt, unitName(want), src, durationOnWire(cmd, opt, d, want), c.countHint(e, ms, want), c.lockHint(cmd))
		c.pass.Report(analysis.Diagnostic{
			Pos: e.Pos(), End: e.End(), Message: msg,
			SuggestedFixes: c.countFix(e, ms, want, cmd),
		})
		return
	}
	if ms.per == want {
		return
	}
	d := int64(-1)
	if v, ok := c.m.intConst(e); ok {
		d = v * ms.per
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: e.Pos(), End: e.End(),
		Message: fmt.Sprintf("%s takes %s, but %s is in %s: %s; pass %s%s",
			opt, unitName(want), src, unitName(ms.per), scaled(opt, d, ms.per, want), c.countHint(e, ms, want), c.lockHint(cmd)),
		SuggestedFixes: c.countFix(e, ms, want, cmd),
	})
}

// runeText reports whether e converts an integer to a string, which Go
// reads as a code point: string(rune(n)), string(byte(n)), string(n).
func (c *checker) runeText(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	info := c.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; !ok || !tv.IsType() || !isStringType(tv.Type) {
		return false
	}
	at, ok := info.Types[call.Args[0]]
	if !ok {
		return false
	}
	b, ok := at.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

// countHint says what to pass instead.
func (c *checker) countHint(e ast.Expr, ms measure, want int64) string {
	if s := c.countExpr(e, ms, want); s != "" {
		return s
	}
	switch want {
	case 1e6:
		return "milliseconds (d.Milliseconds())"
	default:
		return "whole seconds (int64(d / time.Second))"
	}
}

// countExpr rewrites e to an integer in units of want, when the duration
// behind it is in the expression.
func (c *checker) countExpr(e ast.Expr, ms measure, want int64) string {
	base := ms.base
	if ms.dur && ms.per == 1 {
		base = e
	}
	if ms.dur && ms.per == want {
		return "int64(" + c.src(e) + ")"
	}
	if base == nil || c.src(base) == "" {
		return ""
	}
	b := c.src(base)
	if !simple(base) {
		b = "(" + b + ")"
	}
	if want == 1e6 {
		return b + ".Milliseconds()"
	}
	return "int64(" + b + ".Seconds())"
}

func (c *checker) countFix(e ast.Expr, ms measure, want int64, cmd *redismodel.Command) []analysis.SuggestedFix {
	if s := c.countExpr(e, ms, want); s != "" {
		return []analysis.SuggestedFix{{
			Message:   "Pass " + s,
			TextEdits: []analysis.TextEdit{{Pos: e.Pos(), End: e.End(), NewText: []byte(s)}},
		}}
	}
	// A count of milliseconds after EX, or of seconds after PX: swap the
	// option word.
	if ms.dur || cmd.Client == redismodel.Rueidis || cmd.Name != "SET" || cmd.Opts.Expiry != "EX" && cmd.Opts.Expiry != "PX" {
		return nil
	}
	swap := map[string]string{"EX": "PX", "PX": "EX"}[cmd.Opts.Expiry]
	if unitOf[swap] != ms.per {
		return nil
	}
	word := optionWord(cmd)
	if word == nil {
		return nil
	}
	text := swap
	if strings.ToLower(word.Value) == word.Value {
		text = strings.ToLower(swap)
	}
	return []analysis.SuggestedFix{{
		Message:   "Use " + swap + " for a TTL in " + unitName(ms.per),
		TextEdits: []analysis.TextEdit{{Pos: word.Pos(), End: word.End(), NewText: []byte(`"` + text + `"`)}},
	}}
}

var unitOf = map[string]int64{"EX": 1e9, "PX": 1e6}

// countWord maps the script words that take a TTL count to EX or PX.
var countWord = map[string]string{"EX": "EX", "EXPIRE": "EX", "SETEX": "EX", "PX": "PX", "PEXPIRE": "PX", "PSETEX": "PX"}

// optionWord finds the string literal EX or PX just before the TTL in a
// raw-argument call.
func optionWord(cmd *redismodel.Command) *ast.BasicLit {
	args := cmd.Call.Args
	for i := 0; i+1 < len(args); i++ {
		if args[i+1] != cmd.TTL {
			continue
		}
		lit, ok := ast.Unparen(args[i]).(*ast.BasicLit)
		if ok && lit.Kind == token.STRING && strings.EqualFold(strings.Trim(lit.Value, "\"`"), cmd.Opts.Expiry) {
			return lit
		}
	}
	return nil
}

// timestamp checks an expiry time in units of want nanoseconds.
func (c *checker) timestamp(cmd *redismodel.Command, opt string, e ast.Expr, ms measure, want int64) {
	if !ms.known() || ms.byName {
		return // a name says seconds or milliseconds, not whether it is a time or a span
	}
	src := c.src(e)
	if !ms.unix {
		c.pass.Report(analysis.Diagnostic{
			Pos: e.Pos(), End: e.End(),
			Message: fmt.Sprintf("%s takes a Unix time in %s, but %s is a duration: the key expires at a moment near 1970, that is at once; pass time.Now().Add(ttl) as a Unix time, or use a TTL option%s",
				opt, unitName(want), src, c.lockHint(cmd)),
		})
		return
	}
	if ms.per == want {
		return
	}
	effect := "a moment near 1970: the key expires at once"
	if ms.per < want {
		effect = "thousands of years from now: the key never expires"
	}
	diag := analysis.Diagnostic{
		Pos: e.Pos(), End: e.End(),
		Message: fmt.Sprintf("%s takes a Unix time in %s, but %s is in %s: the expiry lands %s; pass %s%s",
			opt, unitName(want), src, unitName(ms.per), effect,
			map[int64]string{1e9: "t.Unix()", 1e6: "t.UnixMilli()"}[want], c.lockHint(cmd)),
	}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && isTime(c.pass.TypesInfo.TypeOf(sel.X)) {
			name := map[int64]string{1e9: "Unix", 1e6: "UnixMilli"}[want]
			diag.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   "Use " + name,
				TextEdits: []analysis.TextEdit{{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte(name)}},
			}}
		}
	}
	c.pass.Report(diag)
}

// mixup reports a count multiplied by the wrong time unit.
func (c *checker) mixup(cmd *redismodel.Command, mx *mixup) {
	count, unit := c.src(mx.count), c.src(mx.unit)
	longer := "longer"
	r := mx.by / mx.per
	if mx.per > mx.by {
		longer, r = "shorter", mx.per/mx.by
	}
	diag := analysis.Diagnostic{
		Pos: mx.expr.Pos(), End: mx.expr.End(),
		Message: fmt.Sprintf("%s counts %s but is multiplied by %s: the TTL is %s times %s than meant; multiply by time.%s%s",
			count, unitName(mx.per), unit, ratio(r), longer, timeUnit[mx.per], c.lockHint(cmd)),
	}
	if sel, ok := ast.Unparen(mx.unit).(*ast.SelectorExpr); ok && timeUnit[mx.per] != "" {
		if obj := c.pass.TypesInfo.Uses[sel.Sel]; obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "time" {
			diag.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   "Multiply by time." + timeUnit[mx.per],
				TextEdits: []analysis.TextEdit{{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte(timeUnit[mx.per])}},
			}}
		}
	}
	c.pass.Report(diag)
}

var timeUnit = map[int64]string{1: "Nanosecond", 1e3: "Microsecond", 1e6: "Millisecond", 1e9: "Second", 60e9: "Minute", 3600e9: "Hour"}

// evidentUnit returns the unit a bare constant TTL was meant in, when the
// call or the constant's name says it: rueidis Ex (seconds) and Px
// (milliseconds), go-redis SetEx (seconds) and PExpire (milliseconds), a
// constant named ttlSeconds or lockTimeoutMs. 0 when it is not evident.
func (c *checker) evidentUnit(cmd *redismodel.Command, e ast.Expr) int64 {
	if obj := c.m.objectOf(ast.Unparen(e)); obj != nil {
		if per := unitOfName(obj.Name()); per != 0 {
			return per
		}
	}
	switch cmd.TTLSetter() {
	case "Ex", "SetEx", "SetEX":
		return 1e9
	case "Px", "PExpire":
		return 1e6
	}
	return 0
}

// multiply rewrites e to e * time.<unit>, importing time if needed.
func (c *checker) multiply(e ast.Expr, per int64) []analysis.SuggestedFix {
	u := timeUnit[per]
	src := c.src(e)
	file := fixes.File(c.pass, e.Pos())
	if u == "" || src == "" || file == nil {
		return nil
	}
	name, edits, ok := fixes.Import(c.pass, file, e.Pos(), "time", "time")
	if !ok {
		return nil
	}
	if _, isBin := ast.Unparen(e).(*ast.BinaryExpr); isBin {
		src = "(" + src + ")"
	}
	edits = append(edits, analysis.TextEdit{Pos: e.Pos(), End: e.End(), NewText: []byte(src + " * " + name + "." + u)})
	return []analysis.SuggestedFix{{Message: "Multiply by time." + u, TextEdits: edits}}
}

// constDecl points at the declaration of a named constant TTL.
func (c *checker) constDecl(e ast.Expr) []analysis.RelatedInformation {
	obj := c.m.objectOf(ast.Unparen(e))
	if obj == nil || obj.Pkg() != c.pass.Pkg {
		return nil
	}
	return []analysis.RelatedInformation{{Pos: obj.Pos(), Message: obj.Name() + " is declared without a time unit"}}
}

// safelockHint ends a message about a lock's acquire.
const safelockHint = "; or use safelock.Locker.TryAcquire, which takes the TTL as a time.Duration"

func (c *checker) lockHint(cmd *redismodel.Command) string {
	if cmd.AcquiresNX() {
		return safelockHint
	}
	return ""
}

func (c *checker) callName(cmd *redismodel.Command) string {
	name := cmd.TTLSetter()
	switch name {
	case "":
		return cmd.Name
	case "SetArgs":
		return "SetArgs.TTL"
	}
	return name
}

func (c *checker) src(e ast.Expr) string {
	if s := fixes.Source(c.pass, e); s != "" {
		return s
	}
	return "the TTL"
}

// optName names the option or command that takes the TTL: EX, PX,
// EXPIRE, PEXPIREAT, ...
func optName(cmd *redismodel.Command) string {
	if cmd.Opts.Expiry != "" && cmd.Name == "SET" {
		return cmd.Opts.Expiry
	}
	return cmd.Name
}

func simple(e ast.Expr) bool {
	switch ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr, *ast.IndexExpr:
		return true
	}
	return false
}

// intParamConversion returns the parameter p when e is time.Duration(p)
// and p is an integer parameter of the enclosing function: a count
// (seconds, milliseconds) taken for nanoseconds.
func (c *checker) intParamConversion(fd *ast.FuncDecl, e ast.Expr) *types.Var {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	tv, ok := c.pass.TypesInfo.Types[call.Fun]
	if !ok || !tv.IsType() || !isDurationType(tv.Type) {
		return nil
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || !isParam(c.pass.TypesInfo, fd, v) {
		return nil
	}
	b, ok := v.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 || isDurationType(v.Type()) {
		return nil
	}
	return v
}

func isDurationType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// isParam reports whether v is a parameter of fd.
func isParam(info *types.Info, fd *ast.FuncDecl, v *types.Var) bool {
	if fd == nil {
		return false
	}
	for _, field := range fd.Type.Params.List {
		for _, name := range field.Names {
			if info.Defs[name] == v {
				return true
			}
		}
	}
	return false
}
