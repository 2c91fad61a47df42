// Package redis is a stand-in for go-zero's core/stores/redis: the
// RedisLock API (a random id per lock, SET NX PX by script, compare-and-
// delete release) with the signatures the analyzers match on.
package redis

import "context"

type Redis struct{}

func New(addr string) *Redis { return &Redis{} }

type RedisLock struct {
	store   *Redis
	seconds uint32
	key     string
	id      string
}

func NewRedisLock(store *Redis, key string) *RedisLock { return &RedisLock{store: store, key: key} }

func (rl *RedisLock) Acquire() (bool, error)                       { return false, nil }
func (rl *RedisLock) AcquireCtx(ctx context.Context) (bool, error) { return false, nil }
func (rl *RedisLock) Release() (bool, error)                       { return false, nil }
func (rl *RedisLock) ReleaseCtx(ctx context.Context) (bool, error) { return false, nil }
func (rl *RedisLock) SetExpire(seconds int)                        { rl.seconds = uint32(seconds) }

type Script struct{ src string }

func NewScript(script string) *Script { return &Script{src: script} }

func (s *Redis) Setnx(key, value string) (bool, error)                         { return false, nil }
func (s *Redis) SetnxCtx(ctx context.Context, key, value string) (bool, error) { return false, nil }
func (s *Redis) SetnxEx(key, value string, seconds int) (bool, error)          { return false, nil }
func (s *Redis) SetnxExCtx(ctx context.Context, key, value string, seconds int) (bool, error) {
	return false, nil
}
func (s *Redis) Set(key, value string) error                                        { return nil }
func (s *Redis) SetCtx(ctx context.Context, key, value string) error                { return nil }
func (s *Redis) Setex(key, value string, seconds int) error                         { return nil }
func (s *Redis) SetexCtx(ctx context.Context, key, value string, seconds int) error { return nil }
func (s *Redis) Get(key string) (string, error)                                     { return "", nil }
func (s *Redis) GetCtx(ctx context.Context, key string) (string, error)             { return "", nil }
func (s *Redis) Expire(key string, seconds int) error                               { return nil }
func (s *Redis) ExpireCtx(ctx context.Context, key string, seconds int) error       { return nil }
func (s *Redis) Del(keys ...string) (int, error)                                    { return 0, nil }
func (s *Redis) DelCtx(ctx context.Context, keys ...string) (int, error)            { return 0, nil }
func (s *Redis) Incr(key string) (int64, error)                                     { return 0, nil }
func (s *Redis) HsetCtx(ctx context.Context, key, field, value string) error        { return nil }
func (s *Redis) Eval(script string, keys []string, args ...any) (any, error)        { return nil, nil }
func (s *Redis) EvalCtx(ctx context.Context, script string, keys []string, args ...any) (any, error) {
	return nil, nil
}
func (s *Redis) ScriptRunCtx(ctx context.Context, script *Script, keys []string, args ...any) (any, error) {
	return nil, nil
}
