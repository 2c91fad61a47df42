// Package jsoncache stores JSON: the value its callers pass is marshalled
// first, which keeps a constant constant and a token unique.
package jsoncache

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cache struct {
	rdb  *redis.Client
	node string
}

func (c *Cache) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	data, err := json.Marshal(value)
	if err != nil {
		return false, err
	}
	return c.rdb.SetNX(ctx, key, data, ttl).Result()
}

// Tagged stores the value behind this node's name: not the caller's value alone.
func (c *Cache) Tagged(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, c.node+":"+fmt.Sprint(value), ttl).Result()
}

// Codec is a serializer kept in a package variable, as
// var json = jsoniter.ConfigCompatibleWithStandardLibrary is.
type Codec interface {
	Marshal(v any) ([]byte, error)
}

type stdCodec struct{}

func (stdCodec) Marshal(v any) ([]byte, error) { return json.Marshal(v) }

var codec Codec = stdCodec{}

// SetNXCodec marshals with the package's codec: a constant stays constant.
func (c *Cache) SetNXCodec(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	data, err := codec.Marshal(value)
	if err != nil {
		return false, err
	}
	return c.rdb.SetNX(ctx, key, data, ttl).Result()
}

// Sealer is shared too, but sealing adds a fresh nonce to every value.
type Sealer interface {
	Seal(v any) []byte
}

var sealer Sealer

// SetNXSealed stores a sealed value: unique even for a constant.
func (c *Cache) SetNXSealed(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, sealer.Seal(value), ttl).Result()
}

func (c *Cache) Del(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, key).Err()
}
