package safelock

import (
	"testing"
	"time"
)

func TestExpiring(t *testing.T) {
	e := newExpiring[int](time.Second)
	t0 := time.Unix(1000, 0)
	e.put(t0, "a", 1)
	e.put(t0.Add(500*time.Millisecond), "b", 2)
	e.put(t0.Add(600*time.Millisecond), "a", 3) // put again: lives on
	e.expire(t0.Add(1100 * time.Millisecond))
	if v, ok := e.take("a"); !ok || v != 3 {
		t.Fatalf("a = %v %v, want 3 (put again before the first expired)", v, ok)
	}
	if e.len() != 1 {
		t.Fatalf("%d entries, want b only", e.len())
	}
	e.expire(t0.Add(1501 * time.Millisecond))
	if _, ok := e.take("b"); ok || e.len() != 0 {
		t.Fatal("b outlived its ttl")
	}
	if _, ok := e.take("b"); ok {
		t.Fatal("take of a missing key found it")
	}
	// Many puts: what expired is dropped as new entries come, and the
	// order queue does not keep what expired.
	for i := 0; i < 10000; i++ {
		e.put(t0.Add(time.Duration(i)*time.Millisecond), string(rune('a'+i%26))+string(rune(i)), i)
	}
	if e.len() > 1001 || len(e.order) > 1001 {
		t.Fatalf("%d entries, %d in order; want at most the last second's 1001", e.len(), len(e.order))
	}
}

// BenchmarkExpiringPut: a waiter leaving a notifier that remembers
// thousands of departed waiters costs a map write, not a walk over all
// of them (as it did before expiring).
func BenchmarkExpiringPut(b *testing.B) {
	e := newExpiring[goneWaiter](time.Hour)
	now := time.Now()
	for i := 0; i < 5000; i++ {
		e.put(now, NewToken(), goneWaiter{})
	}
	toks := make([]string, 1024)
	for i := range toks {
		toks[i] = NewToken()
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.put(now, toks[i%len(toks)], goneWaiter{})
	}
}
