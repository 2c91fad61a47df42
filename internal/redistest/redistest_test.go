package redistest

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

func TestTopologies(t *testing.T) {
	ctx := context.Background()
	t.Run("single", func(t *testing.T) {
		s := Start(t)
		c := s.Client()
		if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
		s.Kill()
		if err := c.Get(ctx, "k").Err(); err == nil {
			t.Fatal("GET on a killed server succeeded")
		}
		s.Restart()
		if err := c.Ping(ctx).Err(); err != nil {
			t.Fatalf("after restart: %v", err)
		}
	})
	t.Run("independent", func(t *testing.T) {
		ss := StartN(t, 3)
		seen := map[int]bool{}
		for _, s := range ss {
			if seen[s.Port] {
				t.Fatalf("port %d used twice", s.Port)
			}
			seen[s.Port] = true
			if err := s.Client().Ping(ctx).Err(); err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Run("replicated", func(t *testing.T) {
		p, r := StartReplicated(t)
		if err := p.Client().Set(ctx, "k", "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
		n, err := p.Client().Do(ctx, "WAIT", 1, 2000).Int()
		if err != nil || n != 1 {
			t.Fatalf("WAIT = %d, %v; want 1 replica", n, err)
		}
		if v, _ := r.Client().Get(ctx, "k").Result(); v != "v" {
			t.Fatalf("replica has %q", v)
		}
	})
	t.Run("cluster", func(t *testing.T) {
		nodes := StartCluster(t)
		c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: ClusterAddrs(nodes)})
		defer c.Close()
		for _, k := range []string{"a", "b", "c", "d", "e"} {
			if err := c.Set(ctx, k, "v", 0).Err(); err != nil {
				t.Fatalf("SET %s: %v", k, err)
			}
		}
		if err := c.Do(ctx, "MSET", "x", 1, "y", 2).Err(); err == nil {
			t.Fatal("cross-slot MSET succeeded; expected CROSSSLOT")
		}
	})
}

// TestPortTakenByAnotherServer: a server started on a port that another
// redis-server took in the meantime (a test of another package) must not
// count as started: a PING would be answered by the other server, which
// goes away with its owner.
func TestPortTakenByAnotherServer(t *testing.T) {
	other := Start(t)
	s := &Server{t: t, bin: Binary(t), dir: t.TempDir(), Port: other.Port}
	err := s.start()
	if err == nil {
		s.Stop()
		t.Fatal("start on a port another redis-server serves succeeded")
	}
	t.Logf("refused: %v", err)
	if err := other.Client().Ping(context.Background()).Err(); err != nil {
		t.Fatalf("the other server: %v", err)
	}
}
