package mutex

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
)

// A cron scheduler whose task locks are hashes with an owner field: the
// owner is the node's hostname-PID, made by a helper in the constructor.
type CronScheduler struct {
	rdb    *redis.Client
	nodeID string
}

func NewCronScheduler(rdb *redis.Client) *CronScheduler {
	nodeID := generateNodeID()
	return &CronScheduler{rdb: rdb, nodeID: nodeID}
}

func generateNodeID() string {
	hostname, _ := os.Hostname()
	return fmt.Sprintf("%s-%d", hostname, os.Getpid()) // want `hostname and the process ID`
}

func (cs *CronScheduler) acquireTaskLock(ctx context.Context, taskID int64, ttl time.Duration) (bool, error) {
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
	n, err := cs.rdb.Eval(ctx, script, []string{key}, cs.nodeID, time.Now().Add(ttl).Unix()).Int()
	if err != nil {
		return false, err
	}
	return n == 1, nil
}

func (cs *CronScheduler) releaseTaskLock(ctx context.Context, taskID int64) {
	key := fmt.Sprintf("cron:lock:task:%d", taskID)
	script := `
		if redis.call("HGET", KEYS[1], "owner") == ARGV[1] then
			return redis.call("DEL", KEYS[1])
		else
			return 0
		end
	`
	cs.rdb.Eval(ctx, script, []string{key}, cs.nodeID)
}

// Near miss: the owner field holds a random token; the node's
// hostname-PID goes in a field of its own for people to read, and the
// script compares only the owner.
type TaskLocks struct {
	rdb  *redis.Client
	node string
}

func NewTaskLocks(rdb *redis.Client) *TaskLocks {
	host, _ := os.Hostname()
	return &TaskLocks{rdb: rdb, node: fmt.Sprintf("%s-%d", host, os.Getpid())}
}

func (l *TaskLocks) Acquire(ctx context.Context, taskID int64) (string, bool, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", false, err
	}
	token := hex.EncodeToString(b)
	script := `
		if redis.call("EXISTS", KEYS[1]) == 0 then
			redis.call("HSET", KEYS[1], "owner", ARGV[1], "node", ARGV[2])
			redis.call("PEXPIRE", KEYS[1], ARGV[3])
			return 1
		end
		return 0
	`
	n, err := l.rdb.Eval(ctx, script, []string{fmt.Sprintf("task:lock:%d", taskID)}, token, l.node, 30000).Int()
	return token, n == 1, err
}

func (l *TaskLocks) Release(ctx context.Context, taskID int64, token string) {
	script := `
		if redis.call("HGET", KEYS[1], "owner") == ARGV[1] then
			return redis.call("DEL", KEYS[1])
		end
		return 0
	`
	l.rdb.Eval(ctx, script, []string{fmt.Sprintf("task:lock:%d", taskID)}, token)
}
