package fence

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// SetScript writes a value only if its fence is not lower than the highest
// fence seen for the key, and records the fence, in one atomic step. KEYS[1]
// is the key, KEYS[2] the fence record (in KEYS[1]'s hash slot: see
// RedisFenceKey); ARGV[1] is the fence as a positive decimal integer,
// ARGV[2] the value. It returns 1 when it wrote, 0 when a higher fence was
// seen. Fences are compared as digit strings (length first), so they stay
// exact over the whole int64 range, where Lua numbers would not.
const SetScript = `if not string.match(ARGV[1], '^[1-9][0-9]*$') then
  return redis.error_reply('ERR fence must be a positive integer')
end
local seen = redis.call('GET', KEYS[2])
if seen and (#seen > #ARGV[1] or (#seen == #ARGV[1] and seen > ARGV[1])) then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SET', KEYS[1], ARGV[2])
return 1
`

var setScript = redis.NewScript(SetScript)

// fenceKeyPrefix names the record of the highest fence seen for a key.
const fenceKeyPrefix = "safelock:fenced:"

// SetRedis stores value at key if fence is not lower than the highest fence
// any SetRedis call has stored for key, and records fence as the new
// highest, in one round trip (SetScript by EVALSHA). It reports whether it
// wrote; false means a newer holder has written, so the caller's lease is
// stale. An equal fence is accepted (the same grant writing again).
//
// The value is written with SET, so it has no expiry. The fence record never
// expires either: it must outlive any holder that might still write late.
// It works on Redis Cluster: the record shares key's hash slot.
func SetRedis(ctx context.Context, c redis.Scripter, key string, fence int64, value any) (bool, error) {
	if isNil(c) {
		return false, fmt.Errorf("%w: nil redis client", ErrInvalid)
	}
	fk, err := RedisFenceKey(key)
	if err != nil {
		return false, err
	}
	if err := checkFence(fence); err != nil {
		return false, err
	}
	n, err := setScript.Run(ctx, c, []string{key, fk}, strconv.FormatInt(fence, 10), value).Int()
	if err != nil {
		return false, fmt.Errorf("fence: set %q: %w", key, err)
	}
	return n == 1, nil
}

// RedisFenceKey returns the key where SetRedis keeps the highest fence seen
// for key. It shares key's Redis Cluster hash slot: a key with a {hash tag}
// keeps it ("{user:1}:balance" gives "safelock:fenced:{user:1}:balance"), any
// other key becomes the tag ("balance" gives "safelock:fenced:{balance}").
// A key that contains '}' but no hash tag is refused: no derived name could
// share its slot.
func RedisFenceKey(key string) (string, error) {
	if key == "" {
		return "", fmt.Errorf("%w: empty key", ErrInvalid)
	}
	if hasHashTag(key) {
		return fenceKeyPrefix + key, nil
	}
	if strings.Contains(key, "}") {
		return "", fmt.Errorf("%w: key %q contains '}' but no {hash tag}; its fence record could not share its cluster slot", ErrInvalid, key)
	}
	return fenceKeyPrefix + "{" + key + "}", nil
}

// hasHashTag reports whether Redis Cluster hashes key by a {tag}: the text
// between the first '{' and the first '}' after it, when not empty.
func hasHashTag(key string) bool {
	open := strings.IndexByte(key, '{')
	if open < 0 {
		return false
	}
	return strings.IndexByte(key[open+1:], '}') > 0
}

// isNil reports whether c is nil or a typed nil go-redis client.
func isNil(c redis.Scripter) bool {
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
