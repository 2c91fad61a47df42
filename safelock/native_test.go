package safelock

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// setIfeq stands in for Redis 8.4's SET key value PX ms IFEQ match, which
// neither redis-server 7.0 nor miniredis has: a hook answers such commands
// by running the same compare-and-set on the server through another
// client. It tests the Locker's side of the native renew path (the command
// it sends, how it reads OK and nil), not Redis.
type setIfeq struct {
	raw  *redis.Client
	seen []string
}

func (h *setIfeq) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *setIfeq) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

func (h *setIfeq) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		args := cmd.Args()
		h.seen = append(h.seen, strings.TrimSpace(fmt.Sprintln(args...)))
		if cmd.Name() != "set" || len(args) != 7 || args[5] != "ifeq" {
			return next(ctx, cmd)
		}
		unit := map[any]string{"px": "PX", "ex": "EX"}[args[3]]
		if unit == "" {
			return next(ctx, cmd)
		}
		const cas = `if redis.call('GET', KEYS[1]) ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], ARGV[4], ARGV[2])
return 1`
		n, err := h.raw.Eval(ctx, cas, []string{fmt.Sprint(args[1])}, args[2], args[4], args[6], unit).Int()
		sc := cmd.(*redis.StatusCmd)
		switch {
		case err != nil:
			sc.SetErr(err)
		case n == 1:
			sc.SetVal("OK")
		default:
			sc.SetErr(redis.Nil)
		}
		return sc.Err()
	}
}

func TestNativeRenew(t *testing.T) {
	m := miniredis.RunT(t)
	raw := redis.NewClient(&redis.Options{Addr: m.Addr()})
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer func() { _ = raw.Close(); _ = c.Close() }()
	h := &setIfeq{raw: raw}
	c.AddHook(h)
	l := New(c)
	defer func() { _ = l.Close() }()
	ctx := testCtx(t)

	a, err := l.TryAcquire(ctx, "n", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	h.seen = nil
	if err := a.Renew(ctx, 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprintf("set n %s px 1500 ifeq %s", a.Token(), a.Token())}
	if !slices.Equal(h.seen, want) {
		t.Fatalf("renew sent %q, want %q", h.seen, want)
	}
	if d := m.TTL("n"); d != 1500*time.Millisecond {
		t.Fatalf("ttl after native renew %v", d)
	}
	if err := m.Set("n", "other"); err != nil {
		t.Fatal(err)
	}
	h.seen = nil
	if err := a.Renew(ctx, time.Second); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("native renew of a lost lock: %v", err)
	}
	if len(h.seen) != 1 {
		t.Fatalf("renew of a lost lock sent %q, want one native SET", h.seen)
	}
	if v, _ := m.Get("n"); v != "other" {
		t.Fatalf("other owner's value changed to %q", v)
	}
}

// TestRetriedAcquire: an acquire whose reply was lost and that go-redis
// sends again finds its own token and reports the lock as held: the
// acquire script with the fence it was issued, TryAcquire's pipeline
// (after the node's first script) with the fence its INCR issued again,
// which is as good: the counter holds it, so it is above every fence
// issued before.
func TestRetriedAcquire(t *testing.T) {
	l, c := startLocker(t)
	ctx := testCtx(t)
	ks, _ := lockKeys("retry")
	tok := NewToken()
	counter := func() int64 { n, _ := c.Get(ctx, ks.fence).Int64(); return n }
	g1, err := l.nodes[0].acquire(ctx, ks, tok, time.Minute, &l.opts, tryOnce, "-")
	if err != nil || !g1.ok || g1.fence != counter() {
		t.Fatal(g1, err)
	}
	g2, err := l.nodes[0].acquire(ctx, ks, tok, time.Minute, &l.opts, firstWait, "-")
	if err != nil || !g2.ok || g2.fence != g1.fence || counter() != g1.fence {
		t.Fatalf("script retry: %+v %v; first %+v, counter %d", g2, err, g1, counter())
	}
	if !l.nodes[0].scripted.Load() {
		t.Fatal("the node ran the acquire script but does not know it")
	}
	g3, err := l.nodes[0].acquire(ctx, ks, tok, time.Minute, &l.opts, tryOnce, "-")
	if err != nil || !g3.ok || g3.fence <= g1.fence || counter() != g3.fence {
		t.Fatalf("pipeline retry: %+v %v; first %+v, counter %d", g3, err, g1, counter())
	}
	if v, _ := c.Get(ctx, ks.lock).Result(); v != tok {
		t.Fatalf("key holds %q, want the retried token", v)
	}
}

// cancelAfter cancels a context right after the first acquire script ran on
// the server, as if ctx ended while the reply was on its way.
type cancelAfter struct {
	cancel context.CancelFunc
	done   bool
}

func (h *cancelAfter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *cancelAfter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (h *cancelAfter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if !h.done && cmd.Name() == "evalsha" && err == nil {
			h.done = true
			h.cancel()
			cmd.SetErr(context.Canceled)
			return context.Canceled
		}
		return err
	}
}

// TestAbandonedAttemptReleased: an acquire that ran on the server but whose
// caller's ctx ended first does not leave the lock held until its ttl.
func TestAbandonedAttemptReleased(t *testing.T) {
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer func() { _ = c.Close() }()
	ctx, cancel := context.WithCancel(testCtx(t))
	c.AddHook(&cancelAfter{cancel: cancel})
	l := New(c)
	defer func() { _ = l.Close() }()
	if err := c.ScriptLoad(testCtx(t), queueAcquireScript).Err(); err != nil {
		t.Fatal(err)
	}
	_, err := l.TryAcquire(ctx, "abandoned", time.Hour)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("TryAcquire: %v, want Canceled", err)
	}
	if m.Exists("abandoned") {
		t.Fatal("the abandoned attempt's lock is still held")
	}
}

func TestLearnVersion(t *testing.T) {
	for _, tc := range []struct {
		version int64
		want    int32
	}{{0, unknown}, {0x070000, unsupported}, {0x080200, unsupported}, {0x080400, supported}, {0x090000, supported}} {
		var n node
		n.learn(tc.version)
		if n.setIfeq.Load() != tc.want {
			t.Errorf("version %#x: setIfeq %d, want %d", tc.version, n.setIfeq.Load(), tc.want)
		}
	}
}

func TestLockKeys(t *testing.T) {
	for key, fence := range map[string]string{
		"job":           "safelock:fence:{job}",
		"{user:1}:lock": "safelock:fence:{user:1}:lock",
		"a{b":           "safelock:fence:{a{b}",
		"{}x":           "", // '}' without a tag: rejected
		"a}b":           "",
	} {
		ks, err := lockKeys(key)
		if fence == "" {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%q: %v, want ErrInvalid", key, err)
			}
			continue
		}
		if err != nil || ks.fence != fence || ks.lock != key {
			t.Errorf("%q: %+v %v, want fence %q", key, ks, err, fence)
		}
	}
}

// TestRetriedReleaseByFence: a release keeps no record; a release that
// finds its key gone reports success exactly when the fence counter still
// holds the lease's fence, that is when nobody was granted the lock since:
// a retried release, or a lease that expired with nobody taking the lock.
// Once another owner was granted it, the old lease's release reports not
// released and leaves the new key alone. The same with WithFairness.
func TestRetriedReleaseByFence(t *testing.T) {
	for _, fair := range []bool{false, true} {
		t.Run(fmt.Sprint("fair=", fair), func(t *testing.T) {
			m := miniredis.RunT(t)
			c := redis.NewClient(&redis.Options{Addr: m.Addr()})
			defer func() { _ = c.Close() }()
			n := &node{c: c}
			ctx := testCtx(t)
			ks, _ := lockKeys("relf")
			o := &options{queue: true, fair: fair, waiterTTL: defaultWaiterTTL}
			grant := func() (string, int64) {
				tok := NewToken()
				g, err := n.acquire(ctx, ks, tok, time.Second, o, tryOnce, "-")
				if err != nil || !g.ok {
					t.Fatalf("acquire: %+v %v", g, err)
				}
				return tok, g.fence
			}
			tok, fence := grant()
			for i := range 2 {
				if ok, _, err := n.release(ctx, ks, tok, fence, true, ""); err != nil || !ok {
					t.Fatalf("release %d: %v %v, want released", i+1, ok, err)
				}
			}
			if m.Exists("relf") {
				t.Fatal("key still there")
			}
			// Without the fence a gone key is not this lease's release.
			if ok, _, err := n.release(ctx, ks, tok, 0, true, ""); err != nil || ok {
				t.Fatalf("release without fence of a gone key: %v %v, want not released", ok, err)
			}
			// Expired, nobody took it since: released.
			late, lateFence := grant()
			m.FastForward(2 * time.Second)
			if ok, _, err := n.release(ctx, ks, late, lateFence, true, ""); err != nil || !ok {
				t.Fatalf("release after expiry with nobody since: %v %v, want released", ok, err)
			}
			// Another owner was granted it: not released, its key left alone.
			old, oldFence := grant()
			m.FastForward(2 * time.Second)
			other, _ := grant()
			if ok, _, err := n.release(ctx, ks, old, oldFence, true, ""); err != nil || ok {
				t.Fatalf("release after another grant: %v %v, want not released", ok, err)
			}
			if got, _ := m.Get("relf"); got != other {
				t.Fatalf("the old release changed the new owner's key to %q", got)
			}
		})
	}
}
