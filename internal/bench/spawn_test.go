package bench

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/locklint/locklint/internal/redistest"
)

// TestSpawnRefusesAnotherServer: lockbench --spawn (and the safety lab)
// must not take a redis-server that another process started on the port
// it picked for its own: that server goes away with its owner.
func TestSpawnRefusesAnotherServer(t *testing.T) {
	bin := redistest.Binary(t)
	ctx := context.Background()
	other, err := Spawn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Stop()
	_, port, _ := strings.Cut(other.Addr, ":")
	dir := t.TempDir()
	if s, err := start(ctx, bin, atoi(t, port), dir, nil); err == nil {
		s.Stop()
		t.Fatal("start on a port another redis-server serves succeeded")
	} else if !strings.Contains(err.Error(), "another redis-server") {
		t.Fatalf("start: %v, want it to name another redis-server", err)
	}
	s, err := Spawn(ctx)
	if err != nil {
		t.Fatalf("Spawn after: %v", err)
	}
	s.Stop()
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
