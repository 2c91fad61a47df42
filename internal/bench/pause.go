package bench

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/locklint/locklint/internal/threadsleep"
)

// pauseDetector measures how late a 1 ms sleep wakes up: the stalls (GC,
// a busy process, a busy machine) a lock holder on this host would also
// suffer. The TTL advice takes the longest one as the pause to allow for.
//
// It sleeps in nanosleep on a thread of its own (threadsleep.Until), not
// on a Go timer, for two reasons. A Go timer is served by the runtime's netpoller,
// whose wait has millisecond resolution: a 1 ms timer is about 0.3 ms
// late on a quiet host, which is the runtime's rounding, not a stall.
// And a timer firing every millisecond keeps the scheduler of the process
// under test busy: it slowed locks whose handoff wakes another goroutine
// (a pub/sub reader, then the waiter) by tens of microseconds per
// handoff, so the detector changed what it sat beside. A stall still
// shows: a GC stop, or every P busy, holds the detector's goroutine when
// it returns from the sleep, and the host's own stalls hold the thread.
type pauseDetector struct {
	h    *Hist
	quit atomic.Bool
	done chan struct{}
}

const pauseTick = time.Millisecond

func startPauseDetector() *pauseDetector {
	p := &pauseDetector{h: NewHist(), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		runtime.LockOSThread() // the thread sleeps: keep other goroutines off it
		defer runtime.UnlockOSThread()
		for !p.quit.Load() {
			start := time.Now()
			threadsleep.Until(start.Add(pauseTick))
			p.h.Record(time.Since(start) - pauseTick)
		}
	}()
	return p
}

// stop ends the detector (within one tick) and returns what it measured.
func (p *pauseDetector) stop() *Hist {
	p.quit.Store(true)
	<-p.done
	return p.h
}
