package safelock

import (
	"syscall"
	"time"
)

// holdFor stands for a critical section of d in the contention
// benchmarks: nanosleep on the goroutine's thread, as lockbench's holds
// do. A time.Sleep ends on the runtime's netpoller, whose wait has
// millisecond resolution, so a 1 ms hold lasted about 1.3 ms, by how
// much depending on what else woke the process.
func holdFor(d time.Duration) {
	end := time.Now().Add(d)
	for {
		left := time.Until(end)
		if left <= 0 {
			return
		}
		ts := syscall.NsecToTimespec(int64(left))
		if err := syscall.Nanosleep(&ts, nil); err != nil && err != syscall.EINTR {
			time.Sleep(time.Until(end))
			return
		}
	}
}
