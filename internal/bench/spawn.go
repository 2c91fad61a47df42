package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/locklint/locklint/internal/redisproc"
)

// spawnTimeout bounds how long a spawned redis-server may take to answer.
const spawnTimeout = 10 * time.Second

// Spawned is a redis-server process started for one run.
type Spawned struct {
	Addr   string
	Binary string
	args   []string // beyond the defaults, kept for Restart
	cmd    *exec.Cmd
	dir    string
	exited chan struct{}
}

// Spawn starts redis-server from PATH on a free loopback port, with
// persistence off and its files in a temporary directory, and waits until
// it answers as itself (see redisproc.Answers). args are passed on (for
// example --replicaof host port).
func Spawn(ctx context.Context, args ...string) (*Spawned, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errors.New("--spawn: redis-server not found on PATH (install the Debian package redis-server)")
	}
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		s, err := spawnOnce(ctx, bin, args)
		if err == nil {
			return s, nil
		}
		last = err
	}
	return nil, fmt.Errorf("--spawn: %w", last)
}

func spawnOnce(ctx context.Context, bin string, args []string) (*Spawned, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	dir, err := os.MkdirTemp("", "lockbench-redis-")
	if err != nil {
		return nil, err
	}
	return start(ctx, bin, port, dir, args)
}

// Restart kills the server and starts it again on the same port, without
// persistence: every key is gone, as after a crash of a server that keeps
// nothing on disk.
func (s *Spawned) Restart(ctx context.Context) error {
	select {
	case <-s.exited:
	default:
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	_, port, _ := net.SplitHostPort(s.Addr)
	p, _ := strconv.Atoi(port)
	n, err := start(ctx, s.Binary, p, s.dir, s.args)
	if err != nil {
		return fmt.Errorf("restart redis-server: %w", err)
	}
	*s = *n
	return nil
}

// start runs redis-server on port with its files in dir, and waits until
// it answers; on failure dir is removed.
func start(ctx context.Context, bin string, port int, dir string, args []string) (*Spawned, error) {
	logf, err := os.Create(filepath.Join(dir, "redis.log"))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	cmd := exec.Command(bin, append([]string{
		"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "no"}, args...)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		_ = logf.Close()
		_ = os.RemoveAll(dir)
		return nil, err
	}
	s := &Spawned{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), Binary: bin, args: args, cmd: cmd, dir: dir, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		_ = logf.Close()
		close(s.exited)
	}()
	deadline := time.Now().Add(spawnTimeout)
	for time.Now().Before(deadline) {
		ok, err := redisproc.Answers(s.Addr, cmd.Process.Pid)
		if err != nil {
			// The port was taken by another server after all: ours
			// cannot bind it (Spawn tries another port).
			s.Stop()
			return nil, err
		}
		if ok {
			return s, nil
		}
		select {
		case <-s.exited:
			err := fmt.Errorf("redis-server exited at start: %s", lastLine(filepath.Join(dir, "redis.log")))
			_ = os.RemoveAll(dir)
			return nil, err
		case <-ctx.Done():
			s.Stop()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	s.Stop()
	return nil, fmt.Errorf("redis-server did not answer within %s", spawnTimeout)
}

// Stop kills the server and removes its directory.
func (s *Spawned) Stop() {
	select {
	case <-s.exited:
	default:
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	_ = os.RemoveAll(s.dir)
}

func lastLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}
