// Package redisproc tells whether a redis-server that answers on an address
// is a given process. The test helper and lockbench's --spawn start
// servers on a port that was free a moment before; in between another
// server (a test of another package running beside, say) can take it, and
// a plain PING would then be answered by the wrong server, which goes
// away with its owner.
package redisproc

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// Answers reports whether the redis-server answering at addr is process
// pid (by INFO server's process_id). It returns false when nothing answers
// (the server is not up yet) and an error only when another server
// answers.
func Answers(addr string, pid int) (bool, error) {
	conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return false, nil
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(500 * time.Millisecond))
	if _, err := conn.Write([]byte("INFO server\r\n")); err != nil {
		return false, nil
	}
	info, err := readBulk(bufio.NewReader(conn))
	if err != nil {
		return false, nil // loading, or not up yet
	}
	got, ok := field(info, "process_id")
	if !ok {
		return false, nil
	}
	if got != strconv.Itoa(pid) {
		return false, fmt.Errorf("%s is served by another redis-server (process %s, not %d)", addr, got, pid)
	}
	return true, nil
}

// readBulk reads one RESP bulk string; an error reply is an error.
func readBulk(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if !strings.HasPrefix(line, "$") {
		return "", fmt.Errorf("unexpected reply %q", line)
	}
	n, err := strconv.Atoi(line[1:])
	if err != nil || n < 0 || n > 1<<20 {
		return "", fmt.Errorf("unexpected reply %q", line)
	}
	b := make([]byte, n+2)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", err
	}
	return string(b[:n]), nil
}

func field(info, name string) (string, bool) {
	for line := range strings.SplitSeq(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), name+":"); ok {
			return v, true
		}
	}
	return "", false
}
