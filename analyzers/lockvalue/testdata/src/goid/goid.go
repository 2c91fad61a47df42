// Package goid makes "unique" ids from the process and the goroutine, as
// utils packages of lock libraries do. It sends no Redis command itself.
package goid

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

func ProcessID() string { // want ProcessID:`weak value: result 0 is the process ID`
	return strconv.Itoa(os.Getpid())
}

func GoroutineID() string { // want GoroutineID:`weak value: result 0 is a goroutine id`
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	return strings.TrimSpace(strings.Split(strings.Split(string(buf), "[running]")[0], "goroutine")[1])
}

func Token() string { // want Token:`weak value: result 0 is the process ID and a goroutine id`
	return fmt.Sprintf("%s_%s", ProcessID(), GoroutineID())
}

// Frames reads the stack for logging: it returns no id.
func Frames() int {
	buf := make([]byte, 1024)
	return runtime.Stack(buf, true)
}
