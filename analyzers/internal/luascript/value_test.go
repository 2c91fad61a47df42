package luascript

import "testing"

func TestSetValueArg(t *testing.T) {
	for _, tc := range []struct {
		src  string
		key  int
		want int
	}{
		{`return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`, 1, 1},
		{`return redis.call("set", KEYS[1], ARGV[2], "px", ARGV[1], "nx")`, 1, 2},
		{"local k = KEYS[1]\nlocal tok = ARGV[3]\nreturn redis.call('SET', k, tok, 'NX')", 1, 3},
		{`redis.call('SETNX', KEYS[2], ARGV[1])`, 2, 1},
		{`redis.call('SETNX', KEYS[2], ARGV[1])`, 1, 0},
		{`return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])`, 1, 0},                                 // no NX
		{`return redis.call('SET', KEYS[1], 'v' .. ARGV[1], 'NX')`, 1, 0},                                   // computed
		{`redis.call('SET', KEYS[1], ARGV[1], 'NX') redis.call('SET', KEYS[1], ARGV[2], 'NX')`, 1, 0},       // ambiguous
		{"if redis.call('exists', KEYS[1]) == 0 then redis.call('hincrby', KEYS[1], ARGV[2], 1) end", 1, 2}, // owner field
		{"redis.call('HSET', KEYS[1], 'w', ARGV[1])", 1, 1},                                                 // owner in a fixed field
		{"redis.call('HSET', KEYS[1], 'w', 'x' .. ARGV[1])", 1, 0},                                          // computed
	} {
		if got := Parse(tc.src).SetValueArg(tc.key); got != tc.want {
			t.Errorf("SetValueArg(%d) of %q = %d, want %d", tc.key, tc.src, got, tc.want)
		}
	}
}
