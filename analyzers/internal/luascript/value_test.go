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
		{`return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])`, 1, 0},                                                                                              // no NX
		{"if redis.call('GET', KEYS[1]) == false then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) return 1 end return 0", 1, 1},                                   // SET where the key is absent
		{"if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) return 1 end return 0", 1, 0},                                 // a renewal of the owner's key
		{"if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SET', KEYS[2], ARGV[2]) end return 1", 2, 0}, // a holder of KEYS[1] seeding KEYS[2]
		{`return redis.call('SET', KEYS[1], 'v' .. ARGV[1], 'NX')`, 1, 0},                                                                                                // computed
		{`redis.call('SET', KEYS[1], ARGV[1], 'NX') redis.call('SET', KEYS[1], ARGV[2], 'NX')`, 1, 0},                                                                    // ambiguous
		{"if redis.call('exists', KEYS[1]) == 0 then redis.call('hincrby', KEYS[1], ARGV[2], 1) end", 1, 2},                                                              // owner field
		{"redis.call('HSET', KEYS[1], 'w', ARGV[1])", 1, 1},                                                                                                              // owner in a fixed field
		{"redis.call('HSET', KEYS[1], 'w', 'x' .. ARGV[1])", 1, 0},                                                                                                       // computed
		// Several fixed fields: the owner is the one compared with its argument.
		{"if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'expire', ARGV[2]) return 1 " +
			"elseif redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then redis.call('HSET', KEYS[1], 'expire', ARGV[2]) return 1 end return 0", 1, 1},
		{"local k = KEYS[1] if redis.call('HGET', k, 'holder') ~= ARGV[2] then redis.call('HSET', k, 'at', ARGV[1], 'holder', ARGV[2]) end", 1, 2},
		{"redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'expire', ARGV[2])", 1, 0},                    // nothing says which
		{"redis.call('HSET', KEYS[1], 'a', ARGV[1]) redis.call('HSET', KEYS[1], 'a', ARGV[2])", 1, 0}, // one field, two values
	} {
		if got := Parse(tc.src).SetValueArg(tc.key); got != tc.want {
			t.Errorf("SetValueArg(%d) of %q = %d, want %d", tc.key, tc.src, got, tc.want)
		}
	}
}

func TestAcquireReplies(t *testing.T) {
	for _, tc := range []struct {
		src               string
		acquired, refused string // "" when not known
	}{
		// Inverted: 0 when it took the lock, 1 when held.
		{"local v = redis.call('GET', KEYS[1])\nif v == '1' then\n return 1\nend\nredis.call('SETEX', KEYS[1], 60, '1')\nreturn 0", "0", "1"},
		{"if redis.call('exists', KEYS[1]) == 0 then\n redis.call('hset', KEYS[1], ARGV[1], 1)\n return 1\nend\nreturn 0", "", ""}, // refusal after the create
		{"if redis.call('GET', KEYS[1]) then return 0 end\nredis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])\nreturn 1", "1", "0"},
		{"return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])", "", ""},                                      // the SET's own reply
		{"if redis.call('GET', KEYS[1]) then return 2 end\nredis.call('SET', KEYS[1], ARGV[1], 'NX')\nreturn 2", "", ""}, // same either way
		{"redis.call('SET', KEYS[2], ARGV[1], 'NX')\nreturn 0", "", ""},                                                  // no refusal seen
	} {
		a, r, ok := Parse(tc.src).AcquireReplies(1)
		if ok != (tc.acquired != "") || a != tc.acquired || r != tc.refused {
			t.Errorf("AcquireReplies(1) of %q = %q, %q, %v; want %q, %q", tc.src, a, r, ok, tc.acquired, tc.refused)
		}
	}
}
