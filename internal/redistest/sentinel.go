package redistest

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// MasterName is the name under which the sentinels of StartFailover
// monitor the primary (redis.FailoverOptions.MasterName).
const MasterName = "mymaster"

// failoverTimeout bounds a wait for the sentinels to agree on a primary,
// which after a crash takes down-after-milliseconds, a leader election
// and a promotion: a few seconds, far more on a busy machine.
const failoverTimeout = 30 * time.Second

// Failover is a primary with one replica, watched by Redis Sentinel.
// Sentinels fail over to the replica about a second after the primary
// stops answering (down-after-milliseconds 1000, failover-timeout 3000).
type Failover struct {
	Primary   *Server
	Replica   *Server
	Sentinels []*Server
}

// StartFailover starts a primary and a replica (as StartReplicated) and n
// redis-server processes in sentinel mode monitoring the primary as
// MasterName, with a quorum of a majority of them. It returns when every
// sentinel names the primary, lists the replica as healthy and knows
// every other sentinel, so that a failover can start at once.
func StartFailover(t testing.TB, n int) *Failover {
	t.Helper()
	if n < 1 {
		t.Fatalf("redistest: StartFailover needs at least one sentinel, got %d", n)
	}
	primary, replica := StartReplicated(t)
	conf := fmt.Sprintf("sentinel monitor %s 127.0.0.1 %d %d\n"+
		"sentinel down-after-milliseconds %[1]s 1000\n"+
		"sentinel failover-timeout %[1]s 3000\n",
		MasterName, primary.Port, n/2+1)
	f := &Failover{Primary: primary, Replica: replica}
	for range n {
		f.Sentinels = append(f.Sentinels, startServer(t, conf, []string{"--sentinel"}))
	}
	f.wait(t, "sentinels to watch "+primary.Addr(), startTimeout, primary, replica)
	return f
}

// SentinelAddrs returns the sentinels' addresses, for
// redis.FailoverOptions.SentinelAddrs.
func (f *Failover) SentinelAddrs() []string {
	addrs := make([]string, len(f.Sentinels))
	for i, s := range f.Sentinels {
		addrs[i] = s.Addr()
	}
	return addrs
}

// WaitPrimary waits until s answers as a primary and every sentinel names
// it as MasterName's primary, as after a failover to s.
func (f *Failover) WaitPrimary(t testing.TB, s *Server) {
	t.Helper()
	f.wait(t, "failover to "+s.Addr(), failoverTimeout, s, nil)
}

// wait waits until primary reports role master and every sentinel names
// primary, knows the other sentinels and, unless replica is nil, lists
// replica without a down or disconnected flag.
func (f *Failover) wait(t testing.TB, what string, timeout time.Duration, primary, replica *Server) {
	t.Helper()
	pc := redis.NewClient(&redis.Options{Addr: primary.Addr()})
	defer func() { _ = pc.Close() }()
	clients := make([]*redis.SentinelClient, len(f.Sentinels))
	for i, s := range f.Sentinels {
		clients[i] = redis.NewSentinelClient(&redis.Options{Addr: s.Addr()})
	}
	defer func() {
		for _, c := range clients {
			_ = c.Close()
		}
	}()
	waitUntil(t, what, timeout, func(ctx context.Context) error {
		role, err := pc.Do(ctx, "ROLE").Slice()
		if err != nil {
			return fmt.Errorf("ROLE on %s: %w", primary.Addr(), err)
		}
		if len(role) == 0 || role[0] != "master" {
			return fmt.Errorf("ROLE on %s: %v", primary.Addr(), role)
		}
		for i, c := range clients {
			if err := sentinelSees(ctx, c, len(clients)-1, primary, replica); err != nil {
				return fmt.Errorf("sentinel %s: %w", f.Sentinels[i].Addr(), err)
			}
		}
		return nil
	})
}

func sentinelSees(ctx context.Context, c *redis.SentinelClient, others int, primary, replica *Server) error {
	addr, err := c.GetMasterAddrByName(ctx, MasterName).Result()
	if err != nil {
		return err
	}
	if len(addr) != 2 || net.JoinHostPort(addr[0], addr[1]) != primary.Addr() {
		return fmt.Errorf("primary is %v, want %s", addr, primary.Addr())
	}
	peers, err := c.Sentinels(ctx, MasterName).Result()
	if err != nil {
		return err
	}
	if len(peers) != others {
		return fmt.Errorf("knows %d other sentinels, want %d", len(peers), others)
	}
	if replica == nil {
		return nil
	}
	replicas, err := c.Replicas(ctx, MasterName).Result()
	if err != nil {
		return err
	}
	for _, r := range replicas {
		if net.JoinHostPort(r["ip"], r["port"]) == replica.Addr() {
			if flags := r["flags"]; flags != "slave" {
				return fmt.Errorf("replica %s has flags %q", replica.Addr(), flags)
			}
			if link := r["master-link-status"]; link != "ok" {
				return fmt.Errorf("replica %s has master link %q", replica.Addr(), link)
			}
			return nil
		}
	}
	names := make([]string, len(replicas))
	for i, r := range replicas {
		names[i] = net.JoinHostPort(r["ip"], r["port"])
	}
	return fmt.Errorf("replicas are [%s], want %s", strings.Join(names, " "), replica.Addr())
}
