package redistest

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestSentinelFailover(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f := StartFailover(t, 3)
	addrs := f.SentinelAddrs()
	seen := map[string]bool{f.Primary.Addr(): true, f.Replica.Addr(): true}
	for _, a := range addrs {
		if seen[a] {
			t.Fatalf("address %s used twice", a)
		}
		seen[a] = true
	}
	if len(addrs) != 3 {
		t.Fatalf("%d sentinels, want 3", len(addrs))
	}
	checkQuorum(ctx, t, f, "2")

	c := redis.NewFailoverClient(&redis.FailoverOptions{
		MasterName:            MasterName,
		SentinelAddrs:         addrs,
		ContextTimeoutEnabled: true,
	})
	defer func() { _ = c.Close() }()
	if err := c.Set(ctx, "before", "1", 0).Err(); err != nil {
		t.Fatalf("SET through the failover client: %v", err)
	}
	if v, err := f.Primary.Client().Get(ctx, "before").Result(); err != nil || v != "1" {
		t.Fatalf("primary has before=%q, %v; the failover client wrote elsewhere", v, err)
	}
	if n, err := c.Do(ctx, "WAIT", 1, 5000).Int(); err != nil || n != 1 {
		t.Fatalf("WAIT = %d, %v; want 1 replica", n, err)
	}

	// A forced failover needs no down-after wait and no agreement, so it
	// checks the sentinels' configuration without the slow path; the
	// crash path is covered in safelock's failover test.
	s := redis.NewSentinelClient(&redis.Options{Addr: addrs[0]})
	defer func() { _ = s.Close() }()
	if err := s.Failover(ctx, MasterName).Err(); err != nil {
		t.Fatalf("SENTINEL FAILOVER: %v", err)
	}
	f.WaitPrimary(t, f.Replica)

	// The client follows the switch: writes land on the promoted replica.
	var err error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err = c.Set(ctx, "after", "2", 0).Err(); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("SET after failover: %v", err)
	}
	r := f.Replica.Client()
	if v, err := r.Get(ctx, "after").Result(); err != nil || v != "2" {
		t.Fatalf("new primary has after=%q, %v", v, err)
	}
	if v, err := r.Get(ctx, "before").Result(); err != nil || v != "1" {
		t.Fatalf("new primary lost before: %q, %v", v, err)
	}
}

func TestSentinelSingle(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f := StartFailover(t, 1)
	checkQuorum(ctx, t, f, "1")
}

// checkQuorum checks that every sentinel monitors MasterName with quorum
// want and the short timeouts that make a test failover take seconds.
func checkQuorum(ctx context.Context, t *testing.T, f *Failover, want string) {
	t.Helper()
	for _, addr := range f.SentinelAddrs() {
		s := redis.NewSentinelClient(&redis.Options{Addr: addr})
		m, err := s.Master(ctx, MasterName).Result()
		_ = s.Close()
		if err != nil {
			t.Fatalf("SENTINEL MASTER on %s: %v", addr, err)
		}
		if m["quorum"] != want || m["down-after-milliseconds"] != "1000" || m["failover-timeout"] != "3000" {
			t.Fatalf("sentinel %s: quorum %s, down-after %s ms, failover-timeout %s ms; want %s, 1000, 3000",
				addr, m["quorum"], m["down-after-milliseconds"], m["failover-timeout"], want)
		}
	}
}
