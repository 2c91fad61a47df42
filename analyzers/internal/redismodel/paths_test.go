package redismodel

import "testing"

// TestClientPaths: every import path a client family has had is that
// family, and look-alike paths are not.
func TestClientPaths(t *testing.T) {
	for _, tc := range []struct {
		path string
		is   func(string) bool
		want bool
	}{
		{"github.com/redis/rueidis", isRueidis, true},
		{"github.com/rueian/rueidis", isRueidis, true}, // before v1
		{"github.com/rueian/rueidis/internal/cmds", isRueidis, true},
		{"github.com/valkey-io/valkey-go", isRueidis, true},
		{"github.com/rueian/rueidis/rueidislock", isRueidis, false}, // the lock library, not the client
		{"github.com/rueian/rueidis-extra", isRueidis, false},
		{"github.com/mediocregopher/radix/v3", isRadix, true},
		{"github.com/mediocregopher/radix/v4", isRadix, true},
		{"github.com/mediocregopher/radix/v3/resp", isRadix, false},
	} {
		if got := tc.is(tc.path); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.path, got, tc.want)
		}
	}
}
