package lifecycle_test

import (
	"go/parser"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
)

func TestKeyText(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`key`, `key`},
		{`"lock:job:"+job`, `"lock:job:" + job`},
		{`l.key`, `l.key`},
		{`fmt.Sprintf("lock:%s:%d", id, n)`, `fmt.Sprintf("lock:%s:%d", id, n)`},
	} {
		e, err := parser.ParseExpr(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := lifecycle.KeyText(e, keyexpr.Key{}); got != c.want {
			t.Errorf("KeyText(%s) = %q, want %q", c.src, got, c.want)
		}
	}

	// Not at hand: the canonical form, locals as *.
	if got := lifecycle.KeyText(nil, keyexpr.Key{Exact: `"lock:"+$l1$`, Shape: `"lock:"+*`}); !strings.Contains(got, `"lock:"`) {
		t.Errorf("KeyText(nil, ...) = %q, want the key's shape", got)
	}

	// Long keys are cut on a rune boundary.
	e, err := parser.ParseExpr(`"` + strings.Repeat("é", 40) + `"+id`)
	if err != nil {
		t.Fatal(err)
	}
	got := lifecycle.KeyText(e, keyexpr.Key{})
	if !strings.HasSuffix(got, "...") || len(got) > 60 || !utf8.ValidString(got) {
		t.Errorf("long key = %q (%d bytes), want valid UTF-8 of at most 60 bytes ending in ...", got, len(got))
	}
}
