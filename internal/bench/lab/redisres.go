package lab

import (
	"context"
	"errors"
	"strconv"

	"github.com/locklint/locklint/safelock/fence"
	"github.com/redis/go-redis/v9"
)

// redisResource is the protected counter as a Redis key on a server of its
// own (the lock servers' faults do not touch it), written with
// safelock/fence's SetScript when the fence is checked. Each write or
// claim runs in MULTI with an INCR of a sequence key, so the sequence
// number it gets back is the resource's own order of the attempt; the
// holder reports it with the outcome.
type redisResource struct {
	c             *redis.Client
	key, fk, seqK string
}

func newRedisResource(addr, key string) (*redisResource, error) {
	fk, err := fence.RedisFenceKey(key)
	if err != nil {
		return nil, err
	}
	return &redisResource{c: redis.NewClient(&redis.Options{Addr: addr}), key: key, fk: fk, seqK: key + ":seq"}, nil
}

func (r *redisResource) close() error { return r.c.Close() }

func (r *redisResource) read(ctx context.Context) (int64, error) {
	v, err := r.c.Get(ctx, r.key).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return v, err
}

// claim records the grant's fence by a fenced write of the value it
// finds, under WATCH, so that no write lands between that read and the
// claim (which would otherwise be undone).
func (r *redisResource) claim(ctx context.Context, gid, f int64) (bool, int64, error) {
	for {
		var accepted bool
		var seq int64
		err := r.c.Watch(ctx, func(tx *redis.Tx) error {
			v, err := tx.Get(ctx, r.key).Int64()
			if err != nil && !errors.Is(err, redis.Nil) {
				return err
			}
			accepted, seq, err = r.exec(ctx, tx, gid, f, true, v)
			return err
		}, r.key)
		if errors.Is(err, redis.TxFailedErr) {
			continue // the key changed under the WATCH: read again
		}
		return accepted, seq, err
	}
}

func (r *redisResource) write(ctx context.Context, gid, f int64, fenced bool, read int64) (bool, int64, error) {
	return r.exec(ctx, r.c, gid, f, fenced, read+1)
}

// exec writes value (fenced by SetScript, or plainly) and takes the next
// sequence number in one MULTI.
func (r *redisResource) exec(ctx context.Context, c redis.Cmdable, gid, f int64, fenced bool, value int64) (bool, int64, error) {
	var set *redis.Cmd
	var plain *redis.StatusCmd
	var seq *redis.IntCmd
	_, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if fenced {
			set = p.Eval(ctx, fence.SetScript, []string{r.key, r.fk}, strconv.FormatInt(f, 10), strconv.FormatInt(gid, 10), value)
		} else {
			plain = p.Set(ctx, r.key, value, 0)
		}
		seq = p.Incr(ctx, r.seqK)
		return nil
	})
	if err != nil {
		return false, 0, err
	}
	if !fenced {
		return plain.Err() == nil, seq.Val(), plain.Err()
	}
	n, err := set.Int()
	return n == 1, seq.Val(), err
}
