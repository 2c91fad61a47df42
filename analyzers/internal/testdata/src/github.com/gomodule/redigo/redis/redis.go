// Package redis is a minimal stand-in for github.com/gomodule/redigo/redis.
package redis

import (
	"context"
	"time"
)

type Conn interface {
	Close() error
	Err() error
	Do(commandName string, args ...interface{}) (reply interface{}, err error)
	Send(commandName string, args ...interface{}) error
	Flush() error
	Receive() (reply interface{}, err error)
}

type ConnWithContext interface {
	Conn
	DoContext(ctx context.Context, commandName string, args ...interface{}) (reply interface{}, err error)
}

func DoContext(c Conn, ctx context.Context, cmd string, args ...interface{}) (interface{}, error) {
	return nil, nil
}

func DoWithTimeout(c Conn, timeout time.Duration, cmd string, args ...interface{}) (interface{}, error) {
	return nil, nil
}

type Pool struct{ Dial func() (Conn, error) }

func (p *Pool) Get() Conn { return nil }

func String(reply interface{}, err error) (string, error) { return "", err }
func Int(reply interface{}, err error) (int, error)       { return 0, err }
func Int64(reply interface{}, err error) (int64, error)   { return 0, err }
func Bool(reply interface{}, err error) (bool, error)     { return false, err }

var ErrNil error

type Args []interface{}

func (a Args) Add(v ...interface{}) Args { return append(a, v...) }

type Script struct {
	keyCount int
	src      string
}

func NewScript(keyCount int, src string) *Script { return &Script{keyCount, src} }

func (s *Script) Do(c Conn, keysAndArgs ...interface{}) (interface{}, error) { return nil, nil }
func (s *Script) Send(c Conn, keysAndArgs ...interface{}) error              { return nil }
