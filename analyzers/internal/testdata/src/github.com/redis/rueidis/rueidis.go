// Package rueidis is a minimal stand-in for github.com/redis/rueidis.
package rueidis

import (
	"context"

	"github.com/redis/rueidis/internal/cmds"
)

type Completed = cmds.Completed

type RedisResult struct{}

func (r RedisResult) Error() error              { return nil }
func (r RedisResult) AsBool() (bool, error)     { return false, nil }
func (r RedisResult) ToString() (string, error) { return "", nil }

type Client interface {
	B() cmds.Builder
	Do(ctx context.Context, cmd Completed) RedisResult
	DoMulti(ctx context.Context, multi ...Completed) []RedisResult
	Close()
}

type ClientOption struct{ InitAddress []string }

func NewClient(opt ClientOption) (Client, error) { return nil, nil }

type Lua struct{ src string }

func NewLuaScript(script string) *Lua { return &Lua{script} }

func (s *Lua) Exec(ctx context.Context, c Client, keys, args []string) RedisResult {
	return RedisResult{}
}
