// Package faultproxy is a TCP proxy on loopback for fault-injection tests.
// A client connects to the proxy's Addr instead of the server; the test then
// stalls the link (bytes stop flowing, connections stay open, like a network
// that silently drops packets), or only its replies (the server runs the
// request, the client never hears back), cuts it (every open connection is
// closed, as when a middlebox resets them), and resumes it. Held reports
// how many chunks a stall is holding back, so a test can wait for a request
// to be in flight instead of sleeping.
//
// The proxy never closes a connection on its own except on Cut, Close, or
// when either side closes or fails. Close stops the listener, closes every
// connection and returns once every goroutine the proxy started has exited.
package faultproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// dialTimeout bounds how long the proxy waits to reach the target for each
// new client connection.
const dialTimeout = 5 * time.Second

// Proxy forwards TCP connections from a loopback listener to one target.
type Proxy struct {
	target string
	ln     net.Listener
	ctx    context.Context // cancelled by Close; bounds dials to the target
	cancel context.CancelFunc
	wg     sync.WaitGroup // accept loop, connection setup and pipe goroutines

	mu       sync.Mutex
	links    map[*link]struct{}
	up, down gate // client to target, target to client
	held     int  // chunks waiting at a stalled gate
	closed   bool
	accepted int
}

// gate is one direction's stall switch.
type gate struct {
	stalled bool
	flowing chan struct{} // closed while not stalled
}

func (g *gate) stall() {
	if !g.stalled {
		g.stalled = true
		g.flowing = make(chan struct{})
	}
}

func (g *gate) resume() {
	if g.stalled {
		g.stalled = false
		close(g.flowing)
	}
}

// link is one client connection and its connection to the target.
type link struct {
	client net.Conn
	done   chan struct{} // closed when the link is torn down

	mu     sync.Mutex
	server net.Conn // nil until the dial to the target succeeds
	closed bool
}

// attach records the connection to the target; it reports false (and
// closes s) when the link was closed while dialling.
func (l *link) attach(s net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		_ = s.Close()
		return false
	}
	l.server = s
	return true
}

func (l *link) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	close(l.done)
	_ = l.client.Close()
	if l.server != nil {
		_ = l.server.Close()
	}
}

// New starts a proxy on a free loopback port that forwards to target
// (host:port). Stop it with Close; tests usually write
// t.Cleanup(func() { _ = p.Close() }).
func New(target string) (*Proxy, error) {
	if target == "" {
		return nil, errors.New("faultproxy: empty target address")
	}
	if _, _, err := net.SplitHostPort(target); err != nil {
		return nil, fmt.Errorf("faultproxy: target %q: %w", target, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("faultproxy: listen: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Proxy{
		target: target,
		ln:     ln,
		ctx:    ctx,
		cancel: cancel,
		links:  make(map[*link]struct{}),
	}
	p.wg.Add(1)
	go p.acceptLoop()
	return p, nil
}

// Addr returns the proxy's host:port; point the client here.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Stall stops forwarding in both directions without closing anything.
// Connections opened while stalled are accepted and connected to the
// target, but carry no bytes either. Writes by the client may still
// succeed (the kernel and the proxy buffer them); reads wait. Resume ends
// the stall and delivers what was held back.
func (p *Proxy) Stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up.stall()
	p.down.stall()
}

// StallReplies stops forwarding from the target to clients only: requests
// still reach the target and run there, but their replies are held back.
func (p *Proxy) StallReplies() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down.stall()
}

// Resume forwards bytes again, in both directions, after Stall or
// StallReplies. It does not reopen connections closed by Cut; clients are
// expected to reconnect.
func (p *Proxy) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up.resume()
	p.down.resume()
}

// Held returns how many chunks of bytes a stall is holding back right now
// (at most one per connection and direction). A test that stalls the proxy
// and starts a call can wait for Held to rise to know the request is in
// flight.
func (p *Proxy) Held() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// Retarget points new connections at target (host:port) and cuts the open
// ones, as a failover does to clients that reach the primary through a
// fixed address (a virtual IP, a proxy that follows Sentinel).
func (p *Proxy) Retarget(target string) (int, error) {
	if _, _, err := net.SplitHostPort(target); err != nil {
		return 0, fmt.Errorf("faultproxy: target %q: %w", target, err)
	}
	p.mu.Lock()
	p.target = target
	p.mu.Unlock()
	return p.Cut(), nil
}

// Cut closes every open connection, on both sides. The proxy keeps
// accepting new connections (stalled ones if Stall is in effect).
// It returns the number of connections it closed.
func (p *Proxy) Cut() int {
	p.mu.Lock()
	links := make([]*link, 0, len(p.links))
	for l := range p.links {
		links = append(links, l)
	}
	p.mu.Unlock()
	for _, l := range links {
		l.close()
	}
	return len(links)
}

// Conns returns the number of connections currently open through the proxy.
func (p *Proxy) Conns() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.links)
}

// Accepted returns how many client connections the proxy has accepted in
// total.
func (p *Proxy) Accepted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

// Close stops accepting, closes every connection and waits for all of the
// proxy's goroutines to exit. Calling it again returns nil.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	err := p.ln.Close()
	p.Cut()
	p.wg.Wait()
	return err
}

func (p *Proxy) acceptLoop() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // listener closed by Close
		}
		l := &link{client: c, done: make(chan struct{})}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			_ = c.Close()
			return
		}
		p.links[l] = struct{}{}
		p.accepted++
		p.wg.Add(1)
		p.mu.Unlock()
		go p.serve(l)
	}
}

// serve connects l to the target and runs both directions until either side
// fails or the link is closed.
func (p *Proxy) serve(l *link) {
	defer p.wg.Done()
	defer p.forget(l)
	d := net.Dialer{Timeout: dialTimeout}
	p.mu.Lock()
	target := p.target
	p.mu.Unlock()
	s, err := d.DialContext(p.ctx, "tcp", target)
	if err != nil {
		l.close()
		return
	}
	if !l.attach(s) {
		return // cut while dialling
	}
	var pipes sync.WaitGroup
	pipes.Add(1)
	go func() { defer pipes.Done(); p.pipe(l, &p.up, s, l.client) }()
	p.pipe(l, &p.down, l.client, s)
	pipes.Wait()
}

// forget removes l from the open set and makes sure it is closed.
func (p *Proxy) forget(l *link) {
	l.close()
	p.mu.Lock()
	delete(p.links, l)
	p.mu.Unlock()
}

// pipe copies src to dst, holding each chunk back while the proxy is
// stalled. Any error, in either direction, tears the whole link down.
func (p *Proxy) pipe(l *link, g *gate, dst, src net.Conn) {
	defer l.close()
	buf := make([]byte, 32*1024)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !p.waitFlowing(l, g) {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// waitFlowing blocks while g is stalled. It reports false when the link was
// closed meanwhile.
func (p *Proxy) waitFlowing(l *link, g *gate) bool {
	p.mu.Lock()
	counted := false
	defer func() {
		if counted {
			p.mu.Lock()
			p.held--
			p.mu.Unlock()
		}
	}()
	for g.stalled {
		flowing := g.flowing
		if !counted {
			counted = true
			p.held++
		}
		p.mu.Unlock()
		select {
		case <-flowing:
			// Resumed; re-check in case of a new stall since.
		case <-l.done:
			return false
		}
		p.mu.Lock()
	}
	p.mu.Unlock()
	select {
	case <-l.done:
		return false
	default:
		return true
	}
}
