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

// TestGoRedisPaths: go-redis under every import path it has had.
func TestGoRedisPaths(t *testing.T) {
	for path, want := range map[string]bool{
		"gopkg.in/redis.v5":                      true,
		"gopkg.in/redis.v3":                      true,
		"github.com/go-redis/redis":              true,
		"github.com/redis/go-redis/v9":           true,
		"github.com/redis/rueidis/rueidiscompat": true,
		"gopkg.in/redis.v9":                      false, // never published
		"gopkg.in/redsync.v1":                    false,
	} {
		if got := isGoRedis(path); got != want {
			t.Errorf("%s: got %v, want %v", path, got, want)
		}
	}
}
