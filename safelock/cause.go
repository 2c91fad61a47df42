package safelock

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/redis/go-redis/v9"
)

// go-redis dials new connections on a context of its own and, when the
// caller's ctx ends during a retry's backoff or a dial, returns only
// ctx.Err(): "context deadline exceeded", without the "connection refused"
// that made it retry. A dialWatch is a go-redis hook that remembers a
// client's last failed dial, so that safelock can name the cause. It does
// nothing else; one is added per client, however many Lockers share it.
type dialWatch struct {
	last    atomic.Pointer[dialFailure]
	dialled atomic.Int64 // UnixNano of the last successful dial
}

type dialFailure struct {
	err error
	at  time.Time
}

func (w *dialWatch) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := next(ctx, network, addr)
		if err != nil {
			w.last.Store(&dialFailure{err: err, at: time.Now()})
		} else {
			w.dialled.Store(time.Now().UnixNano())
		}
		return conn, err
	}
}

func (w *dialWatch) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

func (w *dialWatch) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// recentDial is how long before a call a failed dial still counts as its
// cause, when no dial has succeeded since: once many dials failed, go-redis
// stops dialling for callers and probes only once a second.
const recentDial = 2 * time.Second

// failedSince returns the last dial error if it happened at or after t, or
// shortly before with no successful dial since; else nil.
func (w *dialWatch) failedSince(t time.Time) error {
	if w == nil {
		return nil
	}
	f := w.last.Load()
	switch {
	case f == nil:
		return nil
	case !f.at.Before(t):
		return f.err
	case f.at.After(t.Add(-recentDial)) && w.dialled.Load() < f.at.UnixNano():
		return f.err
	}
	return nil
}

// watches maps each watched client (weakly, so that clients can be
// collected) to its dialWatch.
var watches sync.Map

// watchDials returns the dialWatch of c, adding it on first use. Plain and
// failover clients (*redis.Client) are watched; on a *redis.ClusterClient,
// node connections made from now on. Other clients are not (nil).
func watchDials(c redis.UniversalClient) *dialWatch {
	switch v := c.(type) {
	case *redis.Client:
		if v == nil {
			return nil
		}
		return watchOnce(weak.Make(v), v, func(w *dialWatch) { v.AddHook(w) })
	case *redis.ClusterClient:
		if v == nil {
			return nil
		}
		return watchOnce(weak.Make(v), v, func(w *dialWatch) {
			v.OnNewNode(func(n *redis.Client) { n.AddHook(w) })
		})
	}
	return nil
}

func watchOnce[T any](key weak.Pointer[T], c *T, add func(*dialWatch)) *dialWatch {
	if w, ok := watches.Load(key); ok {
		return w.(*dialWatch)
	}
	w := &dialWatch{}
	if prev, loaded := watches.LoadOrStore(key, w); loaded {
		return prev.(*dialWatch)
	}
	add(w)
	runtime.AddCleanup(c, func(k weak.Pointer[T]) { watches.Delete(k) }, key)
	return w
}

// wrap reports a failed command. When ctx ended, the error wraps ctx.Err()
// and, when known, the last underlying error: the command's own, or a
// dial that failed since start.
func (l *Locker) wrap(ctx context.Context, op, key string, start time.Time, err error) error {
	cerr := ctx.Err()
	if cerr == nil {
		return fmt.Errorf("safelock: %s %q: %w", op, key, err)
	}
	cause := err
	if cause == nil || errors.Is(cause, cerr) {
		cause = l.dialFailedSince(start)
	}
	if cause == nil {
		return fmt.Errorf("safelock: %s %q: %w", op, key, cerr)
	}
	return fmt.Errorf("safelock: %s %q: %w (last error: %w)", op, key, cerr, cause)
}

func (l *Locker) dialFailedSince(t time.Time) error {
	var errs []error
	for i, n := range l.nodes {
		if err := n.dials.failedSince(t); err != nil {
			if len(l.nodes) > 1 {
				err = fmt.Errorf("node %d: %w", i, err)
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
