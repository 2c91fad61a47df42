package fence_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"testing"

	"github.com/locklint/locklint/internal/redistest"
	"github.com/locklint/locklint/safelock/fence"
	"github.com/redis/go-redis/v9"
)

// setRedis writes value as the grant (f, "g<f>"): one grant per fence.
func setRedis(t *testing.T, c redis.Scripter, key string, f int64, value string) bool {
	t.Helper()
	return setRedisAs(t, c, key, fence.Of(f, fmt.Sprint("g", f)), value)
}

func setRedisAs(t *testing.T, c redis.Scripter, key string, g fence.Grant, value string) bool {
	t.Helper()
	f := g.Fence()
	ok, err := fence.SetRedis(testCtx(t), c, key, g, value)
	if err != nil {
		t.Fatalf("SetRedis(%q, fence %d): %v", key, f, err)
	}
	return ok
}

func get(t *testing.T, c redis.Cmdable, key string) string {
	t.Helper()
	v, err := c.Get(testCtx(t), key).Result()
	if err != nil {
		t.Fatalf("GET %s: %v", key, err)
	}
	return v
}

func TestSetRedisFenceRule(t *testing.T) {
	c := redistest.Start(t).Client()
	const key = "balance:42"
	steps := []struct {
		fence int64
		token string // "" means the fence's own grant
		want  bool
		why   string
	}{
		{5, "", true, "first write"},
		{3, "", false, "stale holder"},
		{5, "", true, "same grant writes again"},
		{5, "other", false, "a second grant with the same fence"},
		{9, "", true, "newer holder"},
		{10, "", true, "digit count grows: 10 > 9"},
		{9, "", false, "9 < 10 (a string comparison that ignores length would accept)"},
		{math.MaxInt64 - 1, "", true, "near the top of int64"},
		{math.MaxInt64 - 2, "", false, "exact near 2^63, where a Lua number would round"},
		{math.MaxInt64, "", true, "largest fence"},
	}
	for _, s := range steps {
		before, _ := c.Get(testCtx(t), key).Result()
		value := fmt.Sprint("v", s.fence)
		token := s.token
		if token == "" {
			token = fmt.Sprint("g", s.fence)
		}
		if got := setRedisAs(t, c, key, fence.Of(s.fence, token), value); got != s.want {
			t.Fatalf("%s: SetRedis(fence %d) = %v, want %v", s.why, s.fence, got, s.want)
		}
		after := get(t, c, key)
		switch {
		case s.want && after != value:
			t.Fatalf("%s: value %q after accepted write, want %q", s.why, after, value)
		case !s.want && after != before:
			t.Fatalf("%s: rejected write changed the value %q -> %q", s.why, before, after)
		}
	}
	fk, err := fence.RedisFenceKey(key)
	if err != nil {
		t.Fatal(err)
	}
	rec := c.HGetAll(testCtx(t), fk).Val()
	if rec["fence"] != strconv.FormatInt(math.MaxInt64, 10) || rec["token"] != fmt.Sprint("g", int64(math.MaxInt64)) {
		t.Fatalf("fence record %s = %v", fk, rec)
	}
	if ttl := c.PTTL(testCtx(t), fk).Val(); ttl != -1 {
		t.Fatalf("fence record has a ttl (%v); it must outlive late writers", ttl)
	}
}

func TestSetRedisKeyDeletedStillFenced(t *testing.T) {
	// Deleting the value does not forget the fence: a stale holder cannot
	// recreate the key.
	c := redistest.Start(t).Client()
	setRedis(t, c, "doc", 4, "new")
	if err := c.Del(testCtx(t), "doc").Err(); err != nil {
		t.Fatal(err)
	}
	if setRedis(t, c, "doc", 3, "stale") {
		t.Fatal("stale write recreated a deleted key")
	}
	if n := c.Exists(testCtx(t), "doc").Val(); n != 0 {
		t.Fatal("rejected write created the key")
	}
}

func TestSetScriptChecksFence(t *testing.T) {
	// redigo and rueidis users call SetScript themselves; it refuses
	// fences that are not positive decimal integers.
	c := redistest.Start(t).Client()
	for _, bad := range []string{"", "0", "-1", "01", "1.5", "1e3", "abc", " 1"} {
		err := c.Eval(testCtx(t), fence.SetScript, []string{"k", "safelock:fenced:{k}"}, bad, "token", "v").Err()
		if err == nil {
			t.Errorf("SetScript with fence %q succeeded; want an error", bad)
		}
	}
	if err := c.Eval(testCtx(t), fence.SetScript, []string{"k", "safelock:fenced:{k}"}, "1", "", "v").Err(); err == nil {
		t.Error("SetScript with an empty token succeeded; want an error")
	}
	if n := c.Exists(testCtx(t), "k", "safelock:fenced:{k}").Val(); n != 0 {
		t.Fatalf("bad fences wrote %d keys", n)
	}
}

func TestSetRedisBadInput(t *testing.T) {
	c := redistest.Start(t).Client()
	ctx := testCtx(t)
	g := fence.Of(1, "g")
	cases := []struct {
		name string
		c    redis.Scripter
		key  string
		g    fence.Grant
	}{
		{"empty key", c, "", g},
		{"'}' without a hash tag", c, "a}b", g},
		{"empty hash tag and '}'", c, "x{}y", g},
		{"zero fence", c, "k", fence.Of(0, "g")},
		{"negative fence", c, "k", fence.Of(-1, "g")},
		{"empty token", c, "k", fence.Of(1, "")},
		{"nil grant", c, "k", nil},
		{"typed nil grant", c, "k", (*nilLease)(nil)},
		{"nil client", nil, "k", g},
		{"typed nil client", (*redis.Client)(nil), "k", g},
		{"typed nil cluster client", (*redis.ClusterClient)(nil), "k", g},
	}
	for _, tc := range cases {
		ok, err := fence.SetRedis(ctx, tc.c, tc.key, tc.g, "v")
		if ok || !errors.Is(err, fence.ErrInvalid) {
			t.Errorf("%s: got %v, %v; want ErrInvalid", tc.name, ok, err)
		}
	}
	if n := c.DBSize(ctx).Val(); n != 0 {
		t.Fatalf("bad input wrote %d keys", n)
	}
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ok, err := fence.SetRedis(cctx, c, "k", g, "v"); ok || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled ctx: %v, %v; want context.Canceled", ok, err)
	}
}

func TestRedisFenceKey(t *testing.T) {
	for key, want := range map[string]string{
		"balance":          "safelock:fenced:{balance}",
		"{user:1}:balance": "safelock:fenced:{user:1}:balance",
		"a{b":              "safelock:fenced:{a{b}",
		"x:{t}":            "safelock:fenced:x:{t}",
	} {
		got, err := fence.RedisFenceKey(key)
		if err != nil || got != want {
			t.Errorf("RedisFenceKey(%q) = %q, %v; want %q", key, got, err, want)
		}
	}
}

func TestSetRedisConcurrent(t *testing.T) {
	c := redistest.Start(t).Client()
	ctx := testCtx(t)
	const writers = 32
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			f := int64(w + 1)
			if _, err := fence.SetRedis(ctx, c, "hot", fence.Of(f, fmt.Sprint("g", f)), fmt.Sprint("v", f)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := get(t, c, "hot"); got != fmt.Sprint("v", writers) {
		t.Fatalf("value %q after the race, want the highest fence's v%d", got, writers)
	}
}

// TestSetRedisCluster writes keys spread over all three primaries,
// with and without hash tags: the script must never fail with CROSSSLOT.
func TestSetRedisCluster(t *testing.T) {
	nodes := redistest.StartCluster(t)
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: redistest.ClusterAddrs(nodes)})
	t.Cleanup(func() { _ = cc.Close() })
	ctx := testCtx(t)
	keys := []string{"{user:1}:balance", "x:{t}", "a{b"}
	for i := range 20 {
		keys = append(keys, fmt.Sprint("resource:", i))
	}
	for _, key := range keys {
		fk, err := fence.RedisFenceKey(key)
		if err != nil {
			t.Fatal(err)
		}
		ks, fs := cc.ClusterKeySlot(ctx, key).Val(), cc.ClusterKeySlot(ctx, fk).Val()
		if ks != fs {
			t.Fatalf("%q is in slot %d, its fence record %q in slot %d", key, ks, fk, fs)
		}
		if !setRedis(t, cc, key, 2, "two") {
			t.Fatalf("%s: first write rejected", key)
		}
		if setRedis(t, cc, key, 1, "one") {
			t.Fatalf("%s: stale write accepted on the cluster", key)
		}
		if got := get(t, cc, key); got != "two" {
			t.Fatalf("%s = %q, want two", key, got)
		}
	}
	// The keys did land on more than one primary.
	seen := map[int64]bool{}
	for _, key := range keys {
		seen[cc.ClusterKeySlot(ctx, key).Val()/5461] = true
	}
	if len(seen) < 2 {
		t.Fatalf("all keys fell on one primary; the test proves nothing about slots")
	}
}

func BenchmarkSetRedis(b *testing.B) {
	c := redistest.Start(b).Client()
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		if _, err := fence.SetRedis(ctx, c, "bench", fence.Of(int64(i+1), "bench"), "v"); err != nil {
			b.Fatal(err)
		}
	}
}

// commands records the commands a client sends, one entry per round trip.
type commands struct {
	mu   sync.Mutex
	sent []string
}

func (h *commands) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *commands) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		switch cmd.Name() {
		case "hello", "client": // connection setup
		default:
			h.mu.Lock()
			h.sent = append(h.sent, cmd.Name())
			h.mu.Unlock()
		}
		return next(ctx, cmd)
	}
}

func (h *commands) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if len(cmds) > 0 && cmds[0].Name() != "hello" && cmds[0].Name() != "client" {
			h.mu.Lock()
			h.sent = append(h.sent, "pipeline")
			h.mu.Unlock()
		}
		return next(ctx, cmds)
	}
}

func (h *commands) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sent
	h.sent = nil
	return s
}

// TestSetRedisRoundTrips: a fenced write is one EVALSHA once the script is
// cached; an empty script cache (a restarted or failed-over server) costs
// one extra EVAL, handled inside the call.
func TestSetRedisRoundTrips(t *testing.T) {
	srv := redistest.Start(t)
	c := srv.Client()
	h := &commands{}
	c.AddHook(h)
	ctx := testCtx(t)
	if !setRedis(t, c, "rt", 1, "a") {
		t.Fatal("first write refused")
	}
	if got := h.take(); len(got) != 2 || got[0] != "evalsha" || got[1] != "eval" {
		t.Fatalf("first call sent %v, want [evalsha eval] (NOSCRIPT, then the source)", got)
	}
	for f := int64(2); f <= 4; f++ {
		setRedis(t, c, "rt", f, "b")
		if got := h.take(); len(got) != 1 || got[0] != "evalsha" {
			t.Fatalf("cached call sent %v, want one evalsha", got)
		}
	}
	if err := srv.Client().ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if !setRedis(t, c, "rt", 5, "c") {
		t.Fatal("write after SCRIPT FLUSH refused")
	}
	if got := h.take(); len(got) != 2 {
		t.Fatalf("call after SCRIPT FLUSH sent %v, want [evalsha eval]", got)
	}
}

// BenchmarkPlainSet is the baseline for BenchmarkSetRedis: one unfenced
// SET round trip.
func BenchmarkPlainSet(b *testing.B) {
	c := redistest.Start(b).Client()
	ctx := context.Background()
	for b.Loop() {
		if err := c.Set(ctx, "bench", "v", 0).Err(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSetRedisDuplicateFenceRace: grants that share a fence (a counter
// issued it twice) race to write; exactly one wins.
func TestSetRedisDuplicateFenceRace(t *testing.T) {
	c := redistest.Start(t).Client()
	ctx := testCtx(t)
	const writers = 16
	var wg sync.WaitGroup
	wins := make(chan string, writers)
	for w := range writers {
		wg.Go(func() {
			tok := fmt.Sprint("grant-", w)
			ok, err := fence.SetRedis(ctx, c, "dup", fence.Of(7, tok), tok)
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins <- tok
			}
		})
	}
	wg.Wait()
	close(wins)
	var won []string
	for tok := range wins {
		won = append(won, tok)
	}
	if len(won) != 1 {
		t.Fatalf("%d grants with fence 7 wrote (%v), want exactly 1", len(won), won)
	}
	if got := get(t, c, "dup"); got != won[0] {
		t.Fatalf("value %q, written by %q", got, won[0])
	}
}
