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

// A script that reads the flag, run with its arguments spread, does not
// make it a lock: its text says it only tests KEYS[2], and its writes go
// to a job hash whose key it builds from ARGV.
var takeJob = redis.NewScript(`
if redis.call("EXISTS", KEYS[2]) == 0 then
	local id = redis.call("RPOP", KEYS[1])
	if id then
		redis.call("HDEL", ARGV[1] .. id, "queued_at")
		return id
	end
end
return nil`)

func TakeJob(ctx context.Context, c *redis.Client, site string, argv ...any) (string, error) {
	return takeJob.Run(ctx, c, []string{"site:" + site + ":jobs", maintenanceKey(site)}, argv...).Text()
}

// Run with spread arguments, a script that deletes the lock's key without
// comparing it is still an unchecked delete.
var dropKey = redis.NewScript(`return redis.call("DEL", KEYS[1])`)

func RebuildQuick(ctx context.Context, c *redis.Client, site string, argv ...any) error {
	ok, err := c.SetNX(ctx, rebuildKey(site)+":quick", time.Now().Unix(), 0).Result()
	if err != nil || !ok {
		return err
	}
	return dropKey.Run(ctx, c, []string{rebuildKey(site) + ":quick"}, argv...).Err() // want `the Lua script deletes lock rebuildKey\(site\) \+ ":quick" without comparing its value`
}
