// Package rueidiscompat is a stand-in for rueidis's go-redis-compatible
// adapter: go-redis v9's command methods and results, sent by rueidis.
package rueidiscompat

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

type BoolCmd struct {
	val bool
	err error
}

func (c *BoolCmd) Result() (bool, error) { return c.val, c.err }
func (c *BoolCmd) Val() bool             { return c.val }
func (c *BoolCmd) Err() error            { return c.err }

type IntCmd struct {
	val int64
	err error
}

func (c *IntCmd) Result() (int64, error) { return c.val, c.err }
func (c *IntCmd) Val() int64             { return c.val }
func (c *IntCmd) Err() error             { return c.err }

type Cmd struct {
	val any
	err error
}

func (c *Cmd) Result() (any, error) { return c.val, c.err }
func (c *Cmd) Int() (int, error)    { return 0, c.err }
func (c *Cmd) Err() error           { return c.err }

type Cmdable interface {
	SetNX(ctx context.Context, key string, value any, expiration time.Duration) *BoolCmd
	Del(ctx context.Context, keys ...string) *IntCmd
	Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd
	Eval(ctx context.Context, script string, keys []string, args ...any) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *Cmd
}

type Compat struct{ client rueidis.Client }

func NewAdapter(client rueidis.Client) Cmdable { return &Compat{client} }

func (c *Compat) SetNX(ctx context.Context, key string, value any, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c *Compat) Del(ctx context.Context, keys ...string) *IntCmd { return &IntCmd{} }
func (c *Compat) Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c *Compat) Eval(ctx context.Context, script string, keys []string, args ...any) *Cmd {
	return &Cmd{}
}
func (c *Compat) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *Cmd {
	return &Cmd{}
}

type Scripter interface {
	Eval(ctx context.Context, script string, keys []string, args ...any) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *Cmd
}

type Script struct{ src string }

func NewScript(src string) *Script { return &Script{src} }

func (s *Script) Run(ctx context.Context, c Scripter, keys []string, args ...any) *Cmd {
	return &Cmd{}
}
