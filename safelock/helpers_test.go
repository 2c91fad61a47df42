package safelock

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/internal/redistest"
	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// After a failed dial go-redis redials in a goroutine of its pool that
	// sleeps a second between tries and ends at its first wake-up after
	// the client is closed: a test that dials a killed node and is the
	// last to run leaves it sleeping. It is go-redis's, not a leak here.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/redis/go-redis/v9/internal/pool.(*ConnPool).tryDial"))
}

// testCtx bounds a test's Redis calls generously: the machine is shared.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// startLocker starts a redis-server and returns a Locker on it, closed at
// the end of the test, and a plain client for inspecting the server.
func startLocker(t testing.TB, opts ...Option) (*Locker, *redis.Client) {
	t.Helper()
	srv := redistest.Start(t)
	c := srv.Client()
	l := New(c, opts...)
	t.Cleanup(func() { _ = l.Close() })
	return l, c
}

// wire counts what a go-redis client sends: round trips (one per command
// outside a pipeline, one per pipeline) and command names.
type wire struct {
	mu         sync.Mutex
	roundTrips int
	commands   []string
}

func (w *wire) DialHook(next redis.DialHook) redis.DialHook { return next }

func (w *wire) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if handshake([]redis.Cmder{cmd}) {
			return next(ctx, cmd)
		}
		w.mu.Lock()
		w.roundTrips++
		w.commands = append(w.commands, strings.ToLower(cmd.Name()))
		w.mu.Unlock()
		return next(ctx, cmd)
	}
}

func (w *wire) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if handshake(cmds) {
			return next(ctx, cmds) // a new connection's setup, not an operation
		}
		w.mu.Lock()
		w.roundTrips++
		for _, c := range cmds {
			w.commands = append(w.commands, strings.ToLower(c.Name()))
		}
		w.mu.Unlock()
		return next(ctx, cmds)
	}
}

func handshake(cmds []redis.Cmder) bool {
	for _, c := range cmds {
		switch strings.ToLower(c.Name()) {
		case "hello", "client", "auth", "select":
		default:
			return false
		}
	}
	return true
}

// take returns what was counted since the last call and resets.
func (w *wire) take() (int, []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, cmds := w.roundTrips, w.commands
	w.roundTrips, w.commands = 0, nil
	return n, cmds
}

// waitGone polls until key no longer exists on c (PTTL -2).
func waitGone(t testing.TB, c redis.Cmdable, key string) {
	t.Helper()
	ctx := testCtx(t)
	for {
		d, err := c.PTTL(ctx, key).Result()
		if err != nil {
			t.Fatalf("PTTL %s: %v", key, err)
		}
		if d == -2 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("key %s did not expire", key)
		case <-time.After(2 * time.Millisecond):
		}
	}
}
