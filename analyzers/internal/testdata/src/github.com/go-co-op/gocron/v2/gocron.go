// Package gocron is a stand-in for github.com/go-co-op/gocron/v2: a
// scheduler whose executor takes its distributed locker's lock (keyed by
// the job's name) before each run of a job and releases it when the task
// returns.
package gocron

import (
	"context"
	"time"
)

type UUID [16]byte

type Locker interface {
	Lock(ctx context.Context, key string) (Lock, error)
}

type Lock interface {
	Unlock(ctx context.Context) error
}

type (
	JobDefinition   interface{}
	Task            func() (any, []any)
	SchedulerOption func() error
	JobOption       func() error
)

type Job interface{ Name() string }

type Scheduler interface {
	NewJob(JobDefinition, Task, ...JobOption) (Job, error)
	Update(UUID, JobDefinition, Task, ...JobOption) (Job, error)
	Start()
}

func NewScheduler(options ...SchedulerOption) (Scheduler, error) { return nil, nil }

func WithDistributedLocker(locker Locker) SchedulerOption      { return nil }
func WithLocation(loc *time.Location) SchedulerOption          { return nil }
func WithDistributedJobLocker(locker Locker) JobOption         { return nil }
func WithDisabledDistributedJobLocker(disabled bool) JobOption { return nil }
func WithName(name string) JobOption                           { return nil }

func NewTask(function any, parameters ...any) Task { return nil }

func DurationJob(d time.Duration) JobDefinition { return nil }
