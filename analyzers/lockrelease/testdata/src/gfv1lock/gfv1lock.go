// Package gfv1lock locks through GoFrame v1's g.Redis().Do, which takes
// no context.
package gfv1lock

import (
	"fmt"

	"github.com/gogf/gf/frame/g"
)

const lockKey = "launchpad:lock:%s"

func DistributedLock(task string) bool {
	re, err := g.Redis().Do("SET", fmt.Sprintf(lockKey, task), 1, "ex", 3600, "nx")
	return err == nil && fmt.Sprintf("%v", re) == "OK"
}

func DistributedUnLock(task string) {
	g.Redis().Do("DEL", fmt.Sprintf(lockKey, task)) // want `lock fmt.Sprintf\(lockKey, task\) is deleted with DEL without checking that this holder still owns it`
}

// Near miss: a compare-and-delete through the same client.
func CheckedUnlock(task, token string) {
	g.Redis().Do("EVAL", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, 1, fmt.Sprintf(lockKey, task), token)
}
