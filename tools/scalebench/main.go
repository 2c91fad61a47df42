// Command scalebench measures locklint at scale: wall time and peak memory
// of `locklint ./...` (through the go command, and in one process with
// LOCKLINT_DRIVER=inprocess), `locklint -sarif ./...`, `go vet
// -vettool=locklint ./...` and plain `go vet ./...` on a large public
// module pinned in go.mod (go-zero), cold (an empty build cache) and warm
// (the same run again). A path with the suffix "+built" starts from a build
// cache that `go test -run '^$' ./...` filled (compiled code and tests, as
// a CI job that built and tested first leaves it, but no analysis
// results): its first run is labelled "built".
//
//	cd tools/scalebench && go run . [-paths standalone,standalone+built,inprocess,sarif,vettool,vet] [-warm 1]
//
// It lives in a module of its own so that go-zero stays out of locklint's
// go.mod. Peak memory is the largest resident set of the process or any
// of its children (wait4's ru_maxrss), so for go vet it is the largest
// single vet process.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

const target = "github.com/zeromicro/go-zero"

func main() {
	paths := flag.String("paths", "standalone,standalone+built,inprocess,sarif,vettool,vet", "what to measure, in order")
	warm := flag.Int("warm", 1, "warm reruns after each cold run")
	flag.Parse()
	if err := run(strings.Split(*paths, ","), *warm); err != nil {
		fmt.Fprintln(os.Stderr, "scalebench:", err)
		os.Exit(1)
	}
}

func run(paths []string, warm int) error {
	tmp, err := os.MkdirTemp("", "scalebench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", target).Output()
	if err != nil {
		return fmt.Errorf("locating %s (go mod download): %w", target, err)
	}
	dir, version, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	// The module cache is read-only; the go command may want to write.
	src := filepath.Join(tmp, "src")
	if err := copyTree(dir, src); err != nil {
		return err
	}
	bin := filepath.Join(tmp, "locklint")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/locklint/locklint/cmd/locklint").CombinedOutput(); err != nil {
		return fmt.Errorf("building locklint: %v\n%s", err, out)
	}
	fmt.Printf("%s %s; locklint from this repository; %s\n\n", target, version, goVersion())
	fmt.Printf("%-16s %-5s %9s %10s %7s\n", "path", "cache", "wall", "peak RSS", "exit")
	for _, p := range paths {
		var args, env []string
		p, built := strings.CutSuffix(p, "+built")
		switch p {
		case "standalone":
			args = []string{bin, "./..."}
		case "inprocess":
			args, env = []string{bin, "./..."}, []string{"LOCKLINT_DRIVER=inprocess"}
		case "sarif":
			args = []string{bin, "-sarif", "./..."}
		case "vettool":
			args = []string{"go", "vet", "-vettool=" + bin, "./..."}
		case "vet":
			args = []string{"go", "vet", "./..."}
		default:
			return fmt.Errorf("unknown path %q", p)
		}
		cache := filepath.Join(tmp, "cache-"+p)
		first := "cold"
		if built {
			first, p = "built", p+"+built"
			prime := exec.Command("go", "test", "-count=1", "-run", "^$", "./...")
			prime.Dir, prime.Env = src, append(os.Environ(), "GOCACHE="+cache)
			if out, err := prime.CombinedOutput(); err != nil {
				return fmt.Errorf("filling the build cache: %v\n%s", err, firstLines(string(out), 5))
			}
		}
		for i := 0; i <= warm; i++ {
			label := first
			if i > 0 {
				label = "warm"
			}
			wall, rss, code, err := measure(src, append(env, "GOCACHE="+cache), args)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			fmt.Printf("%-16s %-5s %8.1fs %8.0f MB %7d\n", p, label, wall.Seconds(), float64(rss)/1024, code)
		}
		_ = os.RemoveAll(cache)
	}
	return nil
}

// measure runs args in dir and returns the wall time, the peak RSS in KB
// of the process or its largest child, and the exit code.
func measure(dir string, env, args []string) (time.Duration, int64, int, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return 0, 0, 0, err
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	code := cmd.ProcessState.ExitCode()
	if code != 0 && code != 3 {
		return wall, rss, code, fmt.Errorf("exit code %d: %s", code, firstLines(stderr.String(), 5))
	}
	return wall, rss, code, nil
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return "go (unknown version)"
	}
	return strings.TrimSpace(string(out))
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
