package value

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The script writes the lock's value itself: the constant '1'.
var takeLogicLock = redis.NewScript(`local val = redis.call('GET', KEYS[1])
if val == '1' then
  return 1
end
redis.call('SETEX', KEYS[1], 60, '1')
return 0`)

func moveDeadLetters(ctx context.Context, rdb *redis.Client) {
	if v, _ := takeLogicLock.Run(ctx, rdb, []string{"dead_letter_lock"}).Int(); v == 1 { // want `lock "dead_letter_lock" stores the constant "1", written by its Lua script, as its value`
		return
	}
	defer rdb.Del(ctx, "dead_letter_lock")
}

// Near miss: the script stores the token its caller passes.
var takeTokenLock = redis.NewScript(`return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`)

func moveWithToken(ctx context.Context, rdb *redis.Client, token string) {
	if ok, _ := takeTokenLock.Run(ctx, rdb, []string{"token_lock"}, token, 60000).Bool(); !ok {
		return
	}
	defer rdb.Del(ctx, "token_lock")
}
