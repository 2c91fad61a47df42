// Package redis is a stand-in for go-zero's core/stores/redis: the
// RedisLock API (a random id per lock, SET NX PX by script, compare-and-
// delete release) with the signatures the analyzers match on.
package redis

import (
	"context"

	red "github.com/redis/go-redis/v9"
)

// The real package runs on go-redis.
var _ = red.Nil

type Redis struct{}

func New(addr string) *Redis { return &Redis{} }

type RedisLock struct {
	store   *Redis
	seconds uint32
	key     string
	id      string
}

func NewRedisLock(store *Redis, key string) *RedisLock { return &RedisLock{store: store, key: key} }

func (rl *RedisLock) Acquire() (bool, error) { return false, nil }
func (rl *RedisLock) AcquireCtx(ctx context.Context) (bool, error) {
	// As go-zero does: a script that sets the key NX PX to the lock's id.
	resp, err := rl.store.ScriptRunCtx(ctx, lockScript, []string{rl.key}, rl.id, int(rl.seconds)*1000+500)
	if err != nil {
		return false, err
	}
	return resp == "OK", nil
}

var lockScript = NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
    redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
    return "OK"
else
    return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])
end`)

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
