// Package luascripts only holds scripts; it imports no Redis client.
package luascripts

// Lock creates the key with PX and refreshes it with EXPIRE: ARGV[2] is
// taken in two units.
var Lock = `
local v = redis.call('get', KEYS[1])
if v == false then
	return redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
elseif v == ARGV[1] then
	redis.call('expire', KEYS[1], ARGV[2])
	return 'OK'
end
return ''`

// LockSeconds takes ARGV[2] in seconds twice (EX and EXPIRE).
var LockSeconds = `
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then return 'OK' end
if redis.call('get', KEYS[1]) == ARGV[1] then
	redis.call('expire', KEYS[1], ARGV[2])
	return 'OK'
end
return ''`
