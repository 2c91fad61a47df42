// Package hashlock takes task locks as hashes in a script: HSET of an
// owner (and a deadline field) when the key does not exist.
package hashlock

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/redis/go-redis/v9"

	"tasksvc"
)

type scheduler struct {
	rdb    *redis.Client
	svc    *tasksvc.Service
	nodeID string
}

func (s *scheduler) executeTask(ctx context.Context, taskID int64, run func(context.Context) error) {
	ttl := 600 * time.Second
	acquired, err := s.acquireTaskLock(ctx, taskID, ttl)
	if err != nil || !acquired {
		return
	}
	defer s.releaseTaskLock(ctx, taskID)
	// The execution's own lock (with a TTL) is not the task lock's.
	if _, err := s.svc.Trigger(ctx, taskID); err == nil {
		_ = run(ctx)
	}
}

// The deadline field is never read, and the key gets no TTL: a holder
// that dies leaves the task locked for good.
func (s *scheduler) acquireTaskLock(ctx context.Context, taskID int64, ttl time.Duration) (bool, error) {
	key := fmt.Sprintf("cron:lock:task:%d", taskID)
	script := `
		if redis.call("EXISTS", KEYS[1]) == 0 then
			redis.call("HSET", KEYS[1], "owner", ARGV[1], "expire", ARGV[2])
			return 1
		elseif redis.call("HGET", KEYS[1], "owner") == ARGV[1] then
			redis.call("HSET", KEYS[1], "expire", ARGV[2])
			return 1
		else
			return 0
		end
	`
	n, err := s.rdb.Eval(ctx, script, []string{key}, s.nodeID, time.Now().Add(ttl).Unix()).Int() // want `lock key is acquired with EVAL without a TTL`
	if err != nil {
		return false, err
	}
	return n == 1, nil
}

func (s *scheduler) releaseTaskLock(ctx context.Context, taskID int64) {
	if s.rdb == nil {
		return
	}
	key := fmt.Sprintf("cron:lock:task:%d", taskID)
	script := `
		if redis.call("HGET", KEYS[1], "owner") == ARGV[1] then
			return redis.call("DEL", KEYS[1])
		else
			return 0
		end
	`
	result, err := s.rdb.Eval(ctx, script, []string{key}, s.nodeID).Int()
	if err != nil {
		log.Printf("release task %d: %v", taskID, err)
		return
	}
	if result == 0 {
		log.Printf("task %d lock already released or owned by another node", taskID)
	}
}

func (s *scheduler) renewTaskLock(ctx context.Context, taskID int64, ttl time.Duration) error {
	key := fmt.Sprintf("cron:lock:task:%d", taskID)
	script := `
		if redis.call("HGET", KEYS[1], "owner") == ARGV[1] then
			redis.call("HSET", KEYS[1], "expire", ARGV[2])
			return 1
		else
			return 0
		end
	`
	n, err := s.rdb.Eval(ctx, script, []string{key}, s.nodeID, time.Now().Add(ttl).Unix()).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("lock not owned by this node")
	}
	return nil
}

// Near miss: a job lock given its TTL by a helper the caller runs right
// after taking it, on a key the names cannot tie to the lock.
type jobs struct {
	rdb *redis.Client
}

func (j *jobs) take(ctx context.Context, name string) bool {
	ok, _ := j.rdb.SetNX(ctx, "job:lock:"+name, "1", 0).Result()
	return ok
}

func (j *jobs) arm(ctx context.Context, key string) {
	j.rdb.Expire(ctx, key, time.Minute)
}

func (j *jobs) Run(ctx context.Context, name string) {
	if !j.take(ctx, name) {
		return
	}
	j.arm(ctx, lockName(name))
	defer j.rdb.Del(ctx, "job:lock:"+name)
}

func lockName(name string) string { return "job:lock:" + name }
