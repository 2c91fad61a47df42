package lease

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
)

// logEntry is a structured logger's entry, as logrus and zerolog build
// them: WithError hands the error to the entry, Errorf writes it.
type logEntry struct{}

func (e *logEntry) WithError(err error) *logEntry     { return e }
func (e *logEntry) Errorf(format string, args ...any) {}

var logger = &logEntry{}

// An alert built the same way, whose Send hands the error to someone
// who acts on it.
type alert struct{ lost chan error }

func (a *alert) WithError(err error) *alert { return a }
func (a *alert) Send()                      {}

// A failed extend only logged through an entry: nobody is told.
func extendLoggedByEntry(ctx context.Context, m *redsync.Mutex, done chan struct{}) {
	go func() {
		ticker := time.NewTicker(time.Second)
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
				_, err := m.ExtendContext(ctx) // want `this keep-alive renews with redsync Mutex.ExtendContext but drops the outcome`
				if err != nil {
					logger.WithError(err).Errorf("extend %s", "job")
				}
			}
		}
	}()
}

// Near miss: the error goes to an alert that is sent on.
func extendAlerted(ctx context.Context, m *redsync.Mutex, done chan struct{}, a *alert) {
	go func() {
		ticker := time.NewTicker(time.Second)
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
				_, err := m.ExtendContext(ctx)
				if err != nil {
					a.WithError(err).Send()
				}
			}
		}
	}()
}

// Near miss: the refresher logs and returns, and its deferred close
// tells the caller, who is handed the channel.
func startRefresher(ctx context.Context, m *redsync.Mutex) chan struct{} {
	exit := make(chan struct{})
	go func() {
		defer close(exit)
		ticker := time.NewTicker(time.Second)
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
				if _, err := m.ExtendContext(ctx); err != nil {
					logger.WithError(err).Errorf("refresh %s", "lock")
					return
				}
			}
		}
	}()
	return exit
}

// The same refresher keeping its channel to itself: nobody hears it.
func startRefresherAlone(ctx context.Context, m *redsync.Mutex) {
	exit := make(chan struct{})
	go func() {
		defer close(exit)
		ticker := time.NewTicker(time.Second)
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
				if _, err := m.ExtendContext(ctx); err != nil { // want `this keep-alive renews with redsync Mutex.ExtendContext but drops the outcome`
					logger.WithError(err).Errorf("refresh %s", "lock")
					return
				}
			}
		}
	}()
}
