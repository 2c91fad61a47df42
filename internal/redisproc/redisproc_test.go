package redisproc

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAnswers starts a real redis-server and asks with its own pid and
// with another: the first is confirmed, the second is refused as another
// server; a port nobody listens on is not up yet.
func TestAnswers(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("LOCKLINT_REQUIRE_REDIS") != "" {
			t.Fatal("redis-server not on PATH")
		}
		t.Skip("redis-server not on PATH")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	if ok, err := Answers(addr, 1); ok || err != nil {
		t.Fatalf("nobody listening: Answers = %v, %v; want false, nil", ok, err)
	}
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := Answers(addr, cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("redis-server never answered")
		}
		time.Sleep(20 * time.Millisecond)
	}
	ok, err := Answers(addr, cmd.Process.Pid+1)
	if ok || err == nil || !strings.Contains(err.Error(), "another redis-server") {
		t.Fatalf("other pid: Answers = %v, %v; want false and an error naming another server", ok, err)
	}
}

func TestReadBulk(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"$5\r\nhello\r\n", "hello", true},
		{"$0\r\n\r\n", "", true},
		{"-LOADING Redis is loading\r\n", "", false},
		{"$-1\r\n", "", false},
		{"$5\r\nhel", "", false},
		{"+PONG\r\n", "", false},
	} {
		got, err := readBulk(bufio.NewReader(strings.NewReader(tc.in)))
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("readBulk(%q) = %q, %v; want %q ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	if v, ok := field("# Server\r\nredis_version:7.0.15\r\nprocess_id:42\r\n", "process_id"); !ok || v != "42" {
		t.Errorf("field = %q, %v", v, ok)
	}
}
