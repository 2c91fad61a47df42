package fence

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// SetScript writes a value only if its grant may write, and records the
// grant, in one atomic step. KEYS[1] is the key, KEYS[2] the fence record, a
// hash in KEYS[1]'s hash slot (see RedisFenceKey); ARGV[1] is the fence as a
// positive decimal integer, ARGV[2] the grant's token, ARGV[3] the value. It
// writes when no fence was recorded, when the recorded fence is lower, or
// when it is equal and was recorded with the same token; it returns 1 when
// it wrote, else 0. Fences are compared as digit strings (length first), so
// they stay exact over the whole int64 range, where Lua numbers would not.
const SetScript = `if not string.match(ARGV[1], '^[1-9][0-9]*$') then
  return redis.error_reply('ERR fence must be a positive integer')
end
if ARGV[2] == '' then return redis.error_reply('ERR empty token') end
local seen = redis.call('HMGET', KEYS[2], 'fence', 'token')
local f = seen[1]
if f then
  if #f > #ARGV[1] or (#f == #ARGV[1] and f > ARGV[1]) then return 0 end
  if f == ARGV[1] and seen[2] ~= ARGV[2] then return 0 end
end
redis.call('HSET', KEYS[2], 'fence', ARGV[1], 'token', ARGV[2])
redis.call('SET', KEYS[1], ARGV[3])
return 1
`

var setScript = redis.NewScript(SetScript)

// fenceKeyPrefix names the record of the last grant that wrote a key.
const fenceKeyPrefix = "safelock:fenced:"

// SetRedis stores value at key if g may write it, and records g as the last
// writer, in one round trip (SetScript by EVALSHA). g may write when no
// SetRedis call wrote key before, when the last one had a lower fence, or
// when it was g itself. It reports whether it wrote; false means another
// grant with a higher or equal fence has written, so g's lease is stale (or
// its fence was issued twice).
//
// The value is written with SET, so it has no expiry. The fence record never
// expires either: it must outlive any holder that might still write late.
// It works on Redis Cluster: the record shares key's hash slot.
func SetRedis(ctx context.Context, c redis.Scripter, key string, g Grant, value any) (bool, error) {
	if isNil(c) {
		return false, fmt.Errorf("%w: nil redis client", ErrInvalid)
	}
	fk, err := RedisFenceKey(key)
	if err != nil {
		return false, err
	}
	f, tok, err := checkGrant(g, true)
	if err != nil {
		return false, err
	}
	n, err := setScript.Run(ctx, c, []string{key, fk}, strconv.FormatInt(f, 10), tok, value).Int()
	if err != nil {
		return false, fmt.Errorf("fence: set %q: %w", key, err)
	}
	return n == 1, nil
}

// RedisFenceKey returns the key of the hash where SetRedis keeps the fence
// and token of the last grant that wrote key. It shares key's Redis Cluster hash slot: a key with a {hash tag}
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
