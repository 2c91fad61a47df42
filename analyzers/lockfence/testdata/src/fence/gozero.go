package fence

import (
	"context"
	"time"

	zredis "github.com/zeromicro/go-zero/core/stores/redis"
	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

var (
	zstore *zredis.Redis
	zconn  sqlx.SqlConn
)

// A go-zero job: the RedisLock guards a SQL update through go-zero's sqlx.
func zeroRecompute(ctx context.Context, day string) error {
	lock := zredis.NewRedisLock(zstore, "rank:"+day)
	lock.SetExpire(3600)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	defer lock.ReleaseCtx(context.Background())
	var n int
	if err := zconn.QueryRowCtx(ctx, &n, "SELECT count(*) FROM posts WHERE day = ?", day); err != nil { // a read
		return err
	}
	_, err = zconn.ExecCtx(ctx, "UPDATE posts SET hot_score = hot_score * 0.5 WHERE day = ?", day) // want `sqlx SqlConn.ExecCtx under lock "rank:" \+ day \(go-zero RedisLock.AcquireCtx\) carries no fencing token`
	return err
}

// The write happens after the release: nothing to fence.
func zeroAfter(ctx context.Context, day string) error {
	lock := zredis.NewRedisLock(zstore, "rank2:"+day)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	_, _ = lock.ReleaseCtx(ctx)
	_, err = zconn.ExecCtx(ctx, "UPDATE posts SET seen = 1 WHERE day = ?", day)
	return err
}

// A tick's run marker through go-zero's RedisLock: the key names one
// minute and the lock outlives it, so nobody takes it again. The lock is
// read both as go-zero's and through the SET NX inside AcquireCtx; only
// the library's reading knows the key it was made with.
func zeroTick(ctx context.Context) error {
	bucket := time.Now().UTC().Format("200601021504")
	lock := zredis.NewRedisLock(zstore, "hot:fast:"+bucket)
	lock.SetExpire(120)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	_, err = zconn.ExecCtx(ctx, "INSERT INTO snapshots (bucket) VALUES (?)", bucket)
	return err
}
