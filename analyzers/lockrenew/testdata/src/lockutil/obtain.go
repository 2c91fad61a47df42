package lockutil

import (
	"context"
	"math/rand"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Obtain stores a token of its own and returns it.
func Obtain(ctx context.Context, rdb redis.Cmdable, key string, ttl time.Duration) (string, bool) {
	tok := strconv.FormatInt(rand.Int63(), 36) + strconv.FormatInt(rand.Int63(), 36)
	return tok, rdb.SetNX(ctx, key, tok, ttl).Val()
}
