package lockvalue

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
)

// helper is a weak value a function stores under a lock key that its
// caller names: func Lock(key string) { rdb.SetNX(ctx, key, "1", ttl) }.
// The function's own package may not see the lock used (its Unlock is
// elsewhere), so the caller judges it.
type helper struct {
	v  val
	op *lifecycle.Op // the acquire inside the function
}

// helperAcquires finds, for each function of the package, an acquire of
// a key built from its parameters with a weak value made inside it.
func helperAcquires(pass *analysis.Pass, t *tracer, res *lifecycle.Result) map[*types.Func]*helper {
	out := map[*types.Func]*helper{}
	for _, fd := range t.decls {
		fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		for _, op := range res.Funcs[fd] {
			if op.Kind != lifecycle.Acquire || !op.Direct() || !op.Key.HasParams() {
				continue
			}
			v := valueOf(pass, op)
			if v == nil || res.Env(fd).Of(v).HasParams() {
				continue // the caller's value: judged at the caller
			}
			if w := t.eval(v, ctx{fd: fd, key: op.Key.Exact}); w.k.weak() {
				out[fn] = &helper{v: w, op: op}
				break
			}
		}
	}
	return out
}

// reportHelper reports a lock taken through a helper that stores a weak
// value of its own making, unless the helper's package reported it.
func reportHelper(pass *analysis.Pass, helpers map[*types.Func]*helper, reported map[*lifecycle.Op]bool, acq *lifecycle.Op) {
	l := acq.Lock()
	if l == nil {
		return
	}
	if acq.Judged {
		return // the helper's own package saw the lock whole and judged it there
	}
	use := lockUse(pass.TypesInfo, l)
	if use == nil || allDiscarded(pass, l) || !l.IsLock(pass) {
		return
	}
	var w val
	switch h := helpers[acq.Via]; {
	case h != nil:
		if reported[h.op] {
			return
		}
		w = h.v
	default:
		var f weakFact
		if !pass.ImportObjectFact(acq.Via.Origin(), &f) || f.Acquire == 0 || f.AcquireReported {
			return
		}
		w = val{k: kind(f.Acquire), konst: f.AcquireConst}
	}
	if !w.k.weak() {
		return
	}
	pass.Report(analysis.Diagnostic{
		Pos: acq.Pos(), End: acq.Call.End(),
		Message: fmt.Sprintf("lock %s is acquired with %s, which stores %s as its value and so cannot tell one holder from another: %s; "+
			"store a random token from safelock.NewToken() and compare it when releasing and renewing",
			acq.KeyText(), acq.Describe(), describe(w), consequence(w.k)),
		Related: []analysis.RelatedInformation{{Pos: use.Pos(), End: use.Call.End(), Message: use.Command + " of the lock here"}},
	})
}
