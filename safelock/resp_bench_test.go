package safelock

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"testing"

	"github.com/locklint/locklint/internal/redistest"
)

// BenchmarkUncontendedRESP runs the commands of one uncontended cycle over a
// bare connection, with no client library: the minimal lock's (SET NX PX,
// then EVALSHA of a compare-and-delete) against safelock's (SET NX PX and
// the fence's INCR in one write, then EVALSHA of the queue release with
// its five keys), one cycle of each per iteration in alternating order.
// The ratio is what safelock's design costs on the wire and in the
// server. BenchmarkUncontended/interleaved runs the same cycles through
// go-redis and adds what the client costs: its pipeline path is slower
// than its single-command path, and the Lease does more than a bare
// token.
func BenchmarkUncontendedRESP(b *testing.B) {
	srv := redistest.Start(b)
	c := srv.Client()
	ctx := context.Background()
	minimalSHA, err := c.ScriptLoad(ctx, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`).Result()
	if err != nil {
		b.Fatal(err)
	}
	releaseSHA, err := c.ScriptLoad(ctx, queueReleaseScript).Result()
	if err != nil {
		b.Fatal(err)
	}
	conn, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	rc := &respConn{r: bufio.NewReader(conn), w: bufio.NewWriter(conn)}
	ks, err := lockKeys("resp")
	if err != nil {
		b.Fatal(err)
	}
	ttl := strconv.Itoa(5000)
	expect := func(got, want string) {
		if rc.err != nil {
			b.Fatal(rc.err)
		}
		if got != want {
			b.Fatalf("reply %q, want %q", got, want)
		}
	}
	minimal := func() {
		token := NewToken()
		expect(rc.do([]string{"SET", "minimal", token, "NX", "PX", ttl})[0], "+OK")
		expect(rc.do([]string{"EVALSHA", minimalSHA, "1", "minimal", token})[0], ":1")
	}
	safelock := func() {
		token := NewToken()
		r := rc.do([]string{"SET", ks.lock, token, "NX", "PX", ttl}, []string{"INCR", ks.fence})
		expect(r[0], "+OK")
		if len(r[1]) < 2 || r[1][0] != ':' {
			b.Fatalf("INCR reply %q", r[1])
		}
		fence := r[1][1:]
		expect(rc.do([]string{"EVALSHA", releaseSHA, "5", ks.lock, ks.fence, ks.queue, ks.places, ks.waiting, token, fence})[0], ":1")
	}
	alternate(b, minimal, safelock)
}

// respConn speaks just enough RESP for BenchmarkUncontendedRESP: commands
// of bulk strings, and replies that are one line (simple strings, errors,
// integers, a nil bulk string) or a bulk string.
type respConn struct {
	r   *bufio.Reader
	w   *bufio.Writer
	err error
}

// do writes cmds in one write and returns their replies, each as its
// first line without CRLF (a bulk string as "$" and its text). After an
// error it returns empty replies and keeps the error in rc.err.
func (rc *respConn) do(cmds ...[]string) []string {
	out := make([]string, len(cmds))
	if rc.err != nil {
		return out
	}
	for _, cmd := range cmds {
		fmt.Fprintf(rc.w, "*%d\r\n", len(cmd))
		for _, arg := range cmd {
			fmt.Fprintf(rc.w, "$%d\r\n%s\r\n", len(arg), arg)
		}
	}
	if rc.err = rc.w.Flush(); rc.err != nil {
		return out
	}
	for i := range cmds {
		line, err := rc.r.ReadString('\n')
		if err != nil {
			rc.err = err
			return out
		}
		line = line[:len(line)-2]
		if line[0] == '$' && line != "$-1" {
			n, err := strconv.Atoi(line[1:])
			if err != nil {
				rc.err = fmt.Errorf("bad bulk length %q", line)
				return out
			}
			buf := make([]byte, n+2)
			if _, rc.err = io.ReadFull(rc.r, buf); rc.err != nil {
				return out
			}
			line = "$" + string(buf[:n])
		}
		out[i] = line
	}
	return out
}
