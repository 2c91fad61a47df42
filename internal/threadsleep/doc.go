// Package threadsleep sleeps on the calling goroutine's thread: the
// critical sections of lockbench and of safelock's contention benchmarks,
// and lockbench's stall detector, whose lengths must not depend on what
// else wakes the process.
package threadsleep
