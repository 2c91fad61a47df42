package threadsleep

import (
	"syscall"
	"time"
)

// Until blocks the calling goroutine's thread in nanosleep until
// end. A critical section stands in for work, and its length should not
// depend on what else the process does: time.Sleep does. The Go runtime
// waits for timers in epoll_wait, whose timeout is in whole milliseconds,
// so a time.Sleep of 1ms ends up to a millisecond late, counted from the
// last event that woke the process before it was due: how late depends
// on how often the lock under test wakes its process (waiters that poll,
// or that sleep until a release), and holds differed between locks in
// one run. nanosleep on the
// thread ends within the kernel's timer slack (50µs by default) whatever
// the process does, and costs no CPU; the runtime runs other goroutines
// on other threads meanwhile.
func Until(end time.Time) {
	for {
		d := time.Until(end)
		if d <= 0 {
			return
		}
		ts := syscall.NsecToTimespec(int64(d))
		if err := syscall.Nanosleep(&ts, nil); err != nil && err != syscall.EINTR {
			time.Sleep(time.Until(end))
			return
		}
	}
}
