package result

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

var ErrBusy = errors.New("busy")

func process() {}

func discarded(ctx context.Context, id, token string) {
	rdb.SetNX(ctx, "lock:"+id, token, time.Minute) // want `the result of SetNX of "lock:" \+ id is discarded: the code goes on whether or not it got the lock \(a lock held by someone else comes back as false with a nil error\); check it, or use safelock.Locker.TryAcquire`
	defer rdb.Del(ctx, "lock:"+id)
	process()
}

func blankResult(ctx context.Context, key, token string) {
	_, _ = rdb.SetNX(ctx, key, token, time.Minute).Result() // want `the result of SetNX of key is discarded`
	process()
	rdb.Del(ctx, key)
}

func errDiscardedStmt(ctx context.Context, key, token string) {
	rdb.SetNX(ctx, key, token, time.Minute).Err() // want `the result of SetNX of key is discarded`
	process()
	rdb.Del(ctx, key)
}

func onlyErr(ctx context.Context, key, token string) error {
	if err := rdb.SetNX(ctx, key, token, time.Minute).Err(); err != nil { // want `only the error of SetNX of key is checked: a lock held by someone else comes back as false with a nil error, so this code goes on without the lock; check the bool too`
		return err
	}
	defer rdb.Del(ctx, key)
	process()
	return nil
}

func onlyErrResult(ctx context.Context, key, token string) error {
	_, err := rdb.SetNX(ctx, key, token, time.Minute).Result() // want `only the error of SetNX of key is checked`
	if err != nil {
		return err
	}
	defer rdb.Del(ctx, key)
	process()
	return nil
}

func cmdOnlyErr(ctx context.Context, key, token string) error {
	cmd := rdb.SetNX(ctx, key, token, time.Minute) // want `only the error of SetNX of key is checked`
	if cmd.Err() != nil {
		return cmd.Err()
	}
	defer rdb.Del(ctx, key)
	process()
	return nil
}

// nxLock keeps the command in a variable, then reads it with its value
// dropped (tryDropped) or kept (try).
type nxLock struct{ key string }

func (l nxLock) tryDropped(ctx context.Context) (bool, error) {
	cmd := rdb.SetNX(ctx, l.key, 1, time.Minute) // want `only the error of SetNX of l.key is checked`
	_, err := cmd.Result()
	if err != nil {
		return false, err
	}
	return true, nil
}

func (l nxLock) try(ctx context.Context) (bool, error) { // want try:"returns the outcome of SetNX at goredis.go:79"
	cmd := rdb.SetNX(ctx, l.key, 1, time.Minute)
	ok, err := cmd.Result()
	if err != nil {
		return false, err
	}
	return ok, nil
}

func (l nxLock) unlock(ctx context.Context) { rdb.Del(ctx, l.key) }

func onlyLogged(ctx context.Context, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result() // want `the outcome of SetNX is only logged, never checked`
	if err != nil {
		return err
	}
	log.Printf("acquired: %v", ok)
	defer rdb.Del(ctx, key)
	process()
	return nil
}

// The failure branch only logs and falls through.
func fallsThrough(ctx context.Context, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok { // want `when SetNX of key fails \(!ok\), this branch falls through into the code that needs the lock: process\(...\) runs without it; stop on failure \(return, continue\), or use safelock.Locker.TryAcquire`
		log.Println("lock busy, going on")
	}
	process()
	return rdb.Del(ctx, key).Err()
}

func errFallsThrough(ctx context.Context, key, token string) {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil { // want `when SetNX of key fails \(err != nil\), this branch falls through`
		log.Printf("redis: %v", err)
	}
	if ok {
		log.Println("got it")
	}
	process()
	rdb.Del(ctx, key)
}

// Near miss: the logged error meets the test a refusal takes too, and the
// work under the lock returns from its branch; what follows is what every
// caller that did not get the lock runs (a read without the rebuild).
func errMeetsRefusal(ctx context.Context, key, token string) error {
	locked, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		log.Printf("redis: %v", err)
	}
	if locked {
		defer rdb.Del(ctx, key)
		process()
		return nil
	}
	process()
	return nil
}

// ok is checked, but the unchecked DEL runs on the failure path too.
func releaseOnFailure(ctx context.Context, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return err
	}
	if ok {
		process()
	}
	rdb.Del(ctx, key) // lockrelease reports this unchecked DEL; a compare-and-delete makes it harmless here
	return nil
}

func switchFallsThrough(ctx context.Context, key, token string) {
	ok, _ := rdb.SetNX(ctx, key, token, time.Minute).Result()
	switch {
	case !ok:
		log.Println("busy")
	}
	defer rdb.Del(ctx, key) // lockrelease's, as above
	process()
}

func valInCondition(ctx context.Context, key, token string) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() { // want `when SetNX of key fails`
		log.Println("busy")
	}
	process()
	rdb.Del(ctx, key)
}

// Do with NX reports a held lock as redis.Nil: checking err is enough,
// but dropping it is not.
func doDiscarded(ctx context.Context, key, token string) {
	rdb.Do(ctx, "set", key, token, "nx", "px", 30000) // want `the result of Do\(SET NX\) of key is discarded: the code goes on whether or not it got the lock; check it`
	process()
	rdb.Del(ctx, key)
}

func setArgsFallsThrough(ctx context.Context, key, token string) {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
	if errors.Is(err, redis.Nil) { // want `when SetArgs of key fails \(errors.Is\(err, redis.Nil\)\), this branch falls through`
		log.Println("held elsewhere")
	}
	process()
	rdb.Del(ctx, key)
}

// Fail-open around a raw SET NX.
func tryLockOpen(ctx context.Context, id, token string) bool {
	ok, err := rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Result() // want `when SetNX fails \(Redis unreachable, a timeout\), tryLockOpen returns true`
	if err != nil {
		log.Print(err)
		return true
	}
	return ok
}

// A hash lock taken in a script, behind two helpers.
type hashLock struct {
	key, owner string
}

func (h *hashLock) lockWithLease(ctx context.Context) (bool, error) {
	n, err := rdb.Eval(ctx, `if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], ARGV[1], 1); redis.call('PEXPIRE', KEYS[1], 30000); return 1 end; return 0`, []string{h.key}, h.owner).Int()
	return n == 1, err
}

func (h *hashLock) lockDefault(ctx context.Context) (bool, error) { return h.lockWithLease(ctx) }

func (h *hashLock) unlock(ctx context.Context) {
	rdb.Eval(ctx, `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return redis.call('DEL', KEYS[1]) end; return 0`, []string{h.key}, h.owner)
}

// Lock adapts it to sync.Locker and drops the outcome.
func (h *hashLock) Lock() {
	h.lockDefault(context.Background()) // want `the result of h.lockDefault, which takes lock hashLock.key .*, is discarded`
}

// Near miss: the outcome is checked.
func (h *hashLock) LockOrFail(ctx context.Context) error {
	ok, err := h.lockDefault(ctx)
	if err != nil || !ok {
		return ErrBusy
	}
	return nil
}

func takeJobLock(ctx context.Context, key string) bool { // want takeJobLock:`returns the outcome of SetNX at goredis.go:\d+`
	return rdb.SetNX(ctx, key, "job", time.Hour).Val()
}

func dropJobLock(ctx context.Context, key string) { rdb.Del(ctx, key) }

// The condition is inverted: the holder leaves, the others run.
func runJobInverted(ctx context.Context) {
	if takeJobLock(ctx, "lock:job") { // want `the lock is taken by takeJobLock, yet this branch returns when it succeeds`
		return
	}
	defer dropJobLock(ctx, "lock:job")
	process()
}

// Near misses: the usual shape, and a probe without a release after.
func runJob(ctx context.Context) {
	if !takeJobLock(ctx, "lock:job") {
		return
	}
	defer dropJobLock(ctx, "lock:job")
	process()
}

func alreadyRunning(ctx context.Context) bool {
	if ok := takeJobLock(ctx, "lock:probe"); ok {
		return false
	}
	return true
}

const acquireScript = `
if redis.call('GET', KEYS[1]) == false then
	return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return false`

// The script answers "OK", which Bool() cannot parse.
func scriptLockBool(ctx context.Context, key, token string) (bool, error) {
	return rdb.Eval(ctx, acquireScript, []string{key}, token, 30000).Bool() // want `the lock script returns the reply of SET, the status "OK", but it is read with Bool\(\)`
}

// Near misses: read as text; a script that returns a number.
func scriptLockText(ctx context.Context, key, token string) (bool, error) {
	s, err := rdb.Eval(ctx, acquireScript, []string{key}, token, 30000).Text()
	return s == "OK", err
}

func scriptLockOne(ctx context.Context, key, token string) (bool, error) {
	return rdb.Eval(ctx, `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end return 0`, []string{key}, token, 30000).Bool()
}

// Taking over an expired timestamp lock with GETSET.
func takeoverWrong(ctx context.Context, key string) bool {
	stamp := time.Now().Add(10 * time.Second).Format(time.RFC3339Nano)
	old, _ := rdb.GetSet(ctx, key, stamp).Result() // want `GETSET returns the value the lock held before, but it is compared with stamp, the value just written`
	return old == stamp
}

// Near miss: the reply is compared with the expired value read before.
func takeoverRight(ctx context.Context, key, expired string) bool {
	stamp := time.Now().Add(10 * time.Second).Format(time.RFC3339Nano)
	old, _ := rdb.GetSet(ctx, key, stamp).Result()
	return old == expired
}

// Near miss: the error branch panics; true is returned only when ok.
func tryLockPanics(ctx context.Context, id, token string) bool {
	ok, err := rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Result()
	if err != nil {
		panic(err)
	}
	if !ok {
		return false
	}
	return true
}

// runWithLock takes the lock, runs the job and releases the lock itself:
// its bool says whether the job ran, and a ticker may drop it.
func runWithLock(ctx context.Context, token string) bool {
	ok, err := rdb.SetNX(ctx, "lock:cron:report", token, time.Minute).Result()
	if err != nil || !ok {
		return false
	}
	defer rdb.Eval(ctx, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, []string{"lock:cron:report"}, token)
	process()
	return true
}

func tickReport(ctx context.Context) {
	runWithLock(ctx, "token")
}

// A helper that takes the lock, or renews it when asked to.
type jobLock struct{ key string }

func (j *jobLock) take(ctx context.Context, renewal bool) (bool, error) { // want take:"returns the outcome of SetNX at goredis.go:331"
	if renewal {
		return rdb.Expire(ctx, j.key, 30*time.Second).Result()
	} else {
		return rdb.SetNX(ctx, j.key, "token", 30*time.Second).Result()
	}
}

func (j *jobLock) release(ctx context.Context) { rdb.Del(ctx, j.key) }

// Taking it and dropping the outcome goes on without the lock.
func (j *jobLock) Lock(ctx context.Context) {
	j.take(ctx, false) // want `the result of jobLock.take \(SetNX at goredis.go:\d+\) is discarded`
}

// Near miss: the call renews; whether a renewal's outcome is heeded is
// locklease's question, not an acquire's.
func (j *jobLock) keepAlive(ctx context.Context) {
	for range time.Tick(10 * time.Second) {
		j.take(ctx, true)
	}
}

// The same, answering with constants.
type jobLock2 struct{ key string }

func (j *jobLock2) take(ctx context.Context, renewal bool) bool {
	if renewal {
		if err := rdb.Expire(ctx, j.key, 30*time.Second).Err(); err == nil {
			return true
		}
	} else {
		if ok, err := rdb.SetNX(ctx, j.key, "token", 30*time.Second).Result(); ok && err == nil {
			return true
		}
	}
	return false
}

func (j *jobLock2) release(ctx context.Context) { rdb.Del(ctx, j.key) }

func (j *jobLock2) Lock(ctx context.Context) {
	j.take(ctx, false) // want `the result of j.take, which takes lock jobLock2.key .*, is discarded`
}

// Near miss: the renewing call.
func (j *jobLock2) keepAlive(ctx context.Context) {
	for range time.Tick(10 * time.Second) {
		j.take(ctx, true)
	}
}

// An elector that keeps the outcome of its acquire in its own state.
type elector struct {
	key, id string
	leader  bool
}

func (e *elector) TryAcquire(ctx context.Context) bool {
	ok, err := rdb.SetNX(ctx, e.key, e.id, 30*time.Second).Result()
	e.leader = err == nil && ok
	return e.leader
}

func (e *elector) IsLeader() bool { return e.leader }

func (e *elector) Resign(ctx context.Context) {
	rdb.Eval(ctx, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end; return 0`, []string{e.key}, e.id)
}

// Near miss: the tick asks the elector whether it leads before it works.
func electorTick(ctx context.Context, e *elector, work func()) {
	if !e.IsLeader() {
		e.TryAcquire(ctx)
	}
	if e.IsLeader() {
		work()
	}
}

// The same acquire dropped by a caller that never asks: it works either way.
func electorBlind(ctx context.Context, e *elector, work func()) {
	e.TryAcquire(ctx) // want `the result of e.TryAcquire, which takes lock elector.key .*, is discarded`
	work()
}

// A refused SetNX is logged and falls through to the "locked" answer.
func tryLockLogged(ctx context.Context, id, token string) (bool, error) {
	ok, err := rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Result()
	if err != nil {
		return false, err
	}
	if !ok { // want `when SetNX of "lock:" \+ id fails \(!ok\), this branch falls through to return true, nil: tryLockLogged tells its callers it holds the lock when it does not`
		log.Printf("lock %s is busy", id)
	}
	return true, nil
}

// Near miss: the same shape answering with ok.
func tryLockAnswers(ctx context.Context, id, token string) (bool, error) { // want tryLockAnswers:`returns the outcome of SetNX at goredis.go:\d+`
	ok, err := rdb.SetNX(ctx, "lock:"+id, token, time.Minute).Result()
	if err != nil {
		return false, err
	}
	if !ok {
		log.Printf("lock %s is busy", id)
	}
	return ok, nil
}

// redis.Nil is SetArgs NX's answer to a held lock: excluding it from the
// guard lets that answer in.
func setArgsExceptNil(ctx context.Context, key, token string) error {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
	if err != nil && err != redis.Nil { // want `when the lock is held elsewhere, SetArgs of key fails with redis.Nil, which this test lets through`
		return err
	}
	process()
	return rdb.Del(ctx, key).Err()
}

// The same guard, then the held lock stops.
func setArgsNilThenBusy(ctx context.Context, key, token string) error {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
	if err != nil && err != redis.Nil {
		return err
	}
	if err == redis.Nil {
		return ErrBusy
	}
	process()
	return rdb.Del(ctx, key).Err()
}

// SetNX answers a held lock with false and a nil error: excluding
// redis.Nil lets nothing in, and the bool is tested next.
func setNXExceptNil(ctx context.Context, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil && err != redis.Nil {
		return err
	}
	if ok {
		process()
		rdb.Del(ctx, key)
	}
	log.Println("tick done")
	return nil
}

// The bool is dropped, but the key is read back and compared with this
// node's id: a refused acquire reads another holder's id.
func electReadBack(ctx context.Context, nodeID string) bool {
	_, err := rdb.SetNX(ctx, "leader:lock", nodeID, 10*time.Second).Result()
	if err != nil {
		return false
	}
	val, err := rdb.Get(ctx, "leader:lock").Result()
	if err != nil {
		return false
	}
	return val == nodeID
}

// Read back, but compared with nothing the acquire stored.
func electReadAnything(ctx context.Context, nodeID string) bool {
	_, err := rdb.SetNX(ctx, "leader:lock", nodeID, 10*time.Second).Result() // want `only the error of SetNX of "leader:lock" is checked`
	if err != nil {
		return false
	}
	val, err := rdb.Get(ctx, "leader:lock").Result()
	if err != nil {
		return false
	}
	return val != ""
}

// A constant read back is every holder's value: it proves nothing.
func electReadConstant(ctx context.Context) bool {
	_, err := rdb.SetNX(ctx, "leader:lock", "1", 10*time.Second).Result() // want `only the error of SetNX of "leader:lock" is checked`
	if err != nil {
		return false
	}
	val, err := rdb.Get(ctx, "leader:lock").Result()
	if err != nil {
		return false
	}
	return val == "1"
}

// A leader's tick: the refusal passes the guard, and what follows it reads
// the key back and renews only when it holds this replica's id.
func leaderTick(ctx context.Context, replicaID string) bool {
	res, err := rdb.SetArgs(ctx, "leader", replicaID, redis.SetArgs{Mode: "NX", TTL: 10 * time.Second}).Result()
	if err != nil && err != redis.Nil {
		return false
	}
	if res == "OK" {
		return true
	}
	holder, err := rdb.Get(ctx, "leader").Result()
	if err != nil || holder != replicaID {
		return false
	}
	rdb.Expire(ctx, "leader", 10*time.Second)
	return true
}
