package scriptreply

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/cast"
)

var rdb = redis.NewClient(&redis.Options{})

// Answers 0 when it took the lock, 1 when the key was held.
var takeOrSayHeld = redis.NewScript(`local v = redis.call('GET', KEYS[1])
if v == '1' then
	return 1
end
redis.call('SETEX', KEYS[1], 60, '1')
return 0`)

// Answers 1 when it took the lock, 0 when the key was held.
var takeOrSayFree = redis.NewScript(`if redis.call('GET', KEYS[1]) then
	return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
return 1`)

func moveIdle(ctx context.Context, stream string) {
	ticker := time.NewTicker(time.Second)
	for range ticker.C {
		if v := takeOrSayHeld.Run(ctx, rdb, []string{stream + ":lock"}).Val(); cast.ToInt64(v) == 1 { // want `the lock script answers 0 when it takes the lock and 1 when the key is held, and its error is dropped \(read with Val\(\)\)`
			continue
		}
		rdb.HSet(ctx, stream+":moved", "at", time.Now().Unix())
		rdb.Del(ctx, stream+":lock")
	}
}

func sweep(ctx context.Context, stream string) {
	n, _ := takeOrSayHeld.Run(ctx, rdb, []string{stream + ":lock"}).Int() // want `its error is dropped \(assigned to _\)`
	if n == 1 {
		return
	}
	rdb.HSet(ctx, stream+":swept", "at", time.Now().Unix())
	rdb.Del(ctx, stream+":lock")
}

// Near miss: the error is checked.
func sweepChecked(ctx context.Context, stream string) error {
	n, err := takeOrSayHeld.Run(ctx, rdb, []string{stream + ":lock"}).Int()
	if err != nil || n == 1 {
		return err
	}
	rdb.HSet(ctx, stream+":swept", "at", time.Now().Unix())
	return rdb.Del(ctx, stream+":lock").Err()
}

// Near miss: a script that answers 1 for "acquired" fails closed when
// the error is dropped (the reply reads 0, "held").
func sweepFree(ctx context.Context, stream, token string) {
	if v := takeOrSayFree.Run(ctx, rdb, []string{stream + ":lock"}, token, 60000).Val(); cast.ToInt64(v) != 1 {
		return
	}
	rdb.HSet(ctx, stream+":swept", "at", time.Now().Unix())
	rdb.Del(ctx, stream+":lock")
}

// Near miss: v.(int64) on the nil reply of a failed call panics, which
// fails closed.
func moveAsserted(ctx context.Context, stream string) {
	if v := takeOrSayHeld.Run(ctx, rdb, []string{stream + ":lock"}).Val(); v.(int64) == 1 {
		return
	}
	rdb.HSet(ctx, stream+":moved", "at", time.Now().Unix())
	rdb.Del(ctx, stream+":lock")
}

// But a comma-ok assertion reads the nil reply as 0, "acquired".
func moveCommaOK(ctx context.Context, stream string) {
	v := takeOrSayHeld.Run(ctx, rdb, []string{stream + ":lock"}).Val() // want `its error is dropped \(read with Val\(\)\)`
	if n, _ := v.(int64); n == 1 {
		return
	}
	rdb.HSet(ctx, stream+":moved", "at", time.Now().Unix())
	rdb.Del(ctx, stream+":lock")
}
