package safelock

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// nextFenceLua defines nextFence(counter), which issues a fence: the
// counter plus one, by INCR. When the counter is missing (its first use,
// or lost with the server's data in a restart without persistence) INCR
// gives 1, and the counter starts instead from the server's TIME in
// microseconds, which is above every fence issued before as long as the
// server's clock has not gone back and fewer than one fence per
// microsecond was issued on average. So fences from one counter strictly
// increase, with one command per acquire; TIME is read only on a restart.
// A replica promoted in a failover may have missed the last INCRs and
// issue them again: WithReplicaAck makes each grant wait for replicas,
// which closes that window. Microseconds stay below 2^53 (exact in Lua
// numbers) until the year 2255.
const nextFenceLua = `local function nextFence(counter)
  local n = redis.call('INCR', counter)
  if n > 1 then return n end
  local t = redis.call('TIME')
  local now = t[1] .. string.format('%06d', tonumber(t[2]))
  redis.call('SET', counter, now)
  return tonumber(now)
end
`

// AcquireScript takes the lock and issues its fencing token in one atomic
// step. KEYS[1] is the lock key, KEYS[2] the fence counter (it must share the
// lock key's hash slot on Redis Cluster); ARGV[1] is the token, ARGV[2] the
// ttl in milliseconds. The fence is the counter plus one (see nextFence):
// counters start from the server's TIME in microseconds, so fences are
// large numbers (about 1.8e15), not 1, 2, 3, and keep rising when the
// counter is lost with the server's data. The optional KEYS[3], KEYS[4]
// and ARGV[3] register a waiter: when the lock is not granted, the token
// joins the sorted set KEYS[4] by its first arrival (server TIME) and
// KEYS[3] marks the key as waited for, both for
// the holder's remaining ttl or ARGV[3] ms, whichever is longer, so that a
// release publishes only when someone waits, and then the token of one
// waiter, the longest waiting, who alone retries. A waiter granted the
// lock (ARGV[4] "1") leaves the set. It returns
// {1, fence, version} when the token holds the lock (also when a retried
// call finds its own token) and {0, pttl, version} otherwise; version is
// the server's redis.REDIS_VERSION_NUM (0 where the server does not say),
// which tells a client whether it has DELEX and SET IFEQ (8.4 and later)
// without another round trip. It needs Redis 5 or later (a write after
// TIME in a script).
const AcquireScript = nextFenceLua + `local v = redis.REDIS_VERSION_NUM or 0
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  if ARGV[4] == '1' then redis.call('ZREM', KEYS[4], ARGV[1]) end
  return {1, nextFence(KEYS[2]), v}
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, tonumber(redis.call('GET', KEYS[2]) or '0'), v}
end
local pttl = redis.call('PTTL', KEYS[1])
if ARGV[3] then
  local mark = tonumber(ARGV[3])
  if pttl > mark then mark = pttl end
  redis.call('SET', KEYS[3], '1', 'PX', mark)
  local t = redis.call('TIME')
  redis.call('ZADD', KEYS[4], 'NX', tonumber(t[1]) * 1000000 + tonumber(t[2]), ARGV[1])
  redis.call('PEXPIRE', KEYS[4], mark)
end
return {0, pttl, v}
`

// ReleaseScript deletes the lock only if it still holds the token. KEYS[1] is
// the lock key, ARGV[1] the token and the optional ARGV[2] a pub/sub channel
// on which waiters are told that the lock is free. It returns 1 when it
// deleted the key, 0 when the key held another value or none.
const ReleaseScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if ARGV[2] then redis.call('PUBLISH', ARGV[2], '') end
  return 1
end
return 0
`

// RenewScript sets a new ttl only if the lock still holds the token. KEYS[1]
// is the lock key, ARGV[1] the token, ARGV[2] the ttl in milliseconds. It
// returns 1 when it renewed, 0 otherwise.
const RenewScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`

// fairAcquireScript is AcquireScript behind a FIFO queue. KEYS[3] is a ZSET
// of waiter tokens by arrival time, KEYS[4] a ZSET of the same tokens by the
// time (ms) after which a waiter that stopped asking is dropped. ARGV[3] is
// that waiter ttl in ms, ARGV[4] is "1" to join (or stay in) the queue when
// the lock is not granted, ARGV[5] the release channel. The lock goes only
// to the head of the queue, or to anyone when the queue is empty. Returns
// {1, fence, version, 0} or {0, pttl, version, isHead}. Fences come from
// nextFence, as in AcquireScript.
//
// A lock that expires is freed without a release, so nobody publishes; a
// waiter that becomes head then would sleep a non-head's long pause. So
// the script publishes the head's token on the channel whenever the head
// changed under it (the head took the lock, dead waiters were dropped), and
// when it finds the lock free but the head someone else (a head that has
// not yet heard). While a holder has the lock the message is "token pttl":
// the head then paces itself by the holder's pttl without an attempt that
// would fail; a plain token means the lock is free to try.
const fairAcquireScript = nextFenceLua + `local v = redis.REDIS_VERSION_NUM or 0
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local first = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
local gone = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now)
for i = 1, #gone do redis.call('ZREM', KEYS[3], gone[i]) end
if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now) end
local holder = redis.call('GET', KEYS[1])
local function tellHead(pttl)
  local h = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
  if h and h ~= ARGV[1] and ARGV[5] and (h ~= first or not holder) then
    if holder and pttl then h = h .. ' ' .. pttl end
    redis.call('PUBLISH', ARGV[5], h)
  end
  return h
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  tellHead(ARGV[2])
  return {1, tonumber(redis.call('GET', KEYS[2]) or '0'), v, 0}
end
local head = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
if not holder and (head == nil or head == ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('ZREM', KEYS[4], ARGV[1])
  holder = ARGV[1]
  tellHead(ARGV[2])
  return {1, nextFence(KEYS[2]), v, 0}
end
if ARGV[4] == '1' then
  redis.call('ZADD', KEYS[3], 'NX', tonumber(t[1]) * 1000000 + tonumber(t[2]), ARGV[1])
  redis.call('ZADD', KEYS[4], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
end
local pttl = 0
if holder then pttl = redis.call('PTTL', KEYS[1]) end
head = tellHead(pttl)
if head == ARGV[1] then return {0, pttl, v, 1} end
return {0, pttl, v, 0}
`

// leaseReleaseScript is ReleaseScript as a Lease runs it. KEYS[1] is the
// lock key, KEYS[2] the fence counter, KEYS[3] the waiter mark and KEYS[4]
// the set of waiting tokens (see AcquireScript); ARGV[1] is the token,
// ARGV[2] the channel, the optional ARGV[3] the lease's fence. Deleting
// the lock and the mark in one DEL tells whether anyone waits; only then
// it takes the longest waiting token from the set and publishes it, so
// one waiter retries, and marks the key again while others wait. When the key no
// longer holds the token but the counter still holds the lease's fence,
// nobody was granted the lock since this lease: a release whose first
// reply was lost and that go-redis sent again, or a lease that expired
// with nobody taking the lock in between; both are reported released.
const leaseReleaseScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  if redis.call('DEL', KEYS[1], KEYS[3]) > 1 then
    redis.call('PUBLISH', ARGV[2], redis.call('ZPOPMIN', KEYS[4])[1] or '')
    local left = redis.call('PTTL', KEYS[4])
    if left > 0 then redis.call('SET', KEYS[3], '1', 'PX', left) end
  end
  return 1
end
if ARGV[3] and redis.call('GET', KEYS[2]) == ARGV[3] then return 1 end
return 0
`

// fairReleaseScript is leaseReleaseScript for a fair lock: KEYS[2] and
// KEYS[3] are the queue ZSETs, KEYS[4] the record of the last released
// token; ARGV[2] is the channel, ARGV[3] the record's ttl in ms. It
// publishes the token of the waiter at the head of the queue so that only
// that waiter retries.
const fairReleaseScript = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  if redis.call('GET', KEYS[4]) == ARGV[1] then return 1 end
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[4], ARGV[1], 'PX', ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for i = 1, #gone do redis.call('ZREM', KEYS[2], gone[i]) end
if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now) end
redis.call('PUBLISH', ARGV[2], redis.call('ZRANGE', KEYS[2], 0, 0)[1] or '')
return 1
`

// leaveQueueScript removes a waiter that gave up (KEYS: lock, queue,
// deadlines; ARGV: token, channel) and tells the new head of the queue when
// the lock is free or the leaver was the head: a lock that expires is freed
// without a release, so the new head must know to watch for that.
const leaveQueueScript = `local first = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
local removed = redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if removed == 1 then
  local head = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if head and (first == ARGV[1] or redis.call('EXISTS', KEYS[1]) == 0) then
    redis.call('PUBLISH', ARGV[2], head)
  end
end
return removed
`

// raiseFenceScript lifts a fence counter (KEYS[1]) to at least ARGV[1]. A
// Redlock lease runs it on the nodes that granted it, so that any later
// majority sees a counter at least as high as this lease's fence.
const raiseFenceScript = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
`

var (
	acquireScript = redis.NewScript(AcquireScript)
	releaseScript = redis.NewScript(ReleaseScript)
	leaseRelease  = redis.NewScript(leaseReleaseScript)
	renewScript   = redis.NewScript(RenewScript)
	fairAcquire   = redis.NewScript(fairAcquireScript)
	fairRelease   = redis.NewScript(fairReleaseScript)
	leaveQueue    = redis.NewScript(leaveQueueScript)
	raiseFence    = redis.NewScript(raiseFenceScript)
)

const (
	minTTL            = time.Millisecond
	tokenBytes        = 16
	channelPrefix     = "safelock:released:"
	fenceKeyPrefix    = "safelock:fence:"
	queueKeyPrefix    = "safelock:queue:"
	deadlineKeyPrefix = "safelock:queue-deadlines:"
	releasedKeyPrefix = "safelock:released-token:"
	waitingKeyPrefix  = "safelock:waiting:"
	waitersKeyPrefix  = "safelock:waiters:"
	// releasedTTL is how long a release is remembered: longer than go-redis
	// keeps retrying one call.
	releasedTTL = time.Minute
)

// NewToken returns a random lock token: 128 bits from crypto/rand, encoded
// as 22 URL-safe characters.
func NewToken() string {
	b := make([]byte, tokenBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never returns an error (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ReleaseKey deletes key if it still holds token, in one atomic step
// (ReleaseScript by EVALSHA), and wakes safelock waiters on the key. It
// reports whether it deleted the key; false means the lock had expired or
// belongs to someone else, whose lock is left alone.
func ReleaseKey(ctx context.Context, c redis.Scripter, key, token string) (bool, error) {
	if err := checkFree(c, key, token); err != nil {
		return false, err
	}
	n, err := releaseScript.Run(ctx, c, []string{key}, token, channelPrefix+key).Int()
	return n == 1, err
}

// RenewKey sets key's ttl if it still holds token, in one atomic step
// (RenewScript by EVALSHA). It reports whether it renewed.
func RenewKey(ctx context.Context, c redis.Scripter, key, token string, ttl time.Duration) (bool, error) {
	if err := checkFree(c, key, token); err != nil {
		return false, err
	}
	if err := checkTTL(ttl); err != nil {
		return false, err
	}
	n, err := renewScript.Run(ctx, c, []string{key}, token, ttl.Milliseconds()).Int()
	return n == 1, err
}

func checkFree(c redis.Scripter, key, token string) error {
	if isNil(c) {
		return fmt.Errorf("%w: nil redis client", ErrInvalid)
	}
	if _, err := lockKeys(key); err != nil {
		return err
	}
	if token == "" {
		return fmt.Errorf("%w: empty token", ErrInvalid)
	}
	return nil
}

func checkTTL(ttl time.Duration) error {
	if ttl < minTTL {
		return fmt.Errorf("%w: ttl %v is below 1ms", ErrInvalid, ttl)
	}
	return nil
}

// isNil reports whether c is nil or a typed nil go-redis client.
func isNil(c any) bool {
	switch v := c.(type) {
	case nil:
		return true
	case *redis.Client:
		return v == nil
	case *redis.ClusterClient:
		return v == nil
	case *redis.Ring:
		return v == nil
	}
	return false
}

// keySet names the keys of one lock. The derived keys share the lock key's
// hash slot, so the scripts work on Redis Cluster: a key with a hash tag
// keeps it ("{user:1}:lock" gives "safelock:fence:{user:1}:lock"), any other
// key becomes the tag ("job" gives "safelock:fence:{job}").
type keySet struct {
	lock, fence, queue, deadlines, channel, released, waiting, waiters string
}

func lockKeys(key string) (keySet, error) {
	if key == "" {
		return keySet{}, fmt.Errorf("%w: empty key", ErrInvalid)
	}
	tagged := key
	if !hasHashTag(key) {
		if strings.Contains(key, "}") {
			return keySet{}, fmt.Errorf("%w: key %q contains '}' but no {hash tag}; derived keys could not share its cluster slot", ErrInvalid, key)
		}
		tagged = "{" + key + "}"
	}
	return keySet{
		lock:      key,
		fence:     fenceKeyPrefix + tagged,
		queue:     queueKeyPrefix + tagged,
		deadlines: deadlineKeyPrefix + tagged,
		channel:   channelPrefix + key,
		released:  releasedKeyPrefix + tagged,
		waiting:   waitingKeyPrefix + tagged,
		waiters:   waitersKeyPrefix + tagged,
	}, nil
}

// hasHashTag reports whether Redis Cluster hashes key by a {tag}: the text
// between the first '{' and the first '}' after it, when not empty.
func hasHashTag(key string) bool {
	open := strings.IndexByte(key, '{')
	if open < 0 {
		return false
	}
	end := strings.IndexByte(key[open+1:], '}')
	return end > 0
}
