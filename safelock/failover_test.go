package safelock_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/locklint/locklint/internal/redistest"
	"github.com/locklint/locklint/safelock"
	"github.com/redis/go-redis/v9"
)

// TestFailover runs safelock on a redis.NewFailoverClient (Redis Sentinel):
// the lock works through it, and after the primary crashes and Sentinel
// promotes the replica, the client reaches the new primary, the lock that
// was replicated before the crash still holds, and a new lease gets a
// fence above every fence issued before the failover.
func TestFailover(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f := redistest.StartFailover(t, 3)
	client := redis.NewFailoverClient(&redis.FailoverOptions{
		MasterName:            redistest.MasterName,
		SentinelAddrs:         f.SentinelAddrs(),
		ContextTimeoutEnabled: true,
	})
	t.Cleanup(func() { _ = client.Close() })
	l := safelock.New(client)
	t.Cleanup(func() { _ = l.Close() })

	// The lease outlives a slow failover on a busy machine, so that its
	// renew and release after the failover test the owner check, not the
	// local deadline.
	const ttl = 30 * time.Second
	const key = "failover-job"

	first, err := l.TryAcquire(ctx, key, ttl)
	if err != nil {
		t.Fatalf("TryAcquire through the failover client: %v", err)
	}
	if _, err := l.TryAcquire(ctx, key, ttl); !errors.Is(err, safelock.ErrNotAcquired) {
		t.Fatalf("second TryAcquire while held: %v, want ErrNotAcquired", err)
	}
	if err := first.Renew(ctx, ttl); err != nil {
		t.Fatalf("Renew: %v", err)
	}
	if err := first.Release(ctx); err != nil {
		t.Fatalf("Release: %v", err)
	}
	held, err := l.TryAcquire(ctx, key, ttl)
	if err != nil {
		t.Fatalf("TryAcquire after Release: %v", err)
	}
	if held.Fence() <= first.Fence() {
		t.Fatalf("fence went from %d to %d, want an increase", first.Fence(), held.Fence())
	}
	if v, err := f.Primary.Client().Get(ctx, key).Result(); err != nil || v != held.Token() {
		t.Fatalf("primary holds %q, %v; want the lease's token: the client wrote elsewhere", v, err)
	}
	maxBefore := held.Fence()

	// Make sure the replica has the lock and its fence counter, then crash
	// the primary. (Without this the failover could lose the lock: see
	// WithReplicaAck.)
	if n, err := client.Do(ctx, "WAIT", 1, 5000).Int(); err != nil || n != 1 {
		t.Fatalf("WAIT = %d, %v; want 1 replica", n, err)
	}
	f.Primary.Kill()
	f.WaitPrimary(t, f.Replica)

	// The client finds the new primary, where the replicated lock still
	// holds: a second owner is refused. Errors other than ErrNotAcquired are
	// the client still reaching for the dead primary; retry those.
	for {
		_, err := l.TryAcquire(ctx, key, ttl)
		if err == nil {
			t.Fatal("TryAcquire after failover took a lock that was replicated before the crash")
		}
		if errors.Is(err, safelock.ErrNotAcquired) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("client did not reach the new primary: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := held.Renew(ctx, ttl); err != nil {
		t.Fatalf("Renew on the new primary: %v", err)
	}
	if err := held.Release(ctx); err != nil {
		t.Fatalf("Release on the new primary: %v", err)
	}

	after, err := l.TryAcquire(ctx, key, ttl)
	if err != nil {
		t.Fatalf("TryAcquire on the new primary: %v", err)
	}
	defer func() { _ = after.Release(ctx) }()
	if after.Fence() <= maxBefore {
		t.Fatalf("fence after failover %d, want above %d (the highest before)", after.Fence(), maxBefore)
	}
	if v, err := f.Replica.Client().Get(ctx, key).Result(); err != nil || v != after.Token() {
		t.Fatalf("new primary holds %q, %v; want the new lease's token", v, err)
	}
}
