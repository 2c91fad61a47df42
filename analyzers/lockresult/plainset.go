package lockresult

import (
	"fmt"
	"go/ast"
	"go/types"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
)

// plainSetAcquire reports an acquire function (a bool result, named as
// taking a lock) whose lock is a plain SET, SETEX or PSETEX, with no NX:
// the command succeeds whether or not another holder has the key, so the
// function answers "acquired" to every caller and overwrites the holder's
// token. The key must be released with an owner check somewhere in the
// package (a compare-and-delete): that is what makes it a lock, and not
// a flag such as an account lockout.
func (r *runner) plainSetAcquire(fd *ast.FuncDecl) {
	info := r.pass.TypesInfo
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok || !namedAsAcquire(fd.Name.Name) || !hasBoolResult(fn) || !returnsTrueConst(info, fd) {
		return
	}
	for _, op := range r.res.Funcs[fd] {
		if op.Kind != lifecycle.Write || op.Cmd == nil || op.Via != nil {
			continue
		}
		switch op.Cmd.Name {
		case "SET", "SETEX", "PSETEX":
		default:
			continue
		}
		if op.Cmd.Opts.NX || op.Cmd.Opts.XX || !r.releasedChecked(op.Key) {
			continue
		}
		r.pass.Report(analysis.Diagnostic{
			Pos: op.Call.Pos(), End: op.Call.End(),
			Message: fmt.Sprintf("%s takes lock %s with %s, which has no NX: it succeeds whether or not another process holds the lock, "+
				"so every caller is told it acquired it and the holder's value is overwritten; acquire with SET NX (SetNX, SetArgs{Mode: \"NX\"}) "+
				"and return its reply, or use %s", fd.Name.Name, op.KeyText(), op.Cmd.Name, instead),
		})
		return
	}
}

// releasedChecked reports whether some function of the package deletes
// key only when it holds the caller's value (a compare-and-delete).
func (r *runner) releasedChecked(key keyexpr.Key) bool {
	for _, ops := range r.res.Funcs {
		for _, op := range ops {
			if op.Kind == lifecycle.Delete && op.Checked && (keyexpr.Same(op.Key, key, false) || sameField(op.Key, key)) {
				return true
			}
		}
	}
	return false
}

// sameField reports whether two keys are the same field of a receiver
// type (redisLock.key in Acquire and in Release): the lock object's key.
func sameField(a, b keyexpr.Key) bool {
	return a.Known() && a.Exact == b.Exact && fieldKey.MatchString(a.Exact)
}

var fieldKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$`)

// namedAsAcquire reports whether a function's name says it takes a lock
// (Acquire, TryLock, Lock, Obtain, GetLock), not that it reads or gives
// one back (Unlock, Release, IsLocked), nor a word that merely contains
// "lock" (Block, Clock).
func namedAsAcquire(name string) bool {
	takes := false
	for _, w := range camelWords(name) {
		switch w {
		case "unlock", "release", "locked", "is":
			return false
		case "lock", "acquire", "obtain", "trylock":
			takes = true
		}
	}
	return takes
}

// camelWords splits an identifier into its lower-case words
// (tryAcquireLock: try, acquire, lock; TTLLock: ttl, lock; try_lock).
func camelWords(name string) []string {
	var words []string
	start := 0
	rs := []rune(name)
	for i := 1; i <= len(rs); i++ {
		boundary := i == len(rs) || rs[i] == '_' ||
			unicode.IsUpper(rs[i]) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]))
		if boundary {
			if w := strings.Trim(string(rs[start:i]), "_"); w != "" {
				words = append(words, strings.ToLower(w))
			}
			start = i
		}
	}
	return words
}

func hasBoolResult(fn *types.Func) bool {
	res := fn.Type().(*types.Signature).Results()
	for i := 0; i < res.Len(); i++ {
		if isBoolType(res.At(i).Type()) {
			return true
		}
	}
	return false
}

// returnsTrueConst reports whether fd has a return of the constant true.
func returnsTrueConst(info *types.Info, fd *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if ret, ok := n.(*ast.ReturnStmt); ok {
			for _, e := range ret.Results {
				if isTrue(info, e) {
					found = true
				}
			}
		}
		return true
	})
	return found
}
