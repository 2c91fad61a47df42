package fence

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

var rc rueidis.Client

func rueidisLock(ctx context.Context, id, token string) error {
	key := "lock:cart:" + id
	err := rc.Do(ctx, rc.B().Set().Key(key).Value(token).Nx().Px(10*time.Second).Build()).Error()
	if err != nil {
		rc.Do(ctx, rc.B().Set().Key("cart:"+id+":busy").Value("1").Build())
		return err
	}
	defer rc.Do(ctx, rc.B().Del().Key(key).Build())
	return rc.Do(ctx, rc.B().Set().Key("cart:"+id).Value("checked-out").Build()).Error() // want `Redis SET under lock key \(SET NX\) carries no fencing token`
}
