// Package gredis is a stub of GoFrame v1's gredis (github.com/gogf/gf
// v1.16) for locklint's tests: commands go through Do, with no context,
// on the client or on one of its connections.
package gredis

import (
	"context"
	"time"
)

type Redis struct{}

type Conn struct{}

type Var struct{}

func (r *Redis) Ctx(ctx context.Context) *Redis { return r }
func (r *Redis) Conn() *Conn                    { return &Conn{} }
func (r *Redis) Close() error                   { return nil }

func (r *Redis) Do(commandName string, args ...interface{}) (interface{}, error) { return nil, nil }
func (r *Redis) DoWithTimeout(timeout time.Duration, commandName string, args ...interface{}) (interface{}, error) {
	return nil, nil
}
func (r *Redis) DoVar(commandName string, args ...interface{}) (*Var, error) { return nil, nil }
func (r *Redis) DoVarWithTimeout(timeout time.Duration, commandName string, args ...interface{}) (*Var, error) {
	return nil, nil
}

func (c *Conn) Do(commandName string, args ...interface{}) (interface{}, error) { return nil, nil }
func (c *Conn) DoVar(commandName string, args ...interface{}) (*Var, error)     { return nil, nil }
func (c *Conn) Close() error                                                    { return nil }
