package lease

import (
	"context"
	"net/http"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/locklint/locklint/safelock"
)

// Clients and lockers set once in a constructor are seen through.
type Service struct {
	client *http.Client
	locker *safelock.Locker
	mu     *redsync.Mutex
}

func NewService() *Service {
	return &Service{
		client: &http.Client{Timeout: 45 * time.Second},
		locker: safelock.New(rdb),
		mu:     rs.NewMutex("service", redsync.WithExpiry(20*time.Second)),
	}
}

func (s *Service) Push(ctx context.Context, req *http.Request) error {
	lease, err := s.locker.TryAcquire(ctx, "push", 15*time.Second)
	if err != nil {
		return err
	}
	defer lease.Release(ctx)
	_, err = s.client.Do(req) // a bound, not a wait
	return err
}

func (s *Service) Pull(ctx context.Context) error {
	if err := s.mu.LockContext(ctx); err != nil {
		return err
	}
	defer s.mu.UnlockContext(ctx)
	_, err := s.client.Get("http://example.invalid/pull") // a bound, not a wait
	return err
}
