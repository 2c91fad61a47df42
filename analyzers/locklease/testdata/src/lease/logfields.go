package lease

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
	"go.uber.org/zap"
)

// A failed ExtendContext goes to a structured log as a field
// (zap.Error(err)): still only logged, the holder never told.
func keepWithFields(ctx context.Context, m *redsync.Mutex) {
	go func() {
		ticker := time.NewTicker(time.Second)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
				ok, err := m.ExtendContext(ctx)
				if err != nil {
					zap.L().Error("extend lock error", zap.Error(err))
					continue
				}
				if !ok { // want `this keep-alive renews with redsync Mutex.ExtendContext but drops the outcome`
					zap.L().Error("extend lock failed", zap.String("key", m.Name()))
					continue
				}
			}
		}
	}()
}

// Near miss: the error is handed to a function that is not a log call
// (it may tell the holder).
func keepAndReport(ctx context.Context, m *redsync.Mutex, report func(zap.Field)) {
	go func() {
		ticker := time.NewTicker(time.Second)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
				if ok, err := m.ExtendContext(ctx); !ok {
					report(zap.Error(err))
				}
			}
		}
	}()
}
