package renew

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
)

// SETNX, then EXPIRE before anyone looks at the reply: a caller that did
// not get the lock re-arms the holder's TTL.
func tryLockEitherWay(ctx context.Context, key string) (bool, error) {
	ok, err := rdb.SetNX(ctx, key, newToken(), 0).Result()
	if err != nil {
		return false, err
	}
	rdb.Expire(ctx, key, ttl) // want `EXPIRE of lock key runs whether or not the SET NX took the lock: when another process holds it, this re-arms their lock`
	return ok, nil
}

// A retry loop that sends EXPIRE on every attempt (redigo).
func spinEitherWay(conn redigo.Conn, key string) error {
	for {
		res, err := conn.Do("SETNX", key, "locking")
		if err != nil {
			return err
		}
		if _, err := conn.Do("EXPIRE", key, 10); err != nil { // want `EXPIRE of lock key runs whether or not the SETNX took the lock`
			return err
		}
		if res.(int64) == 1 {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An INCR counter lock whose EXPIRE runs for every caller.
func incrEitherWay(conn redigo.Conn, key string, secs int) bool {
	n, err := redigo.Int64(conn.Do("INCR", key))
	if err != nil {
		return false
	}
	if secs > 0 {
		conn.Do("EXPIRE", key, secs) // want `EXPIRE of lock key runs whether or not the INCR took the lock`
	}
	return n == 1
}

// SETNX and EXPIRE queued in one MULTI: atomic, but the EXPIRE runs when
// the SETNX failed too.
func multiEitherWay(ctx context.Context, key string) bool {
	p := rdb.TxPipeline()
	set := p.SetNX(ctx, key, newToken(), 0)
	p.Expire(ctx, key, ttl) // want `EXPIRE of lock key runs whether or not the SET NX took the lock`
	if _, err := p.Exec(ctx); err != nil {
		return false
	}
	return set.Val()
}

// Near miss: the failure returns before the EXPIRE.
func tryLockTested(ctx context.Context, key string) (bool, error) {
	ok, err := rdb.SetNX(ctx, key, newToken(), 0).Result()
	if err != nil || !ok {
		return false, err
	}
	rdb.Expire(ctx, key, ttl)
	return true, nil
}

// Near miss: the loop leaves on success before the EXPIRE, which runs
// only after it took the lock.
func spinTested(conn redigo.Conn, key string) error {
	for {
		res, err := redigo.Int(conn.Do("SETNX", key, "locking"))
		if err != nil {
			return err
		}
		if res == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, err := conn.Do("EXPIRE", key, 10)
	return err
}

// Near miss: a key found without a TTL (its holder died between SETNX and
// EXPIRE) gets one: the repair reads the TTL first.
func repairMissingTTL(ctx context.Context, key string) bool {
	ok := rdb.SetNX(ctx, key, newToken(), 0).Val()
	if rdb.TTL(ctx, key).Val() == -1 {
		rdb.Expire(ctx, key, ttl)
	}
	return ok
}

// Near miss: EXPIRE ... NX sets a TTL only where there is none.
func expireNX(ctx context.Context, key string) bool {
	ok := rdb.SetNX(ctx, key, newToken(), 0).Val()
	rdb.ExpireNX(ctx, key, ttl)
	return ok
}
