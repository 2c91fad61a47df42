package locklib

import "testing"

// TestLibPaths: rueidislock under every module path rueidis has had, and
// its valkey-go fork, are one library.
func TestLibPaths(t *testing.T) {
	for path, want := range map[string]Lib{
		RueidislockPath:                         Rueidislock,
		"github.com/rueian/rueidis/rueidislock": Rueidislock, // before v1
		ValkeylockPath:                          Rueidislock,
		"github.com/rueian/rueidis":             0,
	} {
		if got := libOf(path); got != want {
			t.Errorf("%s: got %v, want %v", path, got, want)
		}
	}
}

// TestHandleLibPaths: the smaller libraries by every path they were
// published under, and not their adapters or neighbours.
func TestHandleLibPaths(t *testing.T) {
	for path, want := range map[string]Lib{
		"github.com/bsm/redis-lock":                   BsmRedisLock,
		"github.com/bsm/redislock":                    Redislock,
		"github.com/amyangfei/redlock-go/redlock":     RedlockGo, // v1
		"github.com/amyangfei/redlock-go/v2/redlock":  RedlockGo,
		"github.com/amyangfei/redlock-go/v3/redlock":  RedlockGo,
		"github.com/amyangfei/redlock-go/v3":          Raw,
		"github.com/jefferyjob/go-redislock":          GoRedislock,
		"github.com/jefferyjob/go-redislock/adapter":  Raw,
		"github.com/xiaoxuxiansheng/redis_lock":       XiaoxuRedisLock,
		"github.com/xiaoxuxiansheng/redis_lock/utils": Raw,
		"github.com/go-co-op/gocron/v2":               Gocron,
		"github.com/go-co-op/gocron":                  Raw, // v1: the locker is set by a method, not modelled
	} {
		if got := libOf(path); got != want {
			t.Errorf("%s: got %v, want %v", path, got, want)
		}
	}
}
