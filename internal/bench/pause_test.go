package bench

import (
	"runtime"
	"testing"
	"time"
)

// A goroutine that keeps the only P busy stalls everything else in the
// process until the runtime preempts it (about every 10 ms): the detector
// must see that, although its sleep is a syscall that the busy P does
// not delay.
func TestPauseDetectorSeesBusyProcess(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	p := startPauseDetector()
	end := time.Now().Add(300 * time.Millisecond)
	spin := make(chan struct{})
	go func() {
		defer close(spin)
		for time.Now().Before(end) {
		}
	}()
	<-spin
	h := p.stop()
	op := h.Op()
	if op.Count < 10 {
		t.Fatalf("%d samples in 300ms of 1ms sleeps", op.Count)
	}
	if max := time.Duration(op.Max); max < 2*time.Millisecond {
		t.Errorf("longest stall %v while one goroutine held the only P for 300ms; want at least 2ms", max)
	}
}

// stop returns promptly and leaves no goroutine behind (the package's
// TestMain checks for leaks, where it has one).
func TestPauseDetectorStops(t *testing.T) {
	p := startPauseDetector()
	time.Sleep(20 * time.Millisecond)
	h := p.stop()
	if h.Op().Count == 0 {
		t.Fatal("no sample in 20ms of 1ms sleeps")
	}
}
