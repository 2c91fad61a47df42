package lockunits

import (
	"fmt"
	"strings"
	"time"

	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// What each client puts on the wire for a TTL, read from their sources:
//
//   - go-redis v8 and v9 SET/SetNX/SetArgs send PX when the duration is
//     under a second or not whole seconds, and any positive duration under
//     1 ms becomes PX 1; EXPIRE and SETEX send whole seconds and anything
//     under 1 s becomes 1; PEXPIRE sends milliseconds, at least 1.
//     v6 and v7 do the same without the rounding up: a duration under
//     1 ms (under 1 s for EXPIRE/SETEX) is sent as 0.
//   - go-redis Do writes a time.Duration argument as its nanosecond count
//     in v9 and v8.11.5; v6, v7 and v8 before v8.11.5 fail with
//     "redis: can't marshal time.Duration".
//   - redigo writes a time.Duration with fmt.Fprint, that is its String
//     form ("30s"), which Redis rejects as not an integer.
//   - rueidis Ex(d) and Px(d) truncate to whole seconds and milliseconds.

// goRedisMajor returns 3 to 9 for a go-redis import path (3 to 5: the
// gopkg.in/redis.vN paths; v5 converts durations as v6 does).
func goRedisMajor(path string) int {
	switch path {
	case "github.com/go-redis/redis", "gopkg.in/redis.v6":
		return 6
	case "gopkg.in/redis.v5":
		return 5
	case "gopkg.in/redis.v4":
		return 4
	case "gopkg.in/redis.v3":
		return 3
	case "github.com/go-redis/redis/v7":
		return 7
	case "github.com/go-redis/redis/v8":
		return 8
	}
	return 9
}

// durationOnWire says what a client does with a time.Duration passed as a
// raw EX/PX/EXPIRE argument of d nanoseconds (d < 0 when unknown), where
// the command expects an integer in units of want nanoseconds.
func durationOnWire(cmd *redismodel.Command, opt string, d int64, want int64) string {
	switch cmd.Client {
	case redismodel.Redigo:
		s := "its String form"
		if d >= 0 {
			s = fmt.Sprintf("%q", time.Duration(d).String())
		}
		return fmt.Sprintf("redigo writes a time.Duration as %s, which Redis rejects as not an integer: the command fails every time", s)
	case redismodel.GoRedis:
		switch goRedisMajor(cmd.Package) {
		case 5, 6, 7:
			return fmt.Sprintf("go-redis v%d cannot encode a time.Duration argument (\"redis: can't marshal time.Duration\"): the command fails every time", goRedisMajor(cmd.Package))
		case 8:
			return "go-redis v8 before v8.11.5 cannot encode a time.Duration argument (the command fails), and v8.11.5 sends its nanosecond count: " + scaled(opt, d, 1, want)
		}
		if redismodel.IsGoRedisCompat(cmd.Package) {
			return "rueidiscompat sends a time.Duration as its nanosecond count: " + scaled(opt, d, 1, want)
		}
		return "go-redis v9 sends a time.Duration as its nanosecond count: " + scaled(opt, d, 1, want)
	case redismodel.Radix:
		return "radix's FlatCmd sends a time.Duration as its nanosecond count: " + scaled(opt, d, 1, want)
	}
	return scaled(opt, d, 1, want)
}

// scaled describes a value counted in units of per nanoseconds read as
// units of want nanoseconds. d is the intended span in nanoseconds, or -1.
func scaled(opt string, d, per, want int64) string {
	if f := strings.Fields(opt); len(f) > 0 {
		opt = f[0] // "PX (ARGV[2] in the script)" → "PX"
	}
	if d > 0 && d%per == 0 {
		sent := d / per
		meant := time.Duration(d)
		got := span(sent, want)
		return fmt.Sprintf("%s %d means %s, not %s", opt, sent, got, meant)
	}
	if per < want {
		return fmt.Sprintf("the TTL is %s times longer than meant", ratio(want/per))
	}
	return fmt.Sprintf("the TTL is %s times shorter than meant", ratio(per/want))
}

// span renders n units of unit nanoseconds for people.
func span(n, unit int64) string {
	secs := float64(n) * float64(unit) / 1e9
	switch {
	case secs >= 2*365*24*3600:
		return fmt.Sprintf("about %.0f years", secs/(365*24*3600))
	case secs >= 2*24*3600:
		return fmt.Sprintf("about %.0f days", secs/(24*3600))
	case secs >= 2*3600:
		return fmt.Sprintf("about %.0f hours", secs/3600)
	}
	if n <= (1<<62)/unit {
		return time.Duration(n * unit).String()
	}
	return fmt.Sprintf("%d units of %s", n, time.Duration(unit))
}

func ratio(r int64) string {
	switch r {
	case 1e3:
		return "1000"
	case 1e6:
		return "a million"
	case 1e9:
		return "a billion"
	}
	return fmt.Sprint(r)
}

// unitName names a count of per nanoseconds.
func unitName(per int64) string {
	switch per {
	case 1:
		return "nanoseconds"
	case 1e3:
		return "microseconds"
	case 1e6:
		return "milliseconds"
	case 1e9:
		return "seconds"
	case 60e9:
		return "minutes"
	case 3600e9:
		return "hours"
	}
	return fmt.Sprintf("units of %s", time.Duration(per))
}

// bareOnWire says what a client sends for a time.Duration TTL of d
// nanoseconds, 0 < d < 1s, given to method of cmd.
func bareOnWire(cmd *redismodel.Command, d int64) string {
	return bareSent(cmd.Client, cmd.Package, cmd.TTLSetter(), d)
}

// bareSent is bareOnWire for the method name of a client of package pkg.
func bareSent(client redismodel.Client, pkg, name string, d int64) string {
	if client == redismodel.Rueidis {
		switch name {
		case "Ex":
			return fmt.Sprintf("rueidis Ex truncates it to whole seconds and sends EX %d, which Redis rejects (invalid expire time)", d/1e9)
		case "Px":
			if d < 1e6 {
				return "rueidis Px truncates it to whole milliseconds and sends PX 0, which Redis rejects (invalid expire time)"
			}
			return fmt.Sprintf("rueidis sends PX %d", d/1e6)
		}
		return ""
	}
	if client != redismodel.GoRedis {
		return ""
	}
	v := goRedisMajor(pkg)
	if v < 5 {
		return "" // gopkg.in/redis.v3 and v4: how they convert is not known here
	}
	rounds := v >= 8
	// who names the client: rueidiscompat converts durations as go-redis
	// v9 does (it rounds up to 1 ms and 1 s too).
	who := fmt.Sprintf("go-redis v%d", v)
	if redismodel.IsGoRedisCompat(pkg) {
		who = "rueidiscompat"
	}
	switch name {
	case "Expire", "ExpireNX", "ExpireXX", "ExpireGT", "ExpireLT", "SetEx", "SetEX":
		word := "EXPIRE"
		if name == "SetEx" || name == "SetEX" {
			word = "SETEX"
		}
		if rounds {
			return fmt.Sprintf("%s sends %s 1 (it rounds any TTL under a second up to 1 s)", who, word)
		}
		if word == "SETEX" {
			return fmt.Sprintf("%s sends SETEX 0, which Redis rejects (invalid expire time)", who)
		}
		return fmt.Sprintf("%s sends EXPIRE 0, which deletes the key at once", who)
	case "PExpire":
		if d >= 1e6 {
			return fmt.Sprintf("%s sends PEXPIRE %d", strings.Fields(who)[0], d/1e6)
		}
		if rounds {
			return fmt.Sprintf("%s sends PEXPIRE 1 (it rounds any TTL under a millisecond up to 1 ms)", who)
		}
		return fmt.Sprintf("%s sends PEXPIRE 0, which deletes the key at once", who)
	}
	// Set, SetNX, SetXX, SetArgs and friends send PX for durations under
	// a second.
	if d >= 1e6 {
		return fmt.Sprintf("%s sends PX %d: the key expires after %s", strings.Fields(who)[0], d/1e6, time.Duration(d/1e6*1e6))
	}
	if rounds {
		return fmt.Sprintf("%s sends PX 1 (it rounds any TTL under a millisecond up to 1 ms): the key expires almost at once", who)
	}
	return fmt.Sprintf("%s sends PX 0, which Redis rejects (invalid expire time): the command fails every time", who)
}
