package release

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A lock API whose functions take the key and the owner from the caller:
// named as a lock (LockAdd, LockDel), it is one, and its release checks
// ownership with a separate GET.
type Pool struct{ rdb *redis.Client }

func (p *Pool) LockAdd(ctx context.Context, key, id string) bool {
	return p.rdb.SetNX(ctx, key, id, time.Minute).Val()
}

func (p *Pool) LockGet(ctx context.Context, key string) string {
	return p.rdb.Get(ctx, key).Val()
}

func (p *Pool) LockDel(ctx context.Context, key, id string) bool {
	if p.LockGet(ctx, key) == id {
		return p.rdb.Del(ctx, key).Val() == 1 // want `lock key is read with GET and then deleted with a separate DEL`
	}
	return false
}

// A data API named after the commands passes key and value through: its
// SetNX and Del are no lock.
type KV struct{ rdb *redis.Client }

func (k *KV) SetNX(ctx context.Context, key, v string) bool {
	return k.rdb.SetNX(ctx, key, v, time.Minute).Val()
}

func (k *KV) Del(ctx context.Context, key string) { k.rdb.Del(ctx, key) }

// The name says model, not del: no release.
func (k *KV) Model(ctx context.Context, key string) { k.rdb.Del(ctx, key) }

// A service with a lock and cache deletes: deleting the cache is no
// release of the lock, even from a method of the same type.
type ShopService struct{ rdb *redis.Client }

func (s *ShopService) tryLock(ctx context.Context, key string) bool {
	return s.rdb.SetNX(ctx, key, "1", 10*time.Second).Val()
}

func (s *ShopService) deleteShopCache(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, key).Err()
}
