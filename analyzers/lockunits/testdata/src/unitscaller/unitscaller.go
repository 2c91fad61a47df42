// Package unitscaller sends no Redis command itself: it only calls a
// helper of another package that passes its TTL on to EX.
package unitscaller

import (
	"time"

	"github.com/gomodule/redigo/redis"

	"unitslib"
)

func lockReport(conn redis.Conn, secret string) bool {
	return unitslib.WriteLock(conn, "report", secret, time.Minute.Milliseconds()) // want `EX \(ARGV\[2\] in the script\) at unitslib.go:\d+, through WriteLock takes seconds, but time.Minute.Milliseconds\(\) is in milliseconds`
}

func lockReportSeconds(conn redis.Conn, secret string) bool {
	return unitslib.WriteLock(conn, "report", secret, int64(time.Minute/time.Second))
}
