package lifecycle

import (
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
)

// FuncFact summarises what a function does to Redis keys, in terms of its
// parameters ($pN$ in a key names parameter N) or of keys that are stable
// across functions (constants, struct fields, package variables, helper
// calls). Callers in this and other packages apply it at each call site,
// so a lock taken in one function and released in another, or behind a
// helper package, is still one lifecycle.
type FuncFact struct {
	Ops []FactOp
	// ReturnsValue is the result index that returns the value an acquire
	// in this function stored (the lock token), or -1.
	ReturnsValue int
	// Counts is set when the function returns, as its first result, the
	// reply of an INCR of a parameter key (a client wrapper's Incr): the
	// key in keyexpr Exact form with $pN$, and where the INCR is. A caller
	// that compares that result with 1 alone takes a lock with INCR.
	Counts, CountsWhere string
}

func (*FuncFact) AFact() {}

func (f *FuncFact) String() string {
	var parts []string
	for _, op := range f.Ops {
		parts = append(parts, op.String())
	}
	if f.ReturnsValue >= 0 {
		parts = append(parts, fmt.Sprintf("returns value in result %d", f.ReturnsValue))
	}
	if f.Counts != "" {
		parts = append(parts, "returns INCR "+f.Counts)
	}
	return strings.Join(parts, "; ")
}

// FactOp is one summarised operation.
type FactOp struct {
	Kind       OpKind
	Command    string // the Redis command, e.g. "DEL", "SET NX", "EVAL"
	Key        string // keyexpr Exact form with $pN$ for parameters
	Anchored   bool
	ValueParam int // Acquire: parameter holding the value, or -1
	// TTLParam is 1 + the parameter holding an Acquire's TTL when the
	// helper passes its own parameter through (0: none), so a caller's
	// constant 0 is a lock without expiry.
	TTLParam int
	// ScriptParam is 1 + the parameter holding the Lua text of an
	// Unknown EVAL on Key (0: none), ScriptKey that key's KEYS index: the
	// caller's script says what the op is.
	ScriptParam, ScriptKey int
	TTL                    bool
	NoTTL                  bool
	Checked                bool
	Multi                  bool   // queued inside MULTI/EXEC in the helper
	InGo                   bool   // sent from a goroutine the helper starts
	Where                  string // file:line of the command, for messages
	// InLock is true when the helper's own package already saw this op as
	// part of a lock lifecycle, so rules judged it there.
	InLock bool
}

func (o FactOp) String() string {
	s := fmt.Sprintf("%s %s", o.Kind, o.Key)
	if o.Kind == Acquire {
		switch {
		case o.TTL:
			s += " with ttl"
		case o.NoTTL:
			s += " without ttl"
		}
	}
	if o.Checked {
		s += " checked"
	}
	return s
}

func (o FactOp) key() keyexpr.Key {
	return keyexpr.FromExact(o.Key, o.Anchored)
}

// ScriptFact records the Lua text behind a package-level variable (a
// string of Lua or a NewScript value), so scripts declared in one package
// and run in another are still read.
type ScriptFact struct {
	Text     string
	KeyCount int
}

func (*ScriptFact) AFact() {}

func (f *ScriptFact) String() string { return fmt.Sprintf("script(%d bytes)", len(f.Text)) }

// PackageFact marks a package that uses a Redis client directly or
// through its imports; packages that import none of these are skipped.
type PackageFact struct{}

func (*PackageFact) AFact() {}

func (*PackageFact) String() string { return "uses redis" }

// ClientFact marks an interface declared with the //locklint:client
// go-redis directive: its methods are read as go-redis commands in every
// package that calls them.
type ClientFact struct{}

func (*ClientFact) AFact() {}

func (*ClientFact) String() string { return "go-redis client" }

// RawWrapperFact marks a function that forwards its command name and
// arguments to redigo (func (m *Manager) Do(cmd string, args ...any)):
// its calls in importing packages are read as the commands they send.
type RawWrapperFact struct{}

func (*RawWrapperFact) AFact() {}

func (*RawWrapperFact) String() string { return "raw redigo wrapper" }

// Downloaded reports whether the package comes from a module downloaded
// from a proxy: its module has a version, or, where the driver does not
// say (Module is nil with some loaders), its files lie in the module
// cache, under a directory named path@version.
func Downloaded(pass *analysis.Pass) bool {
	if pass.Module != nil {
		return pass.Module.Version != ""
	}
	if len(pass.Files) == 0 {
		return false
	}
	dir := filepath.ToSlash(filepath.Dir(pass.Fset.File(pass.Files[0].Pos()).Name()))
	for _, elem := range strings.Split(dir, "/") {
		if at := strings.LastIndex(elem, "@v"); at > 0 && at+2 < len(elem) && elem[at+2] >= '0' && elem[at+2] <= '9' {
			return true
		}
	}
	return false
}
