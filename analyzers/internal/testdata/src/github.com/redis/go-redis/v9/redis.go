// Package redis is a minimal stand-in for github.com/redis/go-redis/v9,
// with the same type and method shapes, for analyzer tests.
package redis

import (
	"context"
	"time"
)

const KeepTTL = -1

// Nil is a constant, as in go-redis (const Nil = proto.Nil, a
// proto.RedisError).
const Nil = RedisError("redis: nil")

type RedisError string

func (e RedisError) Error() string { return string(e) }

type Options struct{ Addr string }

type baseCmd struct{ err error }

func (c *baseCmd) Err() error { return c.err }

type BoolCmd struct{ baseCmd }

func (c *BoolCmd) Result() (bool, error) { return false, c.err }
func (c *BoolCmd) Val() bool             { return false }

type DurationCmd struct{ baseCmd }

func (c *DurationCmd) Result() (time.Duration, error) { return 0, c.err }
func (c *DurationCmd) Val() time.Duration             { return 0 }

type IntCmd struct{ baseCmd }

func (c *IntCmd) Result() (int64, error) { return 0, c.err }
func (c *IntCmd) Val() int64             { return 0 }

type StatusCmd struct{ baseCmd }

func (c *StatusCmd) Result() (string, error) { return "", c.err }
func (c *StatusCmd) Val() string             { return "" }

type StringCmd struct{ baseCmd }

func (c *StringCmd) Result() (string, error) { return "", c.err }
func (c *StringCmd) Val() string             { return "" }

type Cmd struct{ baseCmd }

func (c *Cmd) Result() (interface{}, error) { return nil, c.err }
func (c *Cmd) Int() (int, error)            { return 0, c.err }
func (c *Cmd) Val() interface{}             { return nil }
func (c *Cmd) Bool() (bool, error)          { return false, c.err }
func (c *Cmd) Text() (string, error)        { return "", c.err }

type Cmder interface{ Err() error }

type SetArgs struct {
	Mode       string
	MatchValue interface{}
	TTL        time.Duration
	ExpireAt   time.Time
	Get        bool
	KeepTTL    bool
}

type DelExArgs struct {
	Mode       string
	MatchValue interface{}
}

type Scripter interface {
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
	ScriptLoad(ctx context.Context, script string) *StringCmd
}

type Cmdable interface {
	Scripter
	Get(ctx context.Context, key string) *StringCmd
	GetDel(ctx context.Context, key string) *StringCmd
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd
	SetXX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd
	SetEx(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
	SetArgs(ctx context.Context, key string, value interface{}, a SetArgs) *StatusCmd
	Del(ctx context.Context, keys ...string) *IntCmd
	Unlink(ctx context.Context, keys ...string) *IntCmd
	DelExArgs(ctx context.Context, key string, a DelExArgs) *IntCmd
	Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd
	PExpire(ctx context.Context, key string, expiration time.Duration) *BoolCmd
	ExpireAt(ctx context.Context, key string, tm time.Time) *BoolCmd
	Incr(ctx context.Context, key string) *IntCmd
	XAdd(ctx context.Context, a *XAddArgs) *StringCmd
	XAck(ctx context.Context, stream, group string, ids ...string) *IntCmd
	TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error)
	Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error)
	TxPipeline() Pipeliner
	Pipeline() Pipeliner
}

type UniversalClient interface {
	Cmdable
	Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error
	Do(ctx context.Context, args ...interface{}) *Cmd
	Close() error
}

type Pipeliner interface {
	Cmdable
	Exec(ctx context.Context) ([]Cmder, error)
}

type cmdable func(ctx context.Context, cmd Cmder) error

func (c cmdable) Get(ctx context.Context, key string) *StringCmd    { return &StringCmd{} }
func (c cmdable) GetDel(ctx context.Context, key string) *StringCmd { return &StringCmd{} }
func (c cmdable) GetSet(ctx context.Context, key string, value interface{}) *StringCmd {
	return &StringCmd{}
}
func (c cmdable) Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) SetXX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) SetEx(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) SetArgs(ctx context.Context, key string, value interface{}, a SetArgs) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) Del(ctx context.Context, keys ...string) *IntCmd    { return &IntCmd{} }
func (c cmdable) Unlink(ctx context.Context, keys ...string) *IntCmd { return &IntCmd{} }
func (c cmdable) DelExArgs(ctx context.Context, key string, a DelExArgs) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) PExpire(ctx context.Context, key string, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) ExpireAt(ctx context.Context, key string, tm time.Time) *BoolCmd { return &BoolCmd{} }
func (c cmdable) ExpireNX(ctx context.Context, key string, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) TTL(ctx context.Context, key string) *DurationCmd  { return &DurationCmd{} }
func (c cmdable) PTTL(ctx context.Context, key string) *DurationCmd { return &DurationCmd{} }
func (c cmdable) Incr(ctx context.Context, key string) *IntCmd      { return &IntCmd{} }

// XAddArgs are XADD's arguments, as in go-redis.
type XAddArgs struct {
	Stream string
	MaxLen int64
	ID     string
	Values interface{}
}

func (c cmdable) XAdd(ctx context.Context, a *XAddArgs) *StringCmd { return &StringCmd{} }
func (c cmdable) XAck(ctx context.Context, stream, group string, ids ...string) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) XDel(ctx context.Context, stream string, ids ...string) *IntCmd { return &IntCmd{} }

// Z is a sorted-set member.
type Z struct {
	Score  float64
	Member interface{}
}

func (c cmdable) ZAdd(ctx context.Context, key string, members ...Z) *IntCmd { return &IntCmd{} }
func (c cmdable) HSet(ctx context.Context, key string, values ...interface{}) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) HIncrBy(ctx context.Context, key, field string, incr int64) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) LPush(ctx context.Context, key string, values ...interface{}) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) LRem(ctx context.Context, key string, count int64, value interface{}) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (c cmdable) EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (c cmdable) ScriptLoad(ctx context.Context, script string) *StringCmd { return &StringCmd{} }
func (c cmdable) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}
func (c cmdable) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}
func (c cmdable) TxPipeline() Pipeliner { return &Pipeline{} }
func (c cmdable) Pipeline() Pipeliner   { return &Pipeline{} }

type Client struct{ cmdable }

func NewClient(opt *Options) *Client { return &Client{} }

func (c *Client) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error { return nil }
func (c *Client) Do(ctx context.Context, args ...interface{}) *Cmd                    { return &Cmd{} }
func (c *Client) Close() error                                                        { return nil }

type ClusterClient struct{ cmdable }

func (c *ClusterClient) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error {
	return nil
}
func (c *ClusterClient) Do(ctx context.Context, args ...interface{}) *Cmd { return &Cmd{} }
func (c *ClusterClient) Close() error                                     { return nil }

type Ring struct{ cmdable }

type Tx struct{ cmdable }

func (c *Tx) Watch(ctx context.Context, keys ...string) *StatusCmd { return &StatusCmd{} }

func (c *Tx) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}

type Pipeline struct{ cmdable }

func (c *Pipeline) Exec(ctx context.Context) ([]Cmder, error) { return nil, nil }

type Script struct{ src string }

func NewScript(src string) *Script { return &Script{src: src} }

func (s *Script) Run(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}

func (s *Script) Hash() string { return "" }

func (s *Script) Load(ctx context.Context, c Scripter) *StringCmd { return &StringCmd{} }
