package threadsleep

import (
	"testing"
	"time"
)

// TestUntil: the hold's sleep never ends before its end (a
// critical section must last at least --hold), and one whose end has
// passed returns at once.
func TestUntil(t *testing.T) {
	for _, d := range []time.Duration{0, 50 * time.Microsecond, time.Millisecond, 3 * time.Millisecond} {
		end := time.Now().Add(d)
		Until(end)
		if now := time.Now(); now.Before(end) {
			t.Errorf("Until(now+%v) returned %v early", d, end.Sub(now))
		}
	}
	start := time.Now()
	Until(start.Add(-time.Second))
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("Until a second ago took %v", d)
	}
}
