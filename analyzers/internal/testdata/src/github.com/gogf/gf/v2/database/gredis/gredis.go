// Package gredis is a stub of GoFrame's gredis (github.com/gogf/gf/v2) for
// locklint's tests: the Redis type embeds the adapter interfaces whose
// methods are the commands, as the real package does.
package gredis

import (
	"context"

	"github.com/gogf/gf/v2/container/gvar"
)

type SetOption struct {
	TTLOption
	NX, XX, Get bool
}

type TTLOption struct {
	EX, PX *int64
}

type ExpireOption struct{ NX, XX, GT, LT bool }

type IGroupString interface {
	Set(ctx context.Context, key string, value any, option ...SetOption) (*gvar.Var, error)
	SetNX(ctx context.Context, key string, value any) (bool, error)
	SetEX(ctx context.Context, key string, value any, ttlInSeconds int64) error
	Get(ctx context.Context, key string) (*gvar.Var, error)
	GetDel(ctx context.Context, key string) (*gvar.Var, error)
	Incr(ctx context.Context, key string) (int64, error)
}

type IGroupGeneric interface {
	Del(ctx context.Context, keys ...string) (int64, error)
	Expire(ctx context.Context, key string, seconds int64, option ...ExpireOption) (int64, error)
	PExpire(ctx context.Context, key string, milliseconds int64, option ...ExpireOption) (int64, error)
}

type IGroupScript interface {
	Eval(ctx context.Context, script string, numKeys int64, keys []string, args []any) (*gvar.Var, error)
	EvalSha(ctx context.Context, sha1 string, numKeys int64, keys []string, args []any) (*gvar.Var, error)
}

type Adapter interface {
	Do(ctx context.Context, command string, args ...any) (*gvar.Var, error)
	IGroupString
	IGroupGeneric
	IGroupScript
}

type Redis struct {
	Adapter
}

func Instance(name ...string) *Redis { return &Redis{} }
