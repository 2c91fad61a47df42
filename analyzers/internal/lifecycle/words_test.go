package lifecycle_test

import (
	"testing"

	"github.com/locklint/locklint/analyzers/internal/lifecycle"
)

func TestLockWordsIgnoreFalseFriends(t *testing.T) {
	words := []string{"lock", "lease"}
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"releaseInventoryAndQuota", false},
		{"blockList", false},
		{"clockSkew", false},
		{"pleaseWait", false},
		{"leaseKey", true},
		{"releaseLease", true}, // the second "lease" means it
		{"block:lock", true},
		{"unlock", true},
		{"LockKey", true},
	} {
		if got := lifecycle.ContainsAny(c.s, words); got != c.want {
			t.Errorf("containsAny(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
