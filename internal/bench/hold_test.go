package bench

import (
	"testing"
	"time"
)

// TestSleepUntil: the hold's sleep never ends before its end (a
// critical section must last at least --hold), and one whose end has
// passed returns at once.
func TestSleepUntil(t *testing.T) {
	for _, d := range []time.Duration{0, 50 * time.Microsecond, time.Millisecond, 3 * time.Millisecond} {
		end := time.Now().Add(d)
		sleepUntil(end)
		if now := time.Now(); now.Before(end) {
			t.Errorf("sleepUntil(now+%v) returned %v early", d, end.Sub(now))
		}
	}
	start := time.Now()
	sleepUntil(start.Add(-time.Second))
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("sleepUntil a second ago took %v", d)
	}
}
