package lab

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/locklint/locklint/internal/bench"
	"github.com/locklint/locklint/internal/faultproxy"
	"github.com/redis/go-redis/v9"
)

// replicated is a primary with one replica. Clients reach the primary
// through front, a proxy that a failover points at the promoted replica
// (as a virtual IP or a Sentinel-aware proxy would); the replica
// replicates through link, which a failover stalls first, so that an
// acquire can reach the primary and not the replica before the primary
// dies.
type replicated struct {
	primary, replica *bench.Spawned
	link, front      *faultproxy.Proxy
}

// noSyncDelay makes a full sync start at once (Redis 7 waits 5 s for more
// replicas before a diskless sync); every server may become a primary.
var noSyncDelay = []string{"--repl-diskless-sync-delay", "0"}

func newReplicated(ctx context.Context) (*replicated, error) {
	p, err := bench.Spawn(ctx, noSyncDelay...)
	if err != nil {
		return nil, err
	}
	r := &replicated{primary: p}
	if r.front, err = faultproxy.New(p.Addr); err != nil {
		r.close()
		return nil, err
	}
	if err := r.addReplica(ctx); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// addReplica starts a replica of the primary, replicating through a new
// link proxy, and waits until it is in sync.
func (r *replicated) addReplica(ctx context.Context) error {
	link, err := faultproxy.New(r.primary.Addr)
	if err != nil {
		return err
	}
	host, port, _ := net.SplitHostPort(link.Addr())
	replica, err := bench.Spawn(ctx, append([]string{"--replicaof", host, port}, noSyncDelay...)...)
	if err != nil {
		_ = link.Close()
		return err
	}
	r.link, r.replica = link, replica
	// In sync once the primary counts the replica online (WAIT counts
	// only those): the replica's own master_link_status comes earlier.
	c := redis.NewClient(&redis.Options{Addr: r.primary.Addr})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		info, err := c.Info(ctx, "replication").Result()
		if err == nil && strings.Contains(info, "state=online") {
			if n, err := c.Do(ctx, "WAIT", 1, 100).Int(); err == nil && n == 1 {
				return nil
			}
		}
		if err := bench.Sleep(ctx, 10*time.Millisecond); err != nil {
			return err
		}
	}
	return errors.New("replica not in sync within 10s")
}

// fail stalls replication, waits (up to a second) for grant to report an
// acquire the replica cannot have received, kills the primary, promotes
// the replica, points the clients' proxy at it, and starts a new replica
// of it for the next failover. It returns when clients can reach the new
// primary (the new replica syncs after that).
func (r *replicated) fail(ctx context.Context, granted func() <-chan struct{}) (killed, reachable time.Time, err error) {
	if r.replica == nil {
		return time.Time{}, time.Time{}, errors.New("no replica to fail over to")
	}
	r.link.Stall()
	select {
	case <-granted():
	case <-time.After(time.Second):
	case <-ctx.Done():
	}
	killed = time.Now()
	r.primary.Stop()
	_ = r.link.Close()
	c := redis.NewClient(&redis.Options{Addr: r.replica.Addr})
	err = c.Do(ctx, "REPLICAOF", "NO", "ONE").Err()
	_ = c.Close()
	if err != nil {
		return killed, time.Time{}, fmt.Errorf("promote replica: %w", err)
	}
	r.primary, r.replica, r.link = r.replica, nil, nil
	if _, err := r.front.Retarget(r.primary.Addr); err != nil {
		return killed, time.Time{}, err
	}
	reachable = time.Now()
	return killed, reachable, r.addReplica(ctx)
}

func (r *replicated) close() {
	for _, p := range []*faultproxy.Proxy{r.front, r.link} {
		if p != nil {
			_ = p.Close()
		}
	}
	for _, s := range []*bench.Spawned{r.primary, r.replica} {
		if s != nil {
			s.Stop()
		}
	}
}
