package worker

import "context"

func (l *Lock) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.token, l.ttl).Result()
}

func (l *Lock) Unlock(ctx context.Context) error {
	return l.rdb.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`,
		[]string{l.key}, l.token).Err()
}
