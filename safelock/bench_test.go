package safelock

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/internal/redistest"
	"github.com/locklint/locklint/internal/threadsleep"
	"github.com/redis/go-redis/v9"
	"golang.org/x/sys/unix"
)

// BenchmarkUncontended: TryAcquire + Release of one key by one client,
// against a plain SET round trip for scale.
func BenchmarkUncontended(b *testing.B) {
	srv := redistest.Start(b)
	c := srv.Client()
	ctx := context.Background()
	b.Run("SET", func(b *testing.B) {
		for b.Loop() {
			if err := c.Set(ctx, "plain", "v", time.Second).Err(); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The least a correct lock can do: SET NX PX and a Lua
	// compare-and-delete, no fence (lockbench's "minimal").
	b.Run("minimal", func(b *testing.B) {
		release := redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)
		serverLoop(b, c, func() {
			token := NewToken()
			if ok, err := c.SetNX(ctx, "minimal", token, time.Second).Result(); err != nil || !ok {
				b.Fatal(ok, err)
			}
			if n, err := release.Run(ctx, c, []string{"minimal"}, token).Int(); err != nil || n != 1 {
				b.Fatal(n, err)
			}
		})
	})
	l := New(c)
	defer func() { _ = l.Close() }()
	// One cycle of each per iteration, in alternating order, so that both
	// see the same machine: the ratio of their p50s is what the fence and
	// the lease cost on top of the minimal lock.
	b.Run("interleaved", func(b *testing.B) {
		release := redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)
		minimal := func() {
			token := NewToken()
			if ok, err := c.SetNX(ctx, "minimal", token, time.Second).Result(); err != nil || !ok {
				b.Fatal(ok, err)
			}
			if n, err := release.Run(ctx, c, []string{"minimal"}, token).Int(); err != nil || n != 1 {
				b.Fatal(n, err)
			}
		}
		safelock := func() {
			lease, err := l.TryAcquire(ctx, "bench", time.Second)
			if err != nil {
				b.Fatal(err)
			}
			if err := lease.Release(ctx); err != nil {
				b.Fatal(err)
			}
		}
		alternate(b, minimal, safelock)
	})
	b.Run("TryAcquire+Release", func(b *testing.B) {
		serverLoop(b, c, func() {
			lease, err := l.TryAcquire(ctx, "bench", time.Second)
			if err != nil {
				b.Fatal(err)
			}
			if err := lease.Release(ctx); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// alternate runs one cycle of minimal and one of safelock per iteration,
// in alternating order after warmUp cycles of each (connections dialled,
// scripts loaded, the heap grown), and reports their p50s and the ratio
// of safelock's to minimal's: both see the same machine.
func alternate(b *testing.B, minimal, safelock func()) {
	for range warmUp {
		minimal()
		safelock()
	}
	var mins, sls []time.Duration
	for i := 0; b.Loop(); i++ {
		for k := range 2 {
			t0 := time.Now()
			if (i+k)%2 == 0 {
				minimal()
				mins = append(mins, time.Since(t0))
			} else {
				safelock()
				sls = append(sls, time.Since(t0))
			}
		}
	}
	m, s := percentile(mins, 0.5), percentile(sls, 0.5)
	b.ReportMetric(float64(m)/1e3, "minimal-p50-µs")
	b.ReportMetric(float64(s)/1e3, "safelock-p50-µs")
	b.ReportMetric(float64(s)/float64(m), "ratio")
}

// warmUp is how many cycles of each lock the uncontended comparisons run
// before they measure: the first run in a process otherwise measures a
// cold one.
const warmUp = 100

// serverLoop runs op b.N times after one warm-up (scripts loaded) and
// reports the commands the server ran per op (INFO commandstats).
func serverLoop(b *testing.B, c *redis.Client, op func()) {
	op()
	if err := c.ConfigResetStat(context.Background()).Err(); err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		op()
		n++
	}
	b.StopTimer()
	b.ReportMetric(float64(total(serverCommands(b, c)))/float64(n), "server-cmds/op")
}

// BenchmarkContended: 16 clients (each its own connection pool and Locker,
// as separate processes would be) take one key in turn and hold it 1ms.
// b.N is the number of grants. Reported: grants/s, wait p99 and maximum,
// Jain's fairness index over the clients' grant counts, starved clients
// (fewer than a tenth of an equal share) and commands per grant.
func BenchmarkContended(b *testing.B) {
	srv := redistest.Start(b)
	b.Run("default", func(b *testing.B) { contend(b, srv, 16, time.Millisecond, false, false) })
	b.Run("WithFairness", func(b *testing.B) { contend(b, srv, 16, time.Millisecond, true, false) })
	// 16 goroutines of one process sharing a client and a Locker (as
	// lockbench runs them): a release tells the next holder itself.
	b.Run("default-one-Locker", func(b *testing.B) { contend(b, srv, 16, time.Millisecond, false, true) })
	b.Run("WithFairness-one-Locker", func(b *testing.B) { contend(b, srv, 16, time.Millisecond, true, true) })
}

func contend(b *testing.B, srv *redistest.Server, clients int, hold time.Duration, fair, shared bool) {
	ctx := context.Background()
	var (
		left    atomic.Int64
		wg      sync.WaitGroup
		grants  = make([]int, clients)
		waits   = make([][]time.Duration, clients)
		wires   []*wire
		lockers = make([]*Locker, clients)
	)
	for i := range lockers {
		if shared && i > 0 {
			lockers[i] = lockers[0]
			continue
		}
		c := redis.NewClient(&redis.Options{Addr: srv.Addr(), PoolSize: clients})
		defer func() { _ = c.Close() }()
		w := &wire{}
		c.AddHook(w)
		wires = append(wires, w)
		var opts []Option
		if fair {
			opts = append(opts, WithFairness())
		}
		lockers[i] = New(c, opts...)
		defer func() { _ = lockers[i].Close() }()
		if err := c.Ping(ctx).Err(); err != nil {
			b.Fatal(err)
		}
	}
	left.Store(int64(b.N))
	b.ResetTimer()
	start := time.Now()
	for i, l := range lockers {
		wg.Go(func() {
			for left.Add(-1) >= 0 {
				t0 := time.Now()
				lease, err := l.Acquire(ctx, "contended", time.Second)
				if err != nil {
					b.Error(err)
					return
				}
				waits[i] = append(waits[i], time.Since(t0))
				grants[i]++
				threadsleep.Until(time.Now().Add(hold)) // as lockbench holds: see threadsleep
				if err := lease.Release(ctx); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()

	var all []time.Duration
	for _, w := range waits {
		all = append(all, w...)
	}
	cmds := 0
	for _, w := range wires {
		_, c := w.take()
		cmds += len(c)
	}
	total := len(all)
	if total == 0 {
		return
	}
	b.ReportMetric(float64(total)/elapsed.Seconds(), "grants/s")
	b.ReportMetric(ms(percentile(all, 0.99)), "wait-p99-ms")
	b.ReportMetric(ms(slices.Max(all)), "wait-max-ms")
	b.ReportMetric(jain(grants), "jain")
	b.ReportMetric(float64(starved(grants)), "starved")
	b.ReportMetric(float64(cmds)/float64(total), "cmds/grant")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// percentile returns the p-quantile (0 < p <= 1) of ds, nearest rank.
func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(p*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

// jain is Jain's fairness index (sum x)^2 / (n * sum x^2): 1 when all
// clients got the same, 1/n when one got everything.
func jain(xs []int) float64 {
	var sum, sq float64
	for _, x := range xs {
		sum += float64(x)
		sq += float64(x) * float64(x)
	}
	if sq == 0 {
		return 0
	}
	return sum * sum / (float64(len(xs)) * sq)
}

// starved counts clients that got less than a tenth of an equal share.
func starved(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	n := 0
	for _, x := range xs {
		if float64(x) < float64(total)/float64(len(xs))/10 {
			n++
		}
	}
	return n
}

func TestStats(t *testing.T) {
	if j := jain([]int{5, 5, 5, 5}); j != 1 {
		t.Errorf("jain equal = %v", j)
	}
	if j := jain([]int{8, 0, 0, 0}); j != 0.25 {
		t.Errorf("jain one-takes-all = %v", j)
	}
	if n := starved([]int{100, 100, 5, 0}); n != 2 {
		t.Errorf("starved = %d", n)
	}
	ds := make([]time.Duration, 100)
	for i := range ds {
		ds[i] = time.Duration(100-i) * time.Millisecond
	}
	if p := percentile(ds, 0.99); p != 99*time.Millisecond {
		t.Errorf("p99 = %v", p)
	}
	if p := percentile(ds, 0.5); p != 50*time.Millisecond {
		t.Errorf("p50 = %v", p)
	}
}

// BenchmarkHandoff: what one grant costs on the critical path when the
// lock changes hands. "handoff": a holder releases while a waiter in
// another Locker (another process, as it were) is queued; from the start
// of Release to the waiter's Acquire returning. "reacquire": what an
// unfair lock does in a closed loop, the holder's Release followed by its
// own TryAcquire. The closed-loop grants/s of BenchmarkContended is about
// 1 / (hold + the first).
func BenchmarkHandoff(b *testing.B) {
	srv := redistest.Start(b)
	ctx := context.Background()
	locker := func(opts ...Option) *Locker {
		c := redis.NewClient(&redis.Options{Addr: srv.Addr()})
		b.Cleanup(func() { _ = c.Close() })
		l := New(c, opts...)
		b.Cleanup(func() { _ = l.Close() })
		return l
	}
	for _, fair := range []bool{false, true} {
		name := "default"
		var opts []Option
		if fair {
			name, opts = "WithFairness", []Option{WithFairness()}
		}
		b.Run(name, func(b *testing.B) {
			holder, waiter := locker(opts...), locker(opts...)
			ks, _ := lockKeys("handoff-" + name)
			var handoffs, reacquires []time.Duration
			for b.Loop() {
				lease, err := holder.TryAcquire(ctx, ks.lock, 5*time.Second)
				if err != nil {
					b.Fatal(err)
				}
				granted := make(chan time.Time, 1)
				done := make(chan error, 1)
				go func() {
					l, err := waiter.Acquire(ctx, ks.lock, 5*time.Second)
					granted <- time.Now()
					if err == nil {
						err = l.Release(ctx)
					}
					done <- err
				}()
				waitQueued(b, holder.nodes[0].c.(*redis.Client), ks.queue, 1)
				time.Sleep(time.Millisecond) // the waiter is asleep
				t0 := time.Now()
				if err := lease.Release(ctx); err != nil {
					b.Fatal(err)
				}
				handoffs = append(handoffs, (<-granted).Sub(t0))
				if err := <-done; err != nil {
					b.Fatal(err)
				}
				// The unfair way, for comparison.
				lease, err = holder.TryAcquire(ctx, ks.lock, 5*time.Second)
				if err != nil {
					b.Fatal(err)
				}
				t0 = time.Now()
				if err := lease.Release(ctx); err != nil {
					b.Fatal(err)
				}
				again, err := holder.TryAcquire(ctx, ks.lock, 5*time.Second)
				if err != nil {
					b.Fatal(err)
				}
				reacquires = append(reacquires, time.Since(t0))
				if err := again.Release(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(percentile(handoffs, 0.5))/1e3, "handoff-p50-µs")
			b.ReportMetric(float64(percentile(reacquires, 0.5))/1e3, "reacquire-p50-µs")
		})
	}
}

// BenchmarkUncontendedParts splits what an uncontended safelock cycle costs
// on top of the minimal lock into its parts, each run through go-redis in
// turn (round robin, so all see the same machine): "fence" adds the
// fence's INCR to the minimal lock's SET NX in one pipeline; "release"
// replaces its compare-and-delete with safelock's release script (five
// keys, the waiter mark); "wire" does both, which is what safelock sends,
// without the Locker and the Lease; "safelock" is TryAcquire + Release.
// Reported per part: its p50 over the minimal lock's, and the CPU time
// the benchmark's own OS thread spent per cycle (the goroutine is locked
// to it; system calls included), which is steadier than wall time on a
// shared machine.
func BenchmarkUncontendedParts(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	srv := redistest.Start(b)
	c := srv.Client()
	ctx := context.Background()
	minimalRelease := redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)
	ks, err := lockKeys("parts")
	if err != nil {
		b.Fatal(err)
	}
	check := func(ok bool, err error) {
		if err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
	acquire := func(fence bool) string {
		token := NewToken()
		if !fence {
			ok, err := c.SetNX(ctx, ks.lock, token, time.Second).Result()
			check(ok, err)
			return token
		}
		p := c.Pipeline()
		set := p.SetNX(ctx, ks.lock, token, time.Second)
		incr := p.Incr(ctx, ks.fence)
		_, err := p.Exec(ctx)
		check(set.Val() && incr.Val() > 0, err)
		return token
	}
	release := func(token string, queue bool) {
		var n int
		var err error
		if queue {
			n, err = queueRelease.Run(ctx, c, []string{ks.lock, ks.fence, ks.queue, ks.places, ks.waiting}, token, 0).Int()
		} else {
			n, err = minimalRelease.Run(ctx, c, []string{ks.lock}, token).Int()
		}
		check(n == 1, err)
	}
	l := New(c)
	defer func() { _ = l.Close() }()
	parts := []struct {
		name string
		run  func()
	}{
		{"minimal", func() { release(acquire(false), false) }},
		{"fence", func() { release(acquire(true), false) }},
		{"release", func() { release(acquire(false), true) }},
		{"wire", func() { release(acquire(true), true) }},
		{"safelock", func() {
			lease, err := l.TryAcquire(ctx, "parts", time.Second)
			check(err == nil, err)
			check(true, lease.Release(ctx))
		}},
	}
	lat := make([][]time.Duration, len(parts))
	cpu := make([]time.Duration, len(parts))
	for range warmUp {
		for _, p := range parts {
			p.run()
		}
	}
	n := 0
	for i := 0; b.Loop(); i++ {
		n++
		for k := range parts {
			j := (i + k) % len(parts)
			c0, t0 := threadCPU(b), time.Now()
			parts[j].run()
			lat[j] = append(lat[j], time.Since(t0))
			cpu[j] += threadCPU(b) - c0
		}
	}
	m := percentile(lat[0], 0.5)
	for j, p := range parts {
		b.ReportMetric(float64(percentile(lat[j], 0.5))/float64(m), p.name+"/minimal")
		b.ReportMetric(float64(cpu[j])/1e3/float64(n), p.name+"-cpu-µs")
	}
}

// threadCPU is the CPU time of the calling OS thread.
func threadCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ts.Nano())
}
