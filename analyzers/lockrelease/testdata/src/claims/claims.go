// Package claims holds NX keys that the function taking them keeps when
// its work succeeds and deletes only when the work fails: claims and
// in-progress flags, not locks. Beside them, near misses that are locks.
package claims

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

var errBusy = errors.New("busy")

func charge(ctx context.Context, order int64) error  { return ctx.Err() }
func record(ctx context.Context, order int64) error  { return ctx.Err() }
func enqueue(ctx context.Context, user string) error { return ctx.Err() }

// The "payment in progress" flag lasts as long as the payment may: it is
// kept when the payment starts and cleared only when starting it failed.
func StartPayment(ctx context.Context, order int64) error {
	key := fmt.Sprintf("pay:lock:%d", order)
	ok, err := rdb.SetNX(ctx, key, "1", 30*time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	if err := charge(ctx, order); err != nil {
		rdb.Del(ctx, key)
		return err
	}
	if err := record(ctx, order); err != nil {
		rdb.Del(ctx, key)
		return err
	}
	return nil
}

// The payment callback clears the flag once the payment has ended.
func PaymentNotified(ctx context.Context, order int64) {
	rdb.Del(ctx, fmt.Sprintf("pay:lock:%d", order))
}

// Cron claims each user's period through helpers and drops the claim when
// the work could not be queued, so that the next tick retries.
type Cron struct{ rdb *redis.Client }

func (c *Cron) tryClaim(ctx context.Context, user string) bool {
	ok, err := c.rdb.SetNX(ctx, "cron:claim:"+user, "1", 10*time.Minute).Result()
	return err == nil && ok
}

func (c *Cron) releaseClaim(ctx context.Context, user string) {
	c.rdb.Del(ctx, "cron:claim:"+user)
}

func (c *Cron) Tick(ctx context.Context, users []string) {
	for _, u := range users {
		if !c.tryClaim(ctx, u) {
			continue
		}
		if err := enqueue(ctx, u); err != nil {
			c.releaseClaim(ctx, u)
			continue
		}
	}
}

// Near miss: a lock given back on failure and on success.
func Ship(ctx context.Context, order int64) error {
	key := fmt.Sprintf("ship:lock:%d", order)
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil || !ok {
		return errBusy
	}
	if err := charge(ctx, order); err != nil {
		rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking that this holder still owns it`
		return err
	}
	rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking that this holder still owns it`
	return nil
}

// Near miss: a lock that leaks on its error path and is given back at the
// end of the work.
func Refund(ctx context.Context, order int64) error {
	key := fmt.Sprintf("refund:lock:%d", order)
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil || !ok {
		return errBusy
	}
	if err := charge(ctx, order); err != nil {
		return err
	}
	rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking that this holder still owns it`
	return nil
}

// Near miss: Begin deletes only on failure, but the key is a lock that
// Unlock gives back once the caller's work is done.
type Orders struct{ rdb *redis.Client }

func (o *Orders) Begin(ctx context.Context, id string) error {
	ok, err := o.rdb.SetNX(ctx, "orders:"+id, "1", time.Minute).Result()
	if err != nil || !ok {
		return errBusy
	}
	if err := enqueue(ctx, id); err != nil {
		o.rdb.Del(ctx, "orders:"+id) // want `lock "orders:" \+ id is deleted with DEL without checking that this holder still owns it`
		return err
	}
	return nil
}

func (o *Orders) Unlock(ctx context.Context, id string) {
	o.rdb.Del(ctx, "orders:"+id) // want `lock "orders:" \+ id is deleted with DEL without checking that this holder still owns it`
}

// A daily report claims the user's day and leaves the sending to a
// goroutine, which drops the claim only when the report could not be
// sent, so that a later tick retries.
func (c *Cron) Reports(ctx context.Context, users []string) {
	for _, u := range users {
		ok, err := c.rdb.SetNX(ctx, "report:sent:"+u, "1", 25*time.Hour).Result()
		if err != nil || !ok {
			continue
		}
		go c.sendReport(u)
	}
}

func (c *Cron) sendReport(user string) {
	ctx := context.Background()
	if err := enqueue(ctx, user); err != nil {
		c.rdb.Del(ctx, "report:sent:"+user)
		return
	}
}

// Near miss: the worker the lock is handed to gives it back on both
// paths.
func (c *Cron) Exports(ctx context.Context, users []string) {
	for _, u := range users {
		ok, err := c.rdb.SetNX(ctx, "export:"+u, "1", time.Hour).Result()
		if err != nil || !ok {
			continue
		}
		go c.export(u)
	}
}

func (c *Cron) export(user string) {
	ctx := context.Background()
	if err := enqueue(ctx, user); err != nil {
		c.rdb.Del(ctx, "export:"+user) // want `lock "export:" \+ user is deleted with DEL without checking that this holder still owns it`
		return
	}
	c.rdb.Del(ctx, "export:"+user) // want `lock "export:" \+ user is deleted with DEL without checking that this holder still owns it`
}

// Near miss: a lock that a watchdog keeps alive while the work runs,
// deleted on failure and left to expire once the work is done.
func Import(ctx context.Context, id string) error {
	key := "import:" + id
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil || !ok {
		return errBusy
	}
	go func() {
		for range time.Tick(20 * time.Second) {
			rdb.Expire(ctx, key, time.Minute)
		}
	}()
	if err := enqueue(ctx, id); err != nil {
		rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking that this holder still owns it`
		return err
	}
	return nil
}

// A scheduler started with go runs ticks that claim a user's day; the
// report goroutine rolls the claim back through a helper only ever called
// where sending failed.
type Scheduler struct{ rdb *redis.Client }

func (s *Scheduler) Start() { go s.run() }

func (s *Scheduler) run() {
	for range time.Tick(time.Minute) {
		s.tick(context.Background(), []string{"a", "b"})
	}
}

func (s *Scheduler) tick(ctx context.Context, users []string) {
	for _, u := range users {
		if ok, err := s.rdb.SetNX(ctx, "digest:"+u, "1", 25*time.Hour).Result(); err != nil || !ok {
			continue
		}
		go s.send(u)
	}
}

func (s *Scheduler) send(user string) {
	ctx := context.Background()
	if err := enqueue(ctx, user); err != nil {
		s.forget(ctx, user)
		return
	}
}

func (s *Scheduler) forget(ctx context.Context, user string) {
	s.rdb.Del(ctx, "digest:"+user)
}

// Near miss: the same helper also called once the work is done gives the
// key back on both paths.
func (s *Scheduler) Backups(ctx context.Context, hosts []string) {
	for _, h := range hosts {
		if ok, err := s.rdb.SetNX(ctx, "backup:"+h, "1", time.Hour).Result(); err != nil || !ok {
			continue
		}
		if err := enqueue(ctx, h); err != nil {
			s.dropBackup(ctx, h)
			continue
		}
		s.dropBackup(ctx, h)
	}
}

func (s *Scheduler) dropBackup(ctx context.Context, host string) {
	s.rdb.Del(ctx, "backup:"+host) // want `lock "backup:" \+ host is deleted with DEL without checking that this holder still owns it`
}

// A send-code cooldown, rolled back through a local closure that runs only
// where sending failed, so that the user may ask again at once.
func SendCode(ctx context.Context, mobile string) error {
	cooldown := "sms:cooldown:" + mobile
	ok, err := rdb.SetNX(ctx, cooldown, "1", time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	rollback := func() { rdb.Del(ctx, cooldown) }
	if err := enqueue(ctx, mobile); err != nil {
		rollback()
		return err
	}
	return nil
}

// Near miss: the closure that deletes the key also runs once the work is
// done: the key is given back like a lock.
func SendMail(ctx context.Context, user string) error {
	key := "mail:" + user
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil || !ok {
		return errBusy
	}
	giveBack := func() {
		rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking that this holder still owns it`
	}
	if err := enqueue(ctx, user); err != nil {
		giveBack()
		return err
	}
	giveBack()
	return nil
}

func notify(ctx context.Context, account string) bool { return ctx.Err() == nil }

// A low-balance alert sent once per dip: the flags of thresholds the
// balance has recovered above are cleared first, and the flag just set
// (for good: it is cleared when the balance recovers) is dropped at the
// end when the alert could not be sent, so that the next check retries.
func AlertLowBalance(ctx context.Context, account string, recovered []int, threshold int) {
	for _, t := range recovered {
		rdb.Del(ctx, fmt.Sprintf("alert:low:%s:%d", account, t))
	}
	key := fmt.Sprintf("alert:low:%s:%d", account, threshold)
	created, err := rdb.SetNX(ctx, key, "1", 0).Result()
	if err != nil || !created {
		return
	}
	if !notify(ctx, account) {
		rdb.Del(ctx, key)
	}
}

// Near miss: the last statement deletes the key when the work succeeded:
// a lock given back once its work is done.
func Settle(ctx context.Context, order int64) {
	key := fmt.Sprintf("settle:lock:%d", order)
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil || !ok {
		return
	}
	if charge(ctx, order) == nil {
		rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking that this holder still owns it`
	}
}

// Near miss: a poller that clears the lock at the top of each round: that
// delete gives back the round before's, so the key is a lock, though it is
// also dropped where a round failed.
func Poll(ctx context.Context, rounds int) {
	for i := 0; i < rounds; i++ {
		rdb.Del(ctx, "poll:lock") // want `lock "poll:lock" is deleted with DEL without checking that this holder still owns it`
		ok, err := rdb.SetNX(ctx, "poll:lock", "1", time.Minute).Result()
		if err != nil || !ok {
			continue
		}
		if err := enqueue(ctx, "poll"); err != nil {
			rdb.Del(ctx, "poll:lock") // want `lock "poll:lock" is deleted with DEL without checking that this holder still owns it`
			continue
		}
	}
}

// Near miss: a Close method whose last statement gives the lock back
// unless it was closed already: a release, not a rollback.
type Guard struct {
	rdb    *redis.Client
	key    string
	closed bool
}

func (g *Guard) Take(ctx context.Context) bool {
	ok, err := g.rdb.SetNX(ctx, g.key, "1", time.Minute).Result()
	return err == nil && ok
}

func (g *Guard) Close(ctx context.Context) {
	if !g.closed {
		g.rdb.Del(ctx, g.key) // want `lock g.key is deleted with DEL without checking that this holder still owns it`
	}
}

// A pending retry: the key says one is scheduled, so that a second timer
// is not armed, and the timer drops it when it fires, before the work.
// A record of scheduled work, not a lock.
func ScheduleRetry(ctx context.Context, user string) {
	key := fmt.Sprintf("sync:pending_retry:%s", user)
	ok, err := rdb.SetNX(ctx, key, "1", 6*time.Minute).Result()
	if err != nil || !ok {
		return
	}
	time.AfterFunc(5*time.Minute, func() {
		rdb.Del(context.Background(), key)
		_ = enqueue(context.Background(), user)
	})
}

// Near miss: a worker named after pending work takes a lock on each job
// whose key names no pending work.
func RunPending(ctx context.Context, jobs []string) {
	for _, job := range jobs {
		key := "sync:job:" + job
		ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
		if err != nil || !ok {
			continue
		}
		_ = enqueue(ctx, job)
		rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking that this holder still owns it`
	}
}

// Near miss: a lock whose token the taking function hands to its caller
// with the key (the flash sale checks stock under it, the purchase
// releases it later). Its only delete here is on the sold-out branch, but
// a claim never keeps its token for later: this is a lock, and its DELs
// check no owner.
type Ticket struct{ LockKey, LockValue string }

func Reserve(ctx context.Context, stock int) (Ticket, error) {
	key := "sale:product"
	token := fmt.Sprint(time.Now().UnixNano())
	ok, err := rdb.SetNX(ctx, key, token, 5*time.Second).Result()
	if err != nil || !ok {
		return Ticket{}, errBusy
	}
	if stock <= 0 {
		rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking that this holder still owns it`
		return Ticket{}, errors.New("sold out")
	}
	return Ticket{LockKey: key, LockValue: token}, nil
}

// A claim with the same shape that keeps no token: its constant value
// goes nowhere, so it stays a claim rolled back on failure.
func ReserveSlot(ctx context.Context, stock int) (string, error) {
	key := "sale:slot"
	ok, err := rdb.SetNX(ctx, key, "1", 5*time.Second).Result()
	if err != nil || !ok {
		return "", errBusy
	}
	if stock <= 0 {
		rdb.Del(ctx, key)
		return "", errors.New("sold out")
	}
	return key, nil
}

// A request-id record that maps to a fresh order number: the number is
// returned as the answer, not kept to release anything, and the record
// is dropped only when creating the order failed.
func RequestSlot(ctx context.Context, request string) (string, error) {
	key := "req:" + request
	orderNo := fmt.Sprint(time.Now().UnixNano())
	ok, err := rdb.SetNX(ctx, key, orderNo, time.Hour).Result()
	if err != nil || !ok {
		return "", errBusy
	}
	if err := record(ctx, 1); err != nil {
		rdb.Del(ctx, key)
		return "", err
	}
	return orderNo, nil
}

// A rebuild lock taken and given back through helpers that are handed
// the key: the release is deferred in the branch that won, so it runs
// once the rebuild is done, on success as on failure. A lock, whatever
// the branch's return.
func tryRebuildLock(ctx context.Context, key string) bool {
	ok, err := rdb.SetNX(ctx, key, "1", 5*time.Second).Result()
	return err == nil && ok
}

func releaseRebuildLock(ctx context.Context, key string) {
	rdb.Del(ctx, key) // want `lock key is deleted with DEL without checking that this holder still owns it`
}

func Rebuild(ctx context.Context, user string) error {
	key := "rebuild:" + user
	if tryRebuildLock(ctx, key) {
		defer releaseRebuildLock(ctx, key)
		return enqueue(ctx, user)
	}
	return errBusy
}
