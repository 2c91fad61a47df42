package safelock_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/locklint/locklint/safelock"
	"github.com/redis/go-redis/v9"
)

// The examples run against miniredis so that they need no server; use a
// real Redis in production. ContextTimeoutEnabled lets go-redis end a call
// on a stalled connection when its ctx ends; set it on every client that
// safelock uses.
func newClient() (*redis.Client, *miniredis.Miniredis, func()) {
	m, err := miniredis.Run()
	if err != nil {
		panic(err)
	}
	c := redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
	return c, m, func() { _ = c.Close(); m.Close() }
}

func Example() {
	client, _, stop := newClient()
	defer stop()
	ctx := context.Background()

	locker := safelock.New(client)
	defer func() { _ = locker.Close() }()
	lease, err := locker.TryAcquire(ctx, "report:daily", 10*time.Second)
	if errors.Is(err, safelock.ErrNotAcquired) {
		fmt.Println("someone else is running it")
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	// Pass the fence with every write; the resource rejects lower ones.
	// Fences are large numbers (the server's clock in µs, or one more
	// than the last fence of the key), not 1, 2, 3.
	fmt.Println("fence above 10^15:", lease.Fence() > 1e15)

	_, err = locker.TryAcquire(ctx, "report:daily", 10*time.Second)
	fmt.Println("second try:", err)

	if err := lease.Release(ctx); err != nil {
		fmt.Println(err)
	}
	fmt.Println("released:", lease.Err())
	// Output:
	// fence above 10^15: true
	// second try: safelock: not acquired
	// released: safelock: lease released
}

func ExampleLocker_Do() {
	client, _, stop := newClient()
	defer stop()
	locker := safelock.New(client)
	defer func() { _ = locker.Close() }()

	var last int64
	for range 2 {
		err := locker.Do(context.Background(), "invoice:42", 5*time.Second,
			func(ctx context.Context, lease *safelock.Lease) error {
				// ctx ends if the lease is lost; stop writing then.
				fmt.Println("working; fence above the last one:", lease.Fence() > last)
				last = lease.Fence()
				return ctx.Err()
			})
		if err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// working; fence above the last one: true
	// working; fence above the last one: true
}

func ExampleLocker_Acquire() {
	client, _, stop := newClient()
	defer stop()
	ctx := context.Background()
	locker := safelock.New(client)
	defer func() { _ = locker.Close() }()

	first, _ := locker.TryAcquire(ctx, "queue:drain", time.Minute)
	go func() {
		time.Sleep(10 * time.Millisecond)
		_ = first.Release(ctx) // wakes the waiter below
	}()

	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	second, err := locker.Acquire(wctx, "queue:drain", time.Minute)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = second.Release(ctx) }()
	fmt.Println("acquired after release, fence above the first:", second.Fence() > first.Fence())
	// Output: acquired after release, fence above the first: true
}

func ExampleLease_Done() {
	client, m, stop := newClient()
	defer stop()
	ctx := context.Background()
	locker := safelock.New(client)
	defer func() { _ = locker.Close() }()

	lease, _ := locker.TryAcquire(ctx, "leader", time.Minute)
	m.Del("leader") // the lock vanished, as after a failover

	err := lease.Renew(ctx, time.Minute)
	fmt.Println(errors.Is(err, safelock.ErrLeaseLost))
	<-lease.Done()
	fmt.Println(lease.Err())
	// Output:
	// true
	// safelock: lease lost: renew "leader": the key no longer holds this lease's token
}

// Code that keeps its own client and token (what locklint's suggested
// fixes produce) uses the free functions.
func ExampleReleaseKey() {
	client, _, stop := newClient()
	defer stop()
	ctx := context.Background()

	token := safelock.NewToken()
	ok, _ := client.SetNX(ctx, "job", token, 30*time.Second).Result()
	fmt.Println("locked:", ok)

	renewed, _ := safelock.RenewKey(ctx, client, "job", token, time.Minute)
	fmt.Println("renewed:", renewed)
	released, _ := safelock.ReleaseKey(ctx, client, "job", token)
	fmt.Println("released:", released)
	again, _ := safelock.ReleaseKey(ctx, client, "job", token)
	fmt.Println("released again:", again)
	// Output:
	// locked: true
	// renewed: true
	// released: true
	// released again: false
}

func ExampleNewRedlock() {
	var clients []redis.UniversalClient
	for range 3 {
		c, _, stop := newClient()
		defer stop()
		clients = append(clients, c)
	}
	ctx := context.Background()
	locker := safelock.NewRedlock(clients, safelock.WithNodeTimeout(100*time.Millisecond))
	defer func() { _ = locker.Close() }()

	lease, err := locker.TryAcquire(ctx, "migration", 30*time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The fence is the highest counter among the granting majority.
	fmt.Println("fence issued:", lease.Fence() > 0)
	fmt.Println("release:", lease.Release(ctx))
	// Output:
	// fence issued: true
	// release: <nil>
}
