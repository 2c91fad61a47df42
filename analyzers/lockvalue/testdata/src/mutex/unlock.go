package mutex

import "context"

const unlockSrc = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func (m *Mutex) Unlock(ctx context.Context) error {
	return m.rdb.Eval(ctx, unlockSrc, []string{m.key}, m.value).Err()
}

func (o *Owner) Unlock(ctx context.Context) {
	o.rdb.Del(ctx, o.key)
}

func (s *Safe) Unlock(ctx context.Context) {
	s.rdb.Eval(ctx, unlockSrc, []string{s.key}, s.token)
}
