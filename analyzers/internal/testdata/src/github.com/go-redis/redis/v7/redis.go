// Package redis is a minimal stand-in for github.com/go-redis/redis/v7 (no context arguments),
// with the same type and method shapes, for analyzer tests.
package redis

import (
	"time"
)

const KeepTTL = -1

var Nil = error(nil)

type Options struct{ Addr string }

type baseCmd struct{ err error }

func (c *baseCmd) Err() error { return c.err }

type BoolCmd struct{ baseCmd }

func (c *BoolCmd) Result() (bool, error) { return false, c.err }
func (c *BoolCmd) Val() bool             { return false }

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
	Eval(script string, keys []string, args ...interface{}) *Cmd
	EvalSha(sha1 string, keys []string, args ...interface{}) *Cmd
	ScriptLoad(script string) *StringCmd
}

type Cmdable interface {
	Scripter
	Get(key string) *StringCmd
	GetDel(key string) *StringCmd
	Set(key string, value interface{}, expiration time.Duration) *StatusCmd
	SetNX(key string, value interface{}, expiration time.Duration) *BoolCmd
	SetXX(key string, value interface{}, expiration time.Duration) *BoolCmd
	SetEx(key string, value interface{}, expiration time.Duration) *StatusCmd
	SetArgs(key string, value interface{}, a SetArgs) *StatusCmd
	Del(keys ...string) *IntCmd
	Unlink(keys ...string) *IntCmd
	DelExArgs(key string, a DelExArgs) *IntCmd
	Expire(key string, expiration time.Duration) *BoolCmd
	PExpire(key string, expiration time.Duration) *BoolCmd
	ExpireAt(key string, tm time.Time) *BoolCmd
	Incr(key string) *IntCmd
	TxPipelined(fn func(Pipeliner) error) ([]Cmder, error)
	Pipelined(fn func(Pipeliner) error) ([]Cmder, error)
	TxPipeline() Pipeliner
	Pipeline() Pipeliner
}

type UniversalClient interface {
	Cmdable
	Watch(fn func(*Tx) error, keys ...string) error
	Do(args ...interface{}) *Cmd
	Close() error
}

type Pipeliner interface {
	Cmdable
	Exec() ([]Cmder, error)
}

type cmdable func(cmd Cmder) error

func (c cmdable) Get(key string) *StringCmd    { return &StringCmd{} }
func (c cmdable) GetDel(key string) *StringCmd { return &StringCmd{} }
func (c cmdable) Set(key string, value interface{}, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) SetNX(key string, value interface{}, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) SetXX(key string, value interface{}, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) SetEx(key string, value interface{}, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) SetArgs(key string, value interface{}, a SetArgs) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) Del(keys ...string) *IntCmd    { return &IntCmd{} }
func (c cmdable) Unlink(keys ...string) *IntCmd { return &IntCmd{} }
func (c cmdable) DelExArgs(key string, a DelExArgs) *IntCmd {
	return &IntCmd{}
}
func (c cmdable) Expire(key string, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) PExpire(key string, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c cmdable) ExpireAt(key string, tm time.Time) *BoolCmd { return &BoolCmd{} }
func (c cmdable) Incr(key string) *IntCmd                    { return &IntCmd{} }
func (c cmdable) Eval(script string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (c cmdable) EvalSha(sha1 string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
func (c cmdable) ScriptLoad(script string) *StringCmd { return &StringCmd{} }
func (c cmdable) TxPipelined(fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}
func (c cmdable) Pipelined(fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}
func (c cmdable) TxPipeline() Pipeliner { return &Pipeline{} }
func (c cmdable) Pipeline() Pipeliner   { return &Pipeline{} }

type Client struct{ cmdable }

func NewClient(opt *Options) *Client { return &Client{} }

func (c *Client) Watch(fn func(*Tx) error, keys ...string) error { return nil }
func (c *Client) Do(args ...interface{}) *Cmd                    { return &Cmd{} }
func (c *Client) Close() error                                   { return nil }

type ClusterClient struct{ cmdable }

func (c *ClusterClient) Watch(fn func(*Tx) error, keys ...string) error {
	return nil
}
func (c *ClusterClient) Do(args ...interface{}) *Cmd { return &Cmd{} }
func (c *ClusterClient) Close() error                { return nil }

type Ring struct{ cmdable }

type Tx struct{ cmdable }

func (c *Tx) Watch(keys ...string) *StatusCmd { return &StatusCmd{} }

func (c *Tx) Pipelined(fn func(Pipeliner) error) ([]Cmder, error) { return nil, nil }

type Pipeline struct{ cmdable }

func (c *Pipeline) Exec() ([]Cmder, error) { return nil, nil }

type Script struct{ src string }

func NewScript(src string) *Script { return &Script{src: src} }

func (s *Script) Run(c Scripter, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
