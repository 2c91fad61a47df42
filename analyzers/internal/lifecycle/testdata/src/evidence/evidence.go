// Package evidence has NX writes that are data (records, markers, seeds,
// caches, flags) and near misses that are locks, for Lock.IsLock.
package evidence

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

// Data: an idempotency record, gated, deleted when the work fails so the
// message can be retried.
func consumeOrder(ctx context.Context, id string, work func() error) error {
	if ok, _ := rdb.SetNX(ctx, "order:done:"+id, 1, 24*time.Hour).Result(); !ok { // want `data`
		return nil
	}
	if err := work(); err != nil {
		rdb.Del(ctx, "order:done:"+id)
		return err
	}
	return nil
}

// Data: a webhook nonce, first writer wins.
func acceptWebhook(ctx context.Context, nonce string) bool {
	return rdb.SetNX(ctx, "webhook:nonce:"+nonce, 1, 10*time.Minute).Val() // want `data`
}

// Data: a stock counter seeded once, removed with the product.
func seedStock(ctx context.Context, sku string, n int) error {
	return rdb.SetNX(ctx, "stock:"+sku, n, 0).Err() // want `data`
}

func removeProduct(ctx context.Context, sku string) {
	rdb.Del(ctx, "stock:"+sku, "price:"+sku)
}

// Data: a cache fill nobody checks, invalidated elsewhere.
func fillProfile(ctx context.Context, id string, payload []byte) {
	rdb.SetNX(ctx, "profile:"+id, payload, time.Hour) // want `data`
}

func invalidateProfile(ctx context.Context, id string) {
	rdb.Del(ctx, "profile:"+id)
}

// Data: a pause flag set and cleared by two operations.
func pauseQueue(ctx context.Context, q string) {
	rdb.SetNX(ctx, "queue:paused:"+q, 1, 0) // want `data`
}

func resumeQueue(ctx context.Context, q string) {
	rdb.Del(ctx, "queue:paused:"+q)
}

// Data: a processed-message marker through redigo, released on failure.
func handleRedigo(c redigo.Conn, id string, work func() error) error {
	ok, err := redigo.String(c.Do("SET", "msg:processed:"+id, 1, "NX", "EX", 3600)) // want `data`
	if err != nil || ok != "OK" {
		return err
	}
	if err := work(); err != nil {
		c.Do("DEL", "msg:processed:"+id)
		return err
	}
	return nil
}

// Data: the function says what the record is.
func markSeen(ctx context.Context, id string) bool {
	return rdb.SetNX(ctx, "evt:"+id, 1, time.Hour).Val() // want `data`
}

func forgetEvent(ctx context.Context, id string) {
	rdb.Del(ctx, "evt:"+id)
}

// Data: a "welcome mail sent" record with its TTL set later.
func welcome(ctx context.Context, uid string) {
	rdb.SetNX(ctx, "welcome:"+uid, 1, 0) // want `data`
}

func welcomeTTL(ctx context.Context, uid string) {
	rdb.Expire(ctx, "welcome:"+uid, 30*24*time.Hour)
}

// Data: a rate-limit window seeded, counted and reset.
func allow(ctx context.Context, user string, limit int64) bool {
	key := "rl:" + user
	rdb.SetNX(ctx, key, 0, time.Minute) // want `data`
	return rdb.Incr(ctx, key).Val() <= limit
}

func resetLimit(ctx context.Context, user string) {
	rdb.Del(ctx, "rl:"+user)
}

// Data: a replayed-request guard.
func rejectReplay(ctx context.Context, sig string) error {
	if !rdb.SetNX(ctx, "replay:"+sig, 1, 5*time.Minute).Val() { // want `data`
		return errors.New("replayed")
	}
	return nil
}

// Lock: the key says so, even though nobody reads the result.
func report(ctx context.Context, tok string) {
	rdb.SetNX(ctx, "lock:report", tok, time.Minute) // want `lock`
}

func reportDone(ctx context.Context) {
	rdb.Del(ctx, "lock:report")
}

// Lock: taken and released by the same function (its result is ignored,
// which lockresult reports).
func export(ctx context.Context, id, tok string) {
	rdb.SetNX(ctx, "export:"+id, tok, time.Minute) // want `lock`
	defer rdb.Del(ctx, "export:"+id)
}

// Lock: its outcome gates the work, and it is released after it.
func rebuild(ctx context.Context, id, tok string) {
	if !rdb.SetNX(ctx, "rebuild:"+id, tok, time.Minute).Val() { // want `lock`
		return
	}
	defer rdb.Del(ctx, "rebuild:"+id)
}

// Lock: a lock word wins over a data word.
func lockDedup(ctx context.Context, id, tok string) bool {
	return rdb.SetNX(ctx, "dedup:"+id, tok, time.Minute).Val() // want `lock`
}

func unlockDedup(ctx context.Context, id string) {
	rdb.Del(ctx, "dedup:"+id)
}

// Lock: the receiver type says so.
type Mutex struct{ name, tok string }

func (m *Mutex) Acquire(ctx context.Context) {
	rdb.SetNX(ctx, m.name, m.tok, time.Minute) // want `lock`
}

func (m *Mutex) Release(ctx context.Context) {
	rdb.Del(ctx, m.name)
}

// Data: a data type's own SetNX method returns the outcome to its caller;
// that says nothing about a lock.
type JSONValue struct{ key string }

func (j *JSONValue) SetNX(ctx context.Context, v string) (bool, error) {
	return rdb.SetNX(ctx, "json:"+j.key, v, time.Hour).Result() // want `data`
}

func (j *JSONValue) Set(ctx context.Context, v string) error {
	return rdb.Set(ctx, "json:"+j.key, v, time.Hour).Err()
}

func (j *JSONValue) Del(ctx context.Context) error {
	return rdb.Del(ctx, "json:"+j.key).Err()
}

// Lock: a client's own SetNX wrapper that a lock of the package calls to
// take its key.
type Client struct{}

func (c *Client) SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error) {
	return rdb.SetNX(ctx, key, value, ttl).Result() // want `lock`
}

type OrderLock struct {
	c   *Client
	key string
}

func (o *OrderLock) Lock(ctx context.Context, tok string) (bool, error) {
	return o.c.SetNX(ctx, "order-lock:"+o.key, tok, time.Minute) // want `lock`
}

// Data: only the error of the SETNX is checked, and the record is expired
// and deleted along with the rest of the batch.
func initBatch(ctx context.Context, id string) error {
	if err := rdb.SetNX(ctx, "batch:"+id, id, time.Hour).Err(); err != nil { // want `data`
		return err
	}
	_, err := rdb.SetNX(ctx, "batch:state:"+id, "pending", time.Hour).Result() // want `data`
	return err
}

func removeBatch(ctx context.Context, id string) {
	rdb.Del(ctx, "batch:"+id, "batch:state:"+id)
}

// Lock: the same error-only acquire released by its own function.
func errOnlyLock(ctx context.Context, id string) error {
	if err := rdb.SetNX(ctx, "job:"+id, id, time.Minute).Err(); err != nil { // want `lock`
		return err
	}
	defer rdb.Del(ctx, "job:"+id)
	return nil
}

// Data: the record is written by a helper that reads only the error; its
// caller learns nothing about the NX outcome either.
func newRecord(ctx context.Context, id string) error {
	return initRecord(ctx, id) // want `data`
}

func initRecord(ctx context.Context, id string) error {
	return rdb.SetNX(ctx, "record:"+id, id, time.Hour).Err()
}

func dropRecord(ctx context.Context, id string) { rdb.Del(ctx, "record:"+id) }

// Data: a Go-mutex helper named lockState reads the record; that names no
// Redis lock.
func seedState(ctx context.Context, id string) error {
	return rdb.SetNX(ctx, "state:"+id, "pending", time.Hour).Err() // want `data`
}

func lockState(ctx context.Context, id string) string {
	return rdb.Get(ctx, "state:"+id).Val()
}

func removeState(ctx context.Context, id string) { rdb.Del(ctx, "state:"+id) }

// Data: a command handler creates a record in one case and removes it in
// another; that is no take-and-release.
func handleCommand(ctx context.Context, verb, id string) error {
	switch verb {
	case "NEW":
		return rdb.SetNX(ctx, "job:rec:"+id, id, time.Hour).Err() // want `data`
	case "DEL":
		return rdb.Del(ctx, "job:rec:"+id).Err()
	}
	return nil
}

// Lock: the function that sends the SET NX says the key marks work in
// progress, though nothing reads the outcome.
func markReportRunning(ctx context.Context, id string) {
	rdb.SetNX(ctx, "report:"+id, "1", time.Hour) // want `lock`
}

func clearReport(ctx context.Context, id string) { rdb.Del(ctx, "report:"+id) }

// Data: "Processing" in the name of a caller further up names that
// caller's work, not the key its helper writes.
func touchImport(ctx context.Context, id string) {
	rdb.SetNX(ctx, "import:"+id, "1", time.Hour) // want `data`
}

func startImportProcessing(ctx context.Context, id string) { touchImport(ctx, id) }

func clearImport(ctx context.Context, id string) { rdb.Del(ctx, "import:"+id) }

type invite struct{ From, To string }

// Data: an invite record created with NX (a duplicate pending invite is
// refused) and deleted when answered: its value is the encoded invite
// that readers decode, not a token.
func sendInvite(ctx context.Context, inv invite) error {
	raw, err := json.Marshal(inv)
	if err != nil {
		return err
	}
	ok, err := rdb.SetNX(ctx, "invite:"+inv.From+":"+inv.To, string(raw), 5*time.Minute).Result() // want `data`
	if err != nil || !ok {
		return errors.New("invite exists")
	}
	return nil
}

func answerInvite(ctx context.Context, inv invite) error {
	return rdb.Del(ctx, "invite:"+inv.From+":"+inv.To).Err()
}

// Lock: the same shape with a token for a value.
func sendReminder(ctx context.Context, inv invite, token string) error {
	ok, err := rdb.SetNX(ctx, "remind:"+inv.From+":"+inv.To, token, 5*time.Minute).Result() // want `lock`
	if err != nil || !ok {
		return errors.New("busy")
	}
	return rdb.Del(ctx, "remind:"+inv.From+":"+inv.To).Err()
}

// Lock: a lock word in the key wins over an encoded value (lock info
// kept as JSON).
func lockWithInfo(ctx context.Context, id string, info invite) error {
	raw, _ := json.Marshal(info)
	ok, err := rdb.SetNX(ctx, "lock:doc:"+id, raw, time.Minute).Result() // want `lock`
	if err != nil || !ok {
		return errors.New("busy")
	}
	return rdb.Del(ctx, "lock:doc:"+id).Err()
}
