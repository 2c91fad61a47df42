package fence

import (
	"context"
	"time"

	"github.com/go-co-op/gocron/v2"
)

var jobLocker gocron.Locker

// A scheduler with a distributed locker runs each job under its lock:
// the task is the section.
func gocronJobs(ctx context.Context) error {
	opts := []gocron.SchedulerOption{gocron.WithLocation(time.UTC)}
	if jobLocker != nil {
		opts = append(opts, gocron.WithDistributedLocker(jobLocker))
	}
	s, err := gocron.NewScheduler(opts...)
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Hour), gocron.NewTask(func() {
		db.ExecContext(ctx, "UPDATE todos SET urgent = 1 WHERE due < now()") // want `database/sql DB.ExecContext under lock "daily-urgency" \(gocron Scheduler.NewJob\) carries no fencing token`
	}), gocron.WithName("daily-urgency"))
	if err != nil {
		return err
	}
	// A job that opts out of the locker runs on every replica: no lock.
	_, err = s.NewJob(gocron.DurationJob(time.Hour), gocron.NewTask(func() {
		db.ExecContext(ctx, "DELETE FROM local_tmp")
	}), gocron.WithDisabledDistributedJobLocker(true))
	s.Start()
	return err
}

type reports struct{ sched gocron.Scheduler }

func (r *reports) rebuild(ctx context.Context) {
	db.ExecContext(ctx, "UPDATE reports SET stale = 0") // want `database/sql DB.ExecContext under lock "rebuild" \(gocron Scheduler.NewJob\) carries no fencing token`
}

// A job's own locker, and a method as the task.
func (r *reports) schedule(ctx context.Context) error {
	_, err := r.sched.NewJob(gocron.DurationJob(time.Minute), gocron.NewTask(r.rebuild, ctx),
		gocron.WithName("rebuild"), gocron.WithDistributedJobLocker(jobLocker))
	return err
}

// No locker anywhere: the job runs on every replica; nothing to fence.
func gocronLocal(ctx context.Context) error {
	s, err := gocron.NewScheduler(gocron.WithLocation(time.UTC))
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Hour), gocron.NewTask(func() {
		db.ExecContext(ctx, "UPDATE counters SET n = n + 1")
	}))
	return err
}

type cronJobs struct {
	sched gocron.Scheduler
}

func newCronJobs() (*cronJobs, error) {
	s, err := gocron.NewScheduler(gocron.WithDistributedLocker(jobLocker))
	if err != nil {
		return nil, err
	}
	return &cronJobs{sched: s}, nil
}

// makeTask returns the closure each run executes.
func (c *cronJobs) makeTask(ctx context.Context, id string) func() {
	return func() {
		db.ExecContext(ctx, "INSERT INTO job_runs (job) VALUES (?)", id) // want `database/sql DB.ExecContext under lock id \(gocron Scheduler.NewJob\) carries no fencing token`
	}
}

// The task made by a factory, kept in a variable; the scheduler in a field.
func (c *cronJobs) add(ctx context.Context, id string) error {
	task := gocron.NewTask(c.makeTask(ctx, id))
	opts := []gocron.JobOption{gocron.WithName(id)}
	_, err := c.sched.NewJob(gocron.DurationJob(time.Minute), task, opts...)
	return err
}
