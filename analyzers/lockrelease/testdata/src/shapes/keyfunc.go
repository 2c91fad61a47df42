package shapes

import (
	"context"
	"errors"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

// A processing lock whose key comes from a function kept in a field: the
// same function in Start and Finish, so one key.
type Processing struct {
	rdb     *goredis.Client
	keyFunc func(chat string) string
}

func (p *Processing) Start(ctx context.Context, chat string) error {
	ok, err := p.rdb.SetNX(ctx, p.keyFunc(chat), "1", 2*time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func (p *Processing) Finish(ctx context.Context, chat string) error {
	return p.rdb.Del(ctx, p.keyFunc(chat)).Err() // want `lock p.keyFunc\(chat\) is deleted with DEL without checking`
}

// A key function passed in by each caller may differ from call to call:
// the DEL below deletes whatever key its caller names.
func ClearWith(ctx context.Context, rdb *goredis.Client, keyOf func(string) string, id string) error {
	return rdb.Del(ctx, keyOf(id)).Err()
}

func TakeWith(ctx context.Context, rdb *goredis.Client, keyOf func(string) string, id string) (bool, error) {
	return rdb.SetNX(ctx, keyOf(id), "1", time.Hour).Result()
}
