package faultproxy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// wait bounds every blocking step of these tests; it is generous because
// the machine is shared, and only a hang would reach it.
const wait = 10 * time.Second

// echoServer accepts connections and echoes each line back. Every line it
// receives is also sent on got, so tests can see what reached the target.
type echoServer struct {
	ln  net.Listener
	got chan string
	wg  sync.WaitGroup

	mu    sync.Mutex
	conns []net.Conn
}

func startEcho(t *testing.T) *echoServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e := &echoServer{ln: ln, got: make(chan string, 1024)}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			e.mu.Lock()
			e.conns = append(e.conns, c)
			e.mu.Unlock()
			e.wg.Add(1)
			go func() {
				defer e.wg.Done()
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					select {
					case e.got <- line:
					default: // nobody is watching; tests that watch read promptly
					}
					if _, err := c.Write([]byte(line)); err != nil {
						return
					}
				}
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		e.mu.Lock()
		for _, c := range e.conns {
			_ = c.Close()
		}
		e.mu.Unlock()
		e.wg.Wait()
	})
	return e
}

func (e *echoServer) addr() string { return e.ln.Addr().String() }

func startProxy(t *testing.T, target string) *Proxy {
	t.Helper()
	p, err := New(target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

type client struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dial(t *testing.T, addr string) *client {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, wait)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return &client{t: t, c: c, r: bufio.NewReader(c)}
}

func (c *client) send(line string) {
	c.t.Helper()
	if err := c.c.SetWriteDeadline(time.Now().Add(wait)); err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.c.Write([]byte(line + "\n")); err != nil {
		c.t.Fatalf("write %q: %v", line, err)
	}
}

// recv reads one line within d.
func (c *client) recv(d time.Duration) (string, error) {
	if err := c.c.SetReadDeadline(time.Now().Add(d)); err != nil {
		return "", err
	}
	line, err := c.r.ReadString('\n')
	if err != nil {
		return "", err
	}
	return line[:len(line)-1], nil
}

func (c *client) roundTrip(line string) {
	c.t.Helper()
	c.send(line)
	got, err := c.recv(wait)
	if err != nil {
		c.t.Fatalf("echo of %q: %v", line, err)
	}
	if got != line {
		c.t.Fatalf("echo: got %q, want %q", got, line)
	}
}

// waitUntil polls cond until it holds or wait passes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestForwards(t *testing.T) {
	e := startEcho(t)
	p := startProxy(t, e.addr())
	c := dial(t, p.Addr())
	c.roundTrip("hello")
	c.roundTrip("again")
	if got := p.Conns(); got != 1 {
		t.Errorf("Conns() = %d, want 1", got)
	}
	if got := p.Accepted(); got != 1 {
		t.Errorf("Accepted() = %d, want 1", got)
	}
}

func TestStallHoldsBytesAndResumeDeliversThem(t *testing.T) {
	e := startEcho(t)
	p := startProxy(t, e.addr())
	c := dial(t, p.Addr())
	c.roundTrip("before")
	<-e.got

	p.Stall()
	c.send("during")
	// The proxy has read the line and holds it: it cannot have reached
	// the server, and no reply can come back.
	waitUntil(t, "the stall holds the line", func() bool { return p.Held() == 1 })
	select {
	case line := <-e.got:
		t.Fatalf("server received %q while stalled", line)
	default:
	}
	if line, err := c.recv(100 * time.Millisecond); !isTimeout(err) {
		t.Fatalf("read while stalled: got %q, %v; want a timeout", line, err)
	}
	if got := p.Conns(); got != 1 {
		t.Fatalf("stall closed the connection: Conns() = %d", got)
	}

	p.Resume()
	got, err := c.recv(wait)
	if err != nil || got != "during" {
		t.Fatalf("after Resume: got %q, %v; want the held-back line", got, err)
	}
	if got := p.Held(); got != 0 {
		t.Fatalf("Held() = %d after Resume delivered everything", got)
	}
	c.roundTrip("after")
}

func TestStallRepliesLetsRequestsThrough(t *testing.T) {
	e := startEcho(t)
	p := startProxy(t, e.addr())
	c := dial(t, p.Addr())
	c.roundTrip("warm")
	<-e.got

	p.StallReplies()
	c.send("request")
	select {
	case line := <-e.got:
		if line != "request\n" {
			t.Fatalf("server got %q", line)
		}
	case <-time.After(wait):
		t.Fatal("request did not reach the server while only replies were stalled")
	}
	waitUntil(t, "the reply is held", func() bool { return p.Held() == 1 })
	if line, err := c.recv(100 * time.Millisecond); !isTimeout(err) {
		t.Fatalf("read with replies stalled: got %q, %v; want a timeout", line, err)
	}
	p.Resume()
	if got, err := c.recv(wait); err != nil || got != "request" {
		t.Fatalf("after Resume: got %q, %v", got, err)
	}
}

func TestStallAppliesToNewConnections(t *testing.T) {
	e := startEcho(t)
	p := startProxy(t, e.addr())
	p.Stall()
	p.Stall() // idempotent
	c := dial(t, p.Addr())
	c.send("new")
	if line, err := c.recv(200 * time.Millisecond); !isTimeout(err) {
		t.Fatalf("read on a connection opened while stalled: got %q, %v; want a timeout", line, err)
	}
	p.Resume()
	p.Resume() // idempotent
	got, err := c.recv(wait)
	if err != nil || got != "new" {
		t.Fatalf("after Resume: got %q, %v", got, err)
	}
}

func TestCutClosesOpenConnections(t *testing.T) {
	e := startEcho(t)
	p := startProxy(t, e.addr())
	const n = 5
	clients := make([]*client, n)
	for i := range clients {
		clients[i] = dial(t, p.Addr())
		clients[i].roundTrip(fmt.Sprint("c", i))
	}
	if got := p.Cut(); got != n {
		t.Fatalf("Cut() = %d, want %d", got, n)
	}
	for i, c := range clients {
		if line, err := c.recv(wait); err == nil || isTimeout(err) {
			t.Fatalf("client %d after Cut: got %q, %v; want the connection closed", i, line, err)
		}
	}
	waitUntil(t, "no connections are open", func() bool { return p.Conns() == 0 })

	// The proxy still accepts new connections after a cut.
	c := dial(t, p.Addr())
	c.roundTrip("reconnected")
}

func TestCutWhileStalledThenResume(t *testing.T) {
	e := startEcho(t)
	p := startProxy(t, e.addr())
	c := dial(t, p.Addr())
	c.roundTrip("x")
	<-e.got
	p.Stall()
	c.send("held")
	waitUntil(t, "the stall holds the line", func() bool { return p.Held() == 1 })
	if got := p.Cut(); got != 1 {
		t.Fatalf("Cut() = %d, want 1", got)
	}
	if _, err := c.recv(wait); err == nil || isTimeout(err) {
		t.Fatalf("stalled client after Cut: %v; want the connection closed", err)
	}
	waitUntil(t, "the cut link lets go of its held line", func() bool { return p.Held() == 0 })
	select {
	case line := <-e.got:
		t.Fatalf("a line held when the link was cut reached the server: %q", line)
	default:
	}
	p.Resume()
	dial(t, p.Addr()).roundTrip("fresh")
}

func TestManyConnections(t *testing.T) {
	e := startEcho(t)
	p := startProxy(t, e.addr())
	const n, lines = 64, 20
	conns := make([]net.Conn, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range conns {
		c, err := net.DialTimeout("tcp", p.Addr(), wait)
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- echoLines(c, i, lines)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := p.Conns(); got != n {
		t.Errorf("Conns() = %d with %d clients open", got, n)
	}
	if got := p.Accepted(); got != n {
		t.Errorf("Accepted() = %d, want %d", got, n)
	}
	for _, c := range conns {
		_ = c.Close()
	}
	// A client closing its end tears the link down on the proxy too.
	waitUntil(t, "the proxy notices every client closed", func() bool { return p.Conns() == 0 })
}

// echoLines sends lines distinct to client i and checks each echo.
func echoLines(c net.Conn, i, lines int) error {
	if err := c.SetDeadline(time.Now().Add(wait)); err != nil {
		return err
	}
	r := bufio.NewReader(c)
	for j := 0; j < lines; j++ {
		want := fmt.Sprintf("client %d line %d", i, j)
		if _, err := io.WriteString(c, want+"\n"); err != nil {
			return fmt.Errorf("client %d: %w", i, err)
		}
		got, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("client %d: %w", i, err)
		}
		if got != want+"\n" {
			return fmt.Errorf("client %d got %q, want %q", i, got, want)
		}
	}
	return nil
}

func TestCloseStopsEverything(t *testing.T) {
	e := startEcho(t)
	p, err := New(e.addr())
	if err != nil {
		t.Fatal(err)
	}
	open := dial(t, p.Addr())
	open.roundTrip("x")
	stalled := dial(t, p.Addr())
	p.Stall()
	stalled.send("held")
	waitUntil(t, "a pipe is parked on the stall", func() bool { return p.Held() == 1 })

	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	for name, c := range map[string]*client{"open": open, "stalled": stalled} {
		if _, err := c.recv(wait); err == nil || isTimeout(err) {
			t.Errorf("%s client after Close: %v; want the connection closed", name, err)
		}
	}
	if c, err := net.DialTimeout("tcp", p.Addr(), time.Second); err == nil {
		_ = c.Close()
		t.Fatal("dial after Close succeeded; want the listener gone")
	}
	if got := p.Conns(); got != 0 {
		t.Errorf("Conns() after Close = %d", got)
	}
	// Close returned only after its goroutines exited; goleak in TestMain
	// checks that none is left.
}

func TestTargetDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens here now
	p := startProxy(t, addr)
	c := dial(t, p.Addr())
	if _, err := c.recv(wait); err == nil || isTimeout(err) {
		t.Fatalf("client of a proxy whose target is down: %v; want the connection closed", err)
	}
	waitUntil(t, "the failed link is forgotten", func() bool { return p.Conns() == 0 })
}

func TestBadTarget(t *testing.T) {
	for _, target := range []string{"", "no-port", "127.0.0.1"} {
		p, err := New(target)
		if err == nil {
			_ = p.Close()
			t.Errorf("New(%q) succeeded; want an error", target)
		}
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// TestRetarget: after Retarget the open connections are cut and new ones
// reach the new target, whose lines arrive there and not at the old one.
func TestRetarget(t *testing.T) {
	old, next := startEcho(t), startEcho(t)
	p := startProxy(t, old.addr())
	c := dial(t, p.Addr())
	c.roundTrip("before")
	if got := <-old.got; got != "before\n" {
		t.Fatalf("old target got %q", got)
	}
	if n, err := p.Retarget(next.addr()); err != nil || n != 1 {
		t.Fatalf("Retarget = %d, %v; want 1 connection cut", n, err)
	}
	if line, err := c.recv(wait); err == nil || isTimeout(err) {
		t.Fatalf("old connection after Retarget: got %q, %v; want it closed", line, err)
	}
	c = dial(t, p.Addr())
	c.roundTrip("after")
	if got := <-next.got; got != "after\n" {
		t.Fatalf("new target got %q", got)
	}
	select {
	case got := <-old.got:
		t.Fatalf("old target got %q after Retarget", got)
	default:
	}
	if _, err := p.Retarget("no port"); err == nil {
		t.Fatal("Retarget to a bad address succeeded")
	}
}
