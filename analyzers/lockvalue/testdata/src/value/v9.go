package value

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"time"

	gofrs "github.com/gofrs/uuid"
	"github.com/google/uuid"
	"github.com/locklint/locklint/safelock"
	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

const ttl = 10 * time.Second

const lockedValue = "locked"

func constantOne(ctx context.Context, id string) {
	if !rdb.SetNX(ctx, "lock:"+id, "1", ttl).Val() { // want `lock "lock:" \+ id stores the constant "1" as its value, which cannot tell one holder from another: every holder stores the same value.*safelock.NewToken\(\)`
		return
	}
	defer rdb.Del(ctx, "lock:"+id)
}

func constantInt(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, 1, ttl).Val() { // want `lock key stores the constant 1 as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

func constantBool(ctx context.Context, key string) {
	if rdb.SetArgs(ctx, key, true, redis.SetArgs{Mode: "NX", TTL: ttl}).Err() != nil { // want `lock key stores the constant true as its value`
		panic("lock busy")
	}
	rdb.Unlink(ctx, key)
}

// A named constant: reported, no fix (the constant may be used elsewhere).
func constantNamed(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, lockedValue, ttl).Val() { // want `lock key stores the constant "locked" as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// The constant is compared on release: replacing it alone would break the
// release, so no fix.
func constantCompared(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, "1", ttl).Val() { // want `lock key stores the constant "1" as its value`
		panic("lock busy")
	}
	rdb.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{key}, "1")
}

func theKey(ctx context.Context, name string) {
	key := "lock:" + name
	if !rdb.SetNX(ctx, key, key, ttl).Val() { // want `lock key stores the lock key itself as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// The id the key is made of is the same for every holder of that key.
func keyPart(ctx context.Context, orderID string) {
	if !rdb.SetNX(ctx, fmt.Sprintf("lock:order:%s", orderID), orderID, ttl).Val() { // want `lock fmt.Sprintf\("lock:order:%s", orderID\) stores part of the lock key as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, fmt.Sprintf("lock:order:%s", orderID))
}

func timestamp(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, time.Now().UnixNano(), ttl).Val() { // want `lock key stores a timestamp as its value.*holders that acquire within the same tick store the same value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// The classic "expiry time as value" lock.
func expiryAsValue(ctx context.Context, key string) {
	expires := time.Now().Add(ttl).Unix() + 1
	if !rdb.SetNX(ctx, key, expires, 0).Val() { // want `lock key stores a timestamp as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// An expiry timestamp with the caller's timeout is still a timestamp.
func expiryOffset(ctx context.Context, key string, timeout int64) {
	if !rdb.SetNX(ctx, key, time.Now().Unix()+timeout, 0).Val() { // want `lock key stores a timestamp as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

func timeString(ctx context.Context, key string) {
	now := time.Now()
	if !rdb.SetNX(ctx, key, now.Format(time.RFC3339Nano), ttl).Val() { // want `lock key stores a timestamp as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

func hostAndPID(ctx context.Context, key string) error {
	host, err := os.Hostname()
	if err != nil {
		return err
	}
	owner := fmt.Sprintf("%s-%d", host, os.Getpid())
	if !rdb.SetNX(ctx, key, owner, ttl).Val() { // want `lock key stores the hostname and the process ID as its value.*every goroutine of the process`
		panic("lock busy")
	}
	return rdb.Del(ctx, key).Err()
}

func pidOnly(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, strconv.Itoa(os.Getpid()), ttl).Val() { // want `lock key stores the process ID as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// Re-seeded from the clock at each call: two processes calling in the
// same tick store the same value.
func mathRand(ctx context.Context, key string) {
	rand.Seed(time.Now().UnixNano())
	tok := strconv.FormatInt(rand.Int63(), 16)
	if !rdb.SetNX(ctx, key, tok, ttl).Val() { // want `lock key stores math/rand output as its value.*processes seeded alike draw the same values`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// 63 bits from the global source, which Go seeds at random: unique, so
// not reported (it is not secret, but a lock value need not be).
func mathRandFull(ctx context.Context, key string) {
	tok := strconv.FormatInt(rand.Int63(), 16)
	if !rdb.SetNX(ctx, key, tok, ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// A small range is weak whatever the seed.
func mathRandSmall(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, rand.Intn(1000), ttl).Val() { // want `lock key stores math/rand output as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// A package Rand seeded once from the clock: 31 bits drawn from it are
// unique enough, not reported.
var clockRand = rand.New(rand.NewSource(time.Now().UnixNano()))

func mathRandPackageSource(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, strconv.Itoa(int(clockRand.Int31())), ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// A constant seed draws the same values in every process.
var fixedRand = rand.New(rand.NewSource(7))

func mathRandFixedSeed(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, strconv.Itoa(int(fixedRand.Int31())), ttl).Val() { // want `lock key stores math/rand output as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// A package Rand seeded once from the clock in init: as at its
// declaration, not reported.
var initRand *rand.Rand

// A package Rand given a constant seed in init: the same values in
// every process.
var initFixedRand *rand.Rand

func init() {
	initRand = rand.New(rand.NewSource(time.Now().UnixNano()))
	initFixedRand = rand.New(rand.NewSource(42))
}

func mathRandInitSource(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, strconv.FormatUint(initRand.Uint64(), 36), ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

func mathRandInitFixedSeed(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, strconv.FormatUint(initFixedRand.Uint64(), 36), ttl).Val() { // want `lock key stores math/rand output as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// The layout comes from a variable: it shapes the text, the value is
// still a timestamp.
var stampLayout = "2006-01-02 15:04:05"

func timestampVarLayout(ctx context.Context, key string) {
	value := time.Now().Format(stampLayout)
	if !rdb.SetNX(ctx, key, value, ttl).Val() { // want `lock key stores a timestamp as its value`
		return
	}
	rdb.Del(ctx, key)
}

// A named result is a local: traced through what the body assigns it.
func timestampNamedResult(ctx context.Context) (now int64, ok bool) {
	now = time.Now().Unix()
	if ok = rdb.SetNX(ctx, "lock:named", now, ttl).Val(); !ok { // want `lock "lock:named" stores a timestamp as its value`
		return 0, false
	}
	rdb.Del(ctx, "lock:named")
	return now, true
}

const letters = "abcdefghijklmnopqrstuvwxyz0123456789"

// A random string drawn letter by letter from math/rand.
func randString(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rand.Intn(len(letters))]
	}
	return string(b) // want `lock key stores math/rand output as its value`
}

func mathRandHelper(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, randString(16), ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

func mathRandRead(ctx context.Context, key string) {
	b := make([]byte, 16)
	rand.Read(b)
	if !rdb.SetNX(ctx, key, hex.EncodeToString(b), ttl).Val() { // want `lock key stores math/rand output as its value`
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// Renewed elsewhere, never deleted: still a lock.
func renewedOnly(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, "1", ttl).Val() { // want `lock key stores the constant "1"`
		panic("lock busy")
	}
	go rdb.Expire(ctx, key, ttl)
}

// Negatives: unique values.

func cryptoRand(ctx context.Context, key string) {
	b := make([]byte, 16)
	if _, err := crand.Read(b); err != nil {
		return
	}
	if !rdb.SetNX(ctx, key, hex.EncodeToString(b), ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

func googleUUID(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, uuid.NewString(), ttl).Val() {
		panic("lock busy")
	}
	if !rdb.SetNX(ctx, key, uuid.New().String(), ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

func gofrsUUID(ctx context.Context, key string) {
	u, _ := gofrs.NewV4()
	if !rdb.SetNX(ctx, key, u.String(), ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

func safelockToken(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, safelock.NewToken(), ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// Host, PID and a random part: one unique part makes the whole unique.
func hostPIDUUID(ctx context.Context, key string) {
	host, _ := os.Hostname()
	if !rdb.SetNX(ctx, key, fmt.Sprintf("%s:%d:%s", host, os.Getpid(), uuid.NewString()), ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// A timestamp with a random suffix: unique.
func timeAndUUID(ctx context.Context, key string) {
	if !rdb.SetNX(ctx, key, strconv.FormatInt(time.Now().UnixNano(), 10)+"-"+uuid.NewString(), ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// Passed in by the caller: unknown.
func fromCaller(ctx context.Context, key, token string) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// A parameter reassigned still starts as the caller's value.
func paramReassigned(ctx context.Context, key, token string) {
	if token == "" {
		token = "1"
	}
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		panic("lock busy")
	}
	rdb.Del(ctx, key)
}

// Deduplication and idempotency markers are never released.
func dedup(ctx context.Context, eventID string) bool {
	return rdb.SetNX(ctx, "seen:"+eventID, 1, 24*time.Hour).Val()
}

func idempotent(ctx context.Context, reqID string) bool {
	if !rdb.SetNX(ctx, "idem:"+reqID, "1", 0).Val() {
		return false
	}
	rdb.Expire(ctx, "idem:"+reqID, 24*time.Hour)
	return true
}

// A record that an upload completed, removed again when the work it
// records fails: a marker, not a lock.
func markComplete(ctx context.Context, id string) (bool, error) {
	res, err := rdb.SetArgs(ctx, "upload:complete:"+id, "1", redis.SetArgs{Mode: "NX", TTL: 24 * time.Hour}).Result()
	if err == redis.Nil {
		return false, nil
	}
	return res == "OK", err
}

func unmarkComplete(ctx context.Context, id string) { rdb.Del(ctx, "upload:complete:"+id) }

// A plain SET cache with a constant is no lock.
func cache(ctx context.Context) {
	rdb.Set(ctx, "cache:flag", "1", time.Minute)
	rdb.Del(ctx, "cache:flag")
}

// A flag set with SETNX whose result nobody reads: no lock.
func flagOn(ctx context.Context, name string) {
	rdb.SetNX(ctx, "flag:"+name, "1", 0)
}

func flagOff(ctx context.Context, name string) {
	rdb.Del(ctx, "flag:"+name)
}

// A do-once marker: the first node in the window runs the job, nobody
// releases it on the way out (a cleanup helper may drop it), and its
// constant value is all it needs.
func doOnceKey(job string) string { return "job:" + job + ":DoOnce" }

func runDailyOnce(ctx context.Context, job string) (bool, error) {
	return rdb.SetNX(ctx, doOnceKey(job), 1, time.Minute).Result()
}

func forgetDailyOnce(ctx context.Context, job string) {
	rdb.Del(ctx, doOnceKey(job))
}

// "once" inside a word is not the marker: a seat of a concert locked for
// checkout, with the same constant value, is reported.
func holdConcertSeat(ctx context.Context, seat string) error {
	ok, err := rdb.SetNX(ctx, "concert:seat:"+seat, 1, time.Minute).Result() // want `stores the constant 1 as its value`
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "concert:seat:"+seat)
	return nil
}

// An idempotency key held while a request runs and dropped when it ends:
// a record of the request, however it is shaped.
func transfer(ctx context.Context, key string) error {
	idemKey := "transfer:" + key
	ok, err := rdb.SetNX(ctx, idemKey, "__IN_PROGRESS__", 24*time.Hour).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, idemKey)
	return nil
}

// A store of processed events, by its type's name.
type idempotencyStore struct{}

func (s *idempotencyStore) checkAndMark(ctx context.Context, id string) (bool, error) {
	return rdb.SetNX(ctx, "square:event:"+id, "1", time.Hour).Result()
}

func (s *idempotencyStore) forget(ctx context.Context, id string) {
	rdb.Del(ctx, "square:event:"+id)
}

// Other record words do not count in a type's name: "done" is in
// Abandoned.
type abandonedCartSweeper struct{}

func (s *abandonedCartSweeper) sweep(ctx context.Context) {
	ok, err := rdb.SetNX(ctx, "cart:sweep", "1", time.Minute).Result() // want `stores the constant "1" as its value`
	if err != nil || !ok {
		return
	}
	defer rdb.Del(ctx, "cart:sweep")
}
