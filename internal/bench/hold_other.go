//go:build !linux

package bench

import "time"

// sleepUntil sleeps until end. (On Linux it blocks the thread instead:
// see hold_linux.go.)
func sleepUntil(end time.Time) { time.Sleep(time.Until(end)) }
