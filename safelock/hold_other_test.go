//go:build !linux

package safelock

import "time"

// holdFor sleeps d (on Linux it blocks the thread: see hold_linux_test.go).
func holdFor(d time.Duration) { time.Sleep(d) }
