package safelock_test

import (
	"testing"

	redigo "github.com/gomodule/redigo/redis"

	"github.com/locklint/locklint/internal/redistest"
	"github.com/locklint/locklint/safelock"
)

// TestScriptsFromRedigo runs the exported Lua sources the way redigo users
// (and locklint's redigo fixes) do: redigo.NewScript(1, safelock.XScript).
func TestScriptsFromRedigo(t *testing.T) {
	srv := redistest.Start(t)
	conn, err := redigo.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	acquire := redigo.NewScript(2, safelock.AcquireScript)
	release := redigo.NewScript(1, safelock.ReleaseScript)
	renew := redigo.NewScript(1, safelock.RenewScript)
	const key, fenceKey = "{job}", "{job}:fence"
	a, b := safelock.NewToken(), safelock.NewToken()

	got, err := redigo.Int64s(acquire.Do(conn, key, fenceKey, a, 5000))
	if err != nil || len(got) < 2 || got[0] != 1 || got[1] <= 0 {
		t.Fatalf("acquire by a = %v, %v; want [1 fence>0]", got, err)
	}
	fenceA := got[1]
	if got, err := redigo.Int64s(acquire.Do(conn, key, fenceKey, b, 5000)); err != nil || got[0] != 0 {
		t.Fatalf("acquire by b while a holds = %v, %v; want [0 pttl]", got, err)
	}
	if n, err := redigo.Int(renew.Do(conn, key, b, 60000)); err != nil || n != 0 {
		t.Fatalf("renew by b = %d, %v; want 0", n, err)
	}
	if n, err := redigo.Int(renew.Do(conn, key, a, 60000)); err != nil || n != 1 {
		t.Fatalf("renew by a = %d, %v; want 1", n, err)
	}
	if pttl, err := redigo.Int64(conn.Do("PTTL", key)); err != nil || pttl <= 5000 {
		t.Fatalf("PTTL after renew = %d, %v; want > 5000", pttl, err)
	}
	if n, err := redigo.Int(release.Do(conn, key, b)); err != nil || n != 0 {
		t.Fatalf("release by b = %d, %v; want 0", n, err)
	}
	if n, err := redigo.Int(release.Do(conn, key, a)); err != nil || n != 1 {
		t.Fatalf("release by a = %d, %v; want 1", n, err)
	}
	got, err = redigo.Int64s(acquire.Do(conn, key, fenceKey, b, 5000))
	if err != nil || got[0] != 1 || got[1] <= fenceA {
		t.Fatalf("acquire by b after release = %v, %v; want [1 fence>%d]", got, err, fenceA)
	}
}
