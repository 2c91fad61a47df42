// Package tasksvc starts task executions, each under a lock of its own
// with a TTL.
package tasksvc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Service struct{ rdb *redis.Client }

func (s *Service) Trigger(ctx context.Context, taskID int64) (string, error) {
	execID := fmt.Sprintf("exec-%d-%d", taskID, time.Now().UnixNano())
	ok, err := s.rdb.SetNX(ctx, "task:lock:"+execID, "1", time.Hour).Result()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errors.New("already running")
	}
	return execID, nil
}

func (s *Service) Finish(ctx context.Context, execID string) {
	s.rdb.Del(ctx, "task:lock:"+execID)
}
