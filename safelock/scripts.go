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
// gives a small number (1, or a few more when TryAcquire calls that were
// refused bumped it since: see acquireFast), and the counter starts
// instead from the server's TIME in microseconds, which is above every
// fence issued before as long as the server's clock has not gone back and
// fewer than one fence per microsecond was issued on average. So fences
// from one counter strictly increase, with one command per acquire; TIME
// is read only on a restart. A counter below minFence (10^15 µs, in 2001)
// is taken for a restarted one.
// A replica promoted in a failover may have missed the last INCRs and
// issue them again: WithReplicaAck makes each grant wait for replicas,
// which closes that window. Microseconds stay below 2^53 (exact in Lua
// numbers) until the year 2255.
const nextFenceLua = `local function nextFence(counter)
  local n = redis.call('INCR', counter)
  if n >= 1000000000000000 then return n end
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
// waiter, the longest waiting, who alone retries, taking it out of the
// set. ARGV[4] says that the caller has waited: "1", or "2" when a release
// named it; granted, it leaves the set; refused, a waiter that a release
// named rejoins the set at its head (it was the longest waiting, and a
// release half done on other nodes, or a caller that did not wait, took
// the lock before it). It returns
// {1, fence, version} when the token holds the lock (also when a retried
// call finds its own token) and {0, pttl, version} otherwise; version is
// the server's redis.REDIS_VERSION_NUM (0 where the server does not say),
// which tells a client whether it has DELEX and SET IFEQ (8.4 and later)
// without another round trip. It needs Redis 5 or later (a write after
// TIME in a script).
const AcquireScript = nextFenceLua + `local v = redis.REDIS_VERSION_NUM or 0
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  if ARGV[4] then redis.call('ZREM', KEYS[4], ARGV[1]) end
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
  local score
  if ARGV[4] == '2' then
    local first = redis.call('ZRANGE', KEYS[4], 0, 0, 'WITHSCORES')[2]
    if first then score = tonumber(first) - 1 end
  end
  if not score then
    local t = redis.call('TIME')
    score = tonumber(t[1]) * 1000000 + tonumber(t[2])
  end
  redis.call('ZADD', KEYS[4], 'NX', score, ARGV[1])
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

// queueLua defines the queue scripts' queue functions. KEYS[1] is the lock
// key, KEYS[2] the fence counter, KEYS[3] the queue (a ZSET of waiter
// tokens by first arrival, server TIME in µs) and KEYS[4] the waiters'
// places (a HASH: token -> "alive-until-ms ttl-ms listen", where listen
// is "=" or "?" and the channel the waiter's process listens on, "="
// when PUBLISH counts its listeners exactly (not on Redis Cluster), or
// "-" when the waiter only polls). A waiter renews its place each time
// it asks.
//
// handOn gives the lock to the first live waiter: its token, its ttl, a
// new fence, published to its channel as "token=fence", except on the
// channel named by `here` (each script defines it: the release sets it to
// the releasing process's channel, whose waiter that process tells
// itself, without the PUBLISH and the wake-up of its pub/sub reader, and
// which is alive, since it is releasing). Nobody else is
// told: the first waiters ask again by themselves when the holder's key
// would expire (see Locker.pause). A waiter whose process no longer listens
// (PUBLISH reached nobody: it crashed), or, where that cannot be told,
// that stopped asking, is dropped on the way; so every queue operation
// is O(log n) plus the dead waiters it drops, and no dead waiter is
// handed the lock for its ttl. Where that cannot be told (a polling
// waiter, or a cluster), the key is set only for as long as the
// waiter's place lives, and the message says so: "token=fence,px"; the
// waiter's first renew gives it its ttl.
const queueLua = nextFenceLua + queueHelpersLua

// queueHelpersLua is queueLua without nextFence: the scripts define it
// after their fast paths, which then skip creating its closures (several
// µs per call on the server).
const queueHelpersLua = `local clock
local function now()
  if not clock then
    local t = redis.call('TIME')
    clock = {tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), tonumber(t[1]) * 1000000 + tonumber(t[2])}
  end
  return clock[1]
end
local function place(token)
  local rec = redis.call('HGET', KEYS[4], token)
  if not rec then return nil end
  local alive, ttl, exact, ch = string.match(rec, '^(%d+) (%d+) (.)(.*)$')
  if not alive then return nil end
  return {alive = tonumber(alive), ttl = ttl, exact = exact == '=', ch = ch}
end
local function tell(p, msg)
  if p.ch == '' or p.ch == here then return true end
  return redis.call('PUBLISH', p.ch, msg) > 0 or not p.exact
end
local function handOn()
  while true do
    local h = redis.call('ZPOPMIN', KEYS[3])[1]
    if not h then return nil end
    local p = place(h)
    redis.call('HDEL', KEYS[4], h)
    if p and (p.exact or p.alive >= now()) then
      local fence = nextFence(KEYS[2])
      local px, msg = tonumber(p.ttl), h .. '=' .. string.format('%d', fence)
      if not p.exact and p.alive - now() < px then
        px = math.max(p.alive - now(), 1)
        msg = msg .. ',' .. px
      end
      if tell(p, msg) then
        redis.call('SET', KEYS[1], h, 'PX', px)
        return h, fence, msg
      end
    end
  end
end
`

// queueAcquireScript is AcquireScript for a Locker on one deployment,
// whose waiters queue (see queueLua for KEYS[1] to KEYS[4]; KEYS[5] marks
// the key as waited for while the queue lives, so that a release looks
// at the queue only then). ARGV[1] is the token, ARGV[2] the ttl in ms,
// ARGV[3] the waiter ttl in ms (how long the waiter's place outlives its
// last ask), ARGV[4] "1" to join (or stay in) the queue when the lock is
// not granted, ARGV[5] how the waiter listens (see queueLua), ARGV[6] "1"
// for a fair lock. Without fairness a caller takes a free lock whoever
// waits (one SET NX: the release hands a held lock to the head of the
// queue, so only a lock freed by expiry is free while anyone waits). A
// fair caller takes a free lock only when nobody is queued ahead of it;
// otherwise the free lock is handed to the first live waiter. A token
// that already holds the key (handed over by a release, or a retried
// call) is renewed. Returns {1, fence, version} or {0, pttl, version,
// floor, ahead}: floor is the fence counter now, so a handoff announced
// later with a fence above it happened after this call; ahead is the
// number of waiters queued before the caller (ZRANK, O(log n); -1 when
// it is not queued).
const queueAcquireScript = nextFenceLua + `local v = redis.REDIS_VERSION_NUM or 0
local got = ARGV[6] ~= '1' and redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
if got and (ARGV[4] ~= '1' or not redis.call('ZRANGE', KEYS[3], 0, 0)[1]) then
  return {1, nextFence(KEYS[2]), v}
end
local here
` + queueHelpersLua + `local function leave()
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('HDEL', KEYS[4], ARGV[1])
end
if got then
  leave()
  return {1, nextFence(KEYS[2]), v}
end
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, tonumber(redis.call('GET', KEYS[2]) or '0'), v}
end
if not holder then
  local h = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
  local fence
  if h and h ~= ARGV[1] then holder, fence = handOn() end
  if holder == ARGV[1] then return {1, fence, v} end
  if not holder then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    if h then leave() end
    return {1, nextFence(KEYS[2]), v}
  end
end
if ARGV[4] == '1' then
  now()
  redis.call('ZADD', KEYS[3], 'NX', clock[2], ARGV[1])
  redis.call('HSET', KEYS[4], ARGV[1], string.format('%d', now() + tonumber(ARGV[3])) .. ' ' .. ARGV[2] .. ' ' .. ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
  redis.call('SET', KEYS[5], '1', 'PX', ARGV[3])
end
local floor = tonumber(redis.call('GET', KEYS[2]) or '0')
if floor == 0 then
  now()
  floor = clock[2]
end
return {0, redis.call('PTTL', KEYS[1]), v, floor, redis.call('ZRANK', KEYS[3], ARGV[1]) or -1}
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

// queueReleaseScript is leaseReleaseScript for a Locker on one deployment
// (KEYS as in queueAcquireScript); ARGV[1] is the token, ARGV[2] the
// lease's fence. Deleting the lock and the waiter mark in
// one DEL tells whether anyone may wait; only then it hands the lock to
// the first live waiter (handOn), so a handoff costs no attempt, and
// marks the key again for as long as the queue lives. It returns 1, or
// the handoff's message when it handed the lock over (the releaser's
// Locker may hold that waiter: it is told at once). As in
// leaseReleaseScript, a release that finds the key gone reports success
// while the counter still holds the lease's fence ("0": no fence known).
// The optional ARGV[3] is the releasing process's own channel (`here` in
// queueLua).
const queueReleaseScript = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  if ARGV[2] ~= '0' and redis.call('GET', KEYS[2]) == ARGV[2] then return 1 end
  return 0
end
if redis.call('DEL', KEYS[1], KEYS[5]) == 1 then return 1 end
local here = ARGV[3]
` + queueLua + `local _, _, msg = handOn()
local left = redis.call('PTTL', KEYS[3])
if left > 0 then redis.call('SET', KEYS[5], '1', 'PX', left) end
return msg or 1
`

// leaveQueueScript removes a waiter that gave up (KEYS as in queueLua;
// ARGV[1] its token). When the lock was handed to it meanwhile, or the
// lock is free, it hands the lock on (handOn).
const leaveQueueScript = `local here
` + queueLua + `local removed = redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] or not holder then
  if not handOn() and holder then redis.call('DEL', KEYS[1]) end
end
return removed
`

// startFenceScript issues a fence from a counter (KEYS[1]) that an INCR
// found below minFence: nextFence finds it there still and starts it from
// the server's TIME.
const startFenceScript = nextFenceLua + `return nextFence(KEYS[1])
`

// minFence is the least counter a started fence counter holds: the number
// nextFenceLua compares with (10^15 µs, in 2001).
const minFence = 1_000_000_000_000_000

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
	queueAcquire  = redis.NewScript(queueAcquireScript)
	queueRelease  = redis.NewScript(queueReleaseScript)
	leaveQueue    = redis.NewScript(leaveQueueScript)
	raiseFence    = redis.NewScript(raiseFenceScript)
	startFence    = redis.NewScript(startFenceScript)
)

const (
	minTTL           = time.Millisecond
	tokenBytes       = 16
	channelPrefix    = "safelock:released:"
	ownChannelPrefix = "safelock:waiter:"
	fenceKeyPrefix   = "safelock:fence:"
	queueKeyPrefix   = "safelock:queue:"
	placesKeyPrefix  = "safelock:queue-places:"
	waitingKeyPrefix = "safelock:waiting:"
	waitersKeyPrefix = "safelock:waiters:"
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
// key becomes the tag ("job" gives "safelock:fence:{job}"). A keySet is
// shared (by a Locker's leases on the key, see Locker.check) and never
// changed after lockKeys made it.
type keySet struct {
	lock, fence, queue, places, channel, waiting, waiters string
	// queued is the KEYS of the queue scripts (queueLua): lock, fence,
	// queue, places, waiting; kept here so that a call passes them
	// without building the list.
	queued [5]string
}

func lockKeys(key string) (*keySet, error) {
	if key == "" {
		return nil, fmt.Errorf("%w: empty key", ErrInvalid)
	}
	tagged := key
	if !hasHashTag(key) {
		if strings.Contains(key, "}") {
			return nil, fmt.Errorf("%w: key %q contains '}' but no {hash tag}; derived keys could not share its cluster slot", ErrInvalid, key)
		}
		tagged = "{" + key + "}"
	}
	// The derived names share one allocation: this runs for every
	// TryAcquire and Acquire.
	prefixes := [...]string{fenceKeyPrefix, queueKeyPrefix, placesKeyPrefix, waitingKeyPrefix, waitersKeyPrefix, channelPrefix}
	var b strings.Builder
	b.Grow(len(fenceKeyPrefix+queueKeyPrefix+placesKeyPrefix+waitingKeyPrefix+waitersKeyPrefix+channelPrefix) + 5*len(tagged) + len(key))
	var ends [len(prefixes)]int
	for i, p := range prefixes {
		b.WriteString(p)
		if p == channelPrefix {
			b.WriteString(key)
		} else {
			b.WriteString(tagged)
		}
		ends[i] = b.Len()
	}
	all := b.String()
	name := func(i int) string {
		if i == 0 {
			return all[:ends[0]]
		}
		return all[ends[i-1]:ends[i]]
	}
	ks := &keySet{lock: key, fence: name(0), queue: name(1), places: name(2), waiting: name(3), waiters: name(4), channel: name(5)}
	ks.queued = [...]string{ks.lock, ks.fence, ks.queue, ks.places, ks.waiting}
	return ks, nil
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
