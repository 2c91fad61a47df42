package release

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A maintenance marker set with NX in one function and cleared in another,
// with no TTL and no lock word, is a state flag: deleting it without an
// owner check is how it is meant to be cleared.

func maintenanceKey(site string) string { return "site:" + site + ":maintenance" }

func EnterMaintenance(ctx context.Context, c *redis.Client, site string) (bool, error) {
	return c.SetNX(ctx, maintenanceKey(site), time.Now().Unix(), 0).Result()
}

func LeaveMaintenance(ctx context.Context, c *redis.Client, site string) error {
	return c.Del(ctx, maintenanceKey(site)).Err()
}

// Acquired and deleted in one function, the same marker guards a critical
// section: that is a lock, and the unchecked DEL is reported.

func rebuildKey(site string) string { return "site:" + site + ":rebuild" }

func Rebuild(ctx context.Context, c *redis.Client, site string) error {
	ok, err := c.SetNX(ctx, rebuildKey(site), time.Now().Unix(), 0).Result()
	if err != nil || !ok {
		return err
	}
	return c.Del(ctx, rebuildKey(site)).Err() // want `lock rebuildKey\(site\) is deleted with DEL without checking`
}
