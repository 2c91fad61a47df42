//go:build !linux

package threadsleep

import "time"

// Until sleeps until end. (On Linux it blocks the thread instead: see
// until_linux.go.)
func Until(end time.Time) { time.Sleep(time.Until(end)) }
