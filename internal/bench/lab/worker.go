package lab

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/locklint/locklint/internal/bench"
	"github.com/locklint/locklint/internal/bench/adapters"
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
	DB     string        `json:"db"`
	Fenced bool          `json:"fenced"`
	Start  int64         `json:"start"` // the run's start, Unix ns (one clock: one machine)
	Until  int64         `json:"until"` // stop taking the lock after this, Unix ns
}

// event is one line a worker writes on stdout.
type event struct {
	Ev    string `json:"ev"` // grant, in, out, error
	Gid   int64  `json:"gid,omitempty"`
	Fence int64  `json:"fence,omitempty"`
	T     int64  `json:"t,omitempty"` // since the run's start, ns
	Msg   string `json:"msg,omitempty"`
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
	db, err := openResource(cfg.DB)
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }()
	until := time.Unix(0, cfg.Until)
	for k := int64(1); ctx.Err() == nil && time.Now().Before(until); k++ {
		actx, cancel := context.WithDeadline(ctx, until.Add(cfg.TTL))
		lease, err := l.Acquire(actx, cfg.Key, cfg.TTL)
		cancel()
		if err != nil {
			if ctx.Err() == nil && time.Now().Before(until) {
				emit(event{Ev: "error", Msg: "acquire: " + bench.Cause(err), T: since()})
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
			err = claim(wctx, db, cfg.Holder, gid, lease.Fence(), start)
		}
		if err == nil {
			read, err = readValue(wctx, db)
		}
		if err == nil {
			emit(event{Ev: "in", Gid: gid, T: since()})
			time.Sleep(cfg.Hold)
			_, err = write(wctx, db, cfg.Holder, gid, lease.Fence(), cfg.Fenced, read, start)
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

func findImpl(name string) (bench.Factory, error) {
	for _, f := range append(adapters.All(), adapters.SafelockReplicaAck) {
		if f.Name == name {
			return f, nil
		}
	}
	return bench.Factory{}, fmt.Errorf("unknown implementation %q", name)
}
