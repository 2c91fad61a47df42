package lab

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/locklint/locklint/internal/bench"
	"github.com/locklint/locklint/internal/bench/adapters"
	"github.com/locklint/locklint/safelock"
)

// workerEnv carries a worker's configuration (JSON) to the re-executed
// process; its presence makes the process a worker.
const workerEnv = "LOCKBENCH_LAB_WORKER"

// workerConfig is what one holder process needs.
type workerConfig struct {
	Redis  string        `json:"redis"` // redis:// URL
	Impl   string        `json:"impl"`
	Key    string        `json:"key"`
	TTL    time.Duration `json:"ttl"`
	Hold   time.Duration `json:"hold"`
	Holder int           `json:"holder"`
	Gen    int           `json:"gen"` // replacement count of this holder slot, so grant ids stay unique
	DB     string        `json:"db"`  // the SQLite file, for the sql resource
	// Resource is "sql" or "redis"; ResourceAddr and ResourceKey locate
	// the redis one.
	Resource     string `json:"resource"`
	ResourceAddr string `json:"resource_addr,omitempty"`
	ResourceKey  string `json:"resource_key,omitempty"`
	Fenced       bool   `json:"fenced"`
	Start        int64  `json:"start"` // the run's start, Unix ns (one clock: one machine)
	Until        int64  `json:"until"` // stop taking the lock after this, Unix ns
}

// event is one line a worker writes on stdout.
type event struct {
	Ev    string `json:"ev"` // grant, in, out, error; write (redis resource)
	Gid   int64  `json:"gid,omitempty"`
	Fence int64  `json:"fence,omitempty"`
	T     int64  `json:"t,omitempty"` // since the run's start, ns
	Msg   string `json:"msg,omitempty"`
	// A write to the redis resource, reported by its holder: the
	// sequence number the resource gave it, and its outcome.
	Seq   int64 `json:"seq,omitempty"`
	Read  int64 `json:"read,omitempty"`
	Wrote int64 `json:"wrote,omitempty"`
	OK    bool  `json:"ok,omitempty"`
	Claim bool  `json:"claim,omitempty"`
}

// MaybeWorker runs this process as a lab holder and exits, when the
// coordinator started it so; otherwise it returns at once. lockbench's
// main (and the lab's tests) call it first.
func MaybeWorker() {
	raw, ok := os.LookupEnv(workerEnv)
	if !ok {
		return
	}
	var cfg workerConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		fmt.Fprintf(os.Stderr, "lab worker: bad configuration: %v\n", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	err := runWorker(ctx, cfg, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "lab worker %d: %v\n", cfg.Holder, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// runWorker loops acquire -> read -> hold -> write read+1 -> release until
// cfg.Until, announcing each step on out so that the coordinator can stop
// or kill it inside its critical section.
func runWorker(ctx context.Context, cfg workerConfig, out io.Writer) error {
	w := bufio.NewWriter(out)
	emit := func(e event) {
		b, _ := json.Marshal(e)
		_, _ = w.Write(append(b, '\n'))
		_ = w.Flush()
	}
	start := time.Unix(0, cfg.Start)
	since := func() int64 { return time.Since(start).Nanoseconds() }
	factory, err := findImpl(cfg.Impl)
	if err != nil {
		return err
	}
	tg, err := bench.Open(ctx, bench.Spec{Redis: []string{cfg.Redis}, PoolSize: 4})
	if err != nil {
		return err
	}
	defer tg.Close()
	l, err := factory.New(tg)
	if err != nil {
		return err
	}
	defer func() { _ = l.Close() }()
	res, err := openStore(cfg, start)
	if err != nil {
		return err
	}
	defer func() { _ = res.close() }()
	report := func(gid int64, claim bool, read, wrote int64, ok bool, seq int64) {
		if seq != 0 {
			emit(event{Ev: "write", Gid: gid, Seq: seq, Read: read, Wrote: wrote, OK: ok, Claim: claim, T: since()})
		}
	}
	until := time.Unix(0, cfg.Until)
	for k := int64(1); ctx.Err() == nil && time.Now().Before(until); k++ {
		actx, cancel := context.WithDeadline(ctx, until.Add(cfg.TTL))
		lease, err := l.Acquire(actx, cfg.Key, cfg.TTL)
		cancel()
		if err != nil {
			if ctx.Err() == nil && time.Now().Before(until) {
				msg := "acquire: " + bench.Cause(err)
				if errors.Is(err, safelock.ErrReplicaAck) {
					msg = "acquire: too few replicas acknowledged"
				}
				emit(event{Ev: "error", Msg: msg, T: since()})
				_ = bench.Sleep(ctx, cfg.TTL/10)
			}
			continue
		}
		gid := int64(cfg.Holder)<<40 | int64(cfg.Gen)<<32 | k
		emit(event{Ev: "grant", Gid: gid, Fence: lease.Fence(), T: since()})
		// The write lands even after a stop: a holder that was paused
		// does not know time has passed.
		wctx := context.WithoutCancel(ctx)
		var read int64
		if cfg.Fenced {
			var ok bool
			var seq int64
			ok, seq, err = res.claim(wctx, gid, lease.Fence())
			report(gid, true, 0, 0, ok, seq)
		}
		if err == nil {
			read, err = res.read(wctx)
		}
		if err == nil {
			emit(event{Ev: "in", Gid: gid, T: since()})
			time.Sleep(cfg.Hold)
			var ok bool
			var seq int64
			ok, seq, err = res.write(wctx, gid, lease.Fence(), cfg.Fenced, read)
			report(gid, false, read, read+1, ok, seq)
		}
		if err != nil {
			emit(event{Ev: "error", Msg: "resource: " + err.Error(), T: since()})
		}
		emit(event{Ev: "out", Gid: gid, T: since()})
		rctx, rcancel := context.WithTimeout(wctx, cfg.TTL)
		_ = lease.Release(rctx)
		rcancel()
	}
	return nil
}

// store is the resource as a holder uses it. write stores read+1. The
// sequence numbers are 0 where the resource records the attempts itself
// (the sql one).
type store interface {
	claim(ctx context.Context, gid, fence int64) (bool, int64, error)
	read(ctx context.Context) (int64, error)
	write(ctx context.Context, gid, fence int64, fenced bool, read int64) (bool, int64, error)
	close() error
}

func openStore(cfg workerConfig, start time.Time) (store, error) {
	if cfg.Resource == resourceRedis {
		return newRedisResource(cfg.ResourceAddr, cfg.ResourceKey)
	}
	db, err := openResource(cfg.DB)
	if err != nil {
		return nil, err
	}
	return &sqlStore{db: db, holder: cfg.Holder, start: start}, nil
}

func findImpl(name string) (bench.Factory, error) {
	for _, f := range append(adapters.All(), adapters.SafelockReplicaAck) {
		if f.Name == name {
			return f, nil
		}
	}
	return bench.Factory{}, fmt.Errorf("unknown implementation %q", name)
}
