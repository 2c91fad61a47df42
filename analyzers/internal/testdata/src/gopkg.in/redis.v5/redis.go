// Package redis is a stand-in for gopkg.in/redis.v5, go-redis before it
// moved to github.com/go-redis/redis: the same methods without a context.
package redis

import "time"

type Options struct{ Addr string }

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
func (c *IntCmd) Err() error             { return c.err }

type StringCmd struct {
	val string
	err error
}

func (c *StringCmd) Result() (string, error) { return c.val, c.err }

type Cmd struct {
	val interface{}
	err error
}

func (c *Cmd) Result() (interface{}, error) { return c.val, c.err }
func (c *Cmd) Err() error                   { return c.err }

type Client struct{}

func NewClient(opt *Options) *Client { return &Client{} }

func (c *Client) SetNX(key string, value interface{}, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c *Client) Get(key string) *StringCmd  { return &StringCmd{} }
func (c *Client) Del(keys ...string) *IntCmd { return &IntCmd{} }
func (c *Client) Expire(key string, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}
func (c *Client) Eval(script string, keys []string, args ...interface{}) *Cmd { return &Cmd{} }
