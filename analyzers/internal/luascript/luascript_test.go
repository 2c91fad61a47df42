package luascript

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		name            string
		src             string
		del, delChecked bool
		exp, expChecked bool
		acq, acqTTL     bool
	}{
		{name: "compare and delete", src: `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`,
			del: true, delChecked: true},
		{name: "negated guard", src: "if redis.call('GET', KEYS[1]) ~= ARGV[1] then\n return 0\nend\nreturn redis.call('DEL', KEYS[1])",
			del: true, delChecked: true},
		{name: "aliases", src: "local key = KEYS[1]\nlocal token = ARGV[1]\nlocal v = redis.call('get', key)\nif v == token then redis.call('unlink', key) end",
			del: true, delChecked: true},
		{name: "aliases in one local list", src: "local lockKey, lockValue = KEYS[1], ARGV[1]\nif redis.call(\"GET\", lockKey) == lockValue then\n\treturn redis.call(\"DEL\", lockKey)\nelse\n\treturn 0\nend",
			del: true, delChecked: true},
		{name: "renew with aliases in one local list", src: "local k, v, ttl = KEYS[1], ARGV[1], tonumber(ARGV[2])\nif redis.call('GET', k) == v then return redis.call('EXPIRE', k, ttl) end\nreturn 0",
			exp: true, expChecked: true},
		{name: "a local list whose value is a key is no owner check", src: "local k, other = KEYS[1], KEYS[2]\nif redis.call('GET', k) == 'x' then return redis.call('DEL', other) end\nreturn redis.call('DEL', k)",
			del: true},
		{name: "blind delete", src: `return redis.call('DEL', KEYS[1])`, del: true},
		{name: "get then delete, no compare", src: `local v = redis.call('GET', KEYS[1]); redis.call('DEL', KEYS[1]); return v`, del: true},
		{name: "comment is not code", src: "-- if redis.call('get', KEYS[1]) == ARGV[1] then\nreturn redis.call('del', KEYS[1])", del: true},
		{name: "long comment", src: "--[[ redis.call('del', KEYS[1]) ]]\nreturn 1"},
		{name: "checked renew", src: `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`,
			exp: true, expChecked: true},
		{name: "blind renew", src: `return redis.call("pexpire", KEYS[1], ARGV[1])`, exp: true},
		{name: "acquire with ttl", src: `return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`, acq: true, acqTTL: true},
		{name: "setnx then pexpire in one script", src: "if redis.call('setnx', KEYS[1], ARGV[1]) == 1 then redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end return 0",
			acq: true, acqTTL: true, exp: true},
		{name: "hash lock", src: "if redis.call('hexists', KEYS[1], ARGV[2]) == 0 then return nil end\nreturn redis.call('del', KEYS[1])",
			del: true, delChecked: true},
		{name: "token passed as a key", src: `if redis.call("get", KEYS[1]) == KEYS[2] then return redis.call("expire", KEYS[1], ARGV[1]) end return 0`,
			exp: true, expChecked: true},
		{name: "reentrant hash acquire", src: "if (redis.call('exists', KEYS[1]) == 0) then\n redis.call('hincrby', KEYS[1], ARGV[2], 1);\n redis.call('pexpire', KEYS[1], ARGV[1]);\n return nil;\nend;\nif (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then\n redis.call('hincrby', KEYS[1], ARGV[2], 1);\n redis.call('pexpire', KEYS[1], ARGV[1]);\n return nil;\nend;\nreturn redis.call('pttl', KEYS[1]);",
			acq: true, acqTTL: true, exp: true},
		{name: "reentrant unlock that leaves when the key is absent is no acquire", src: "if (redis.call('EXISTS', KEYS[1]) == 0)\nthen\n  return 0\nend\nif (redis.call('HGET', KEYS[1], 'UUID') ~= ARGV[1])\nthen\n  return 1\nend\nif (tonumber(redis.call('HGET', KEYS[1], 'COUNT')) > 1)\nthen\n  redis.call('HINCRBY', KEYS[1], 'COUNT', -1)\n  return 666\nend\nif (redis.call('DEL', KEYS[1]) == 0)\nthen\n  return 2\nend\nreturn 666",
			del: true, delChecked: true},
		{name: "setex of the held constant after a returning test", src: "local key = KEYS[1]\nlocal val = redis.call('GET',key)\nif val == '1' then\n    return 1\nend\nredis.call('SETEX',key,60,'1')\nreturn 0",
			acq: true, acqTTL: true},
		{name: "setex of another value after the test is a write, not an acquire", src: "local val = redis.call('GET', KEYS[1])\nif val == '1' then\n return 1\nend\nredis.call('SETEX', KEYS[1], 60, 'done')\nreturn 0"},
		{name: "a test of the constant that does not return guards nothing", src: "local val = redis.call('GET', KEYS[1])\nif val == '1' then\n redis.call('INCR', KEYS[2])\nend\nredis.call('SETEX', KEYS[1], 60, '1')\nreturn 0"},
		{name: "hash write in a block for an absent key that goes on", src: "if redis.call('exists', KEYS[1]) == 0 then\n redis.call('hset', KEYS[1], 'owner', ARGV[1])\nend\nreturn redis.call('pexpire', KEYS[1], ARGV[2])",
			acq: true, acqTTL: true, exp: true},
		{name: "hset where the field was found present is no acquire", src: "local w = redis.call('HGET', KEYS[1], 'w')\nif w ~= false then\n redis.call('HSET', KEYS[1], 'w', ARGV[1])\n return 1\nend\nreturn 0"},
		{name: "hash write without an absence test is no acquire", src: "redis.call('hincrby', KEYS[1], ARGV[2], 1)\nreturn redis.call('pexpire', KEYS[1], ARGV[1])",
			exp: true},
		{name: "set after get is false, extend when owned", src: "local val = redis.call('get', KEYS[1])\nif val == false then\n return redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])\nelseif val == ARGV[1] then\n redis.call('expire', KEYS[1], ARGV[2])\n return 'OK'\nend\nreturn ''",
			acq: true, acqTTL: true, exp: true, expChecked: true},
		{name: "counter seeded when missing, then counted", src: "local key = KEYS[1]\nif redis.call('EXISTS', key) == 0 then\n  redis.call('SET', key, ARGV[1], 'EX', ARGV[3])\nend\nif tonumber(redis.call('GET', key)) >= tonumber(ARGV[2]) then return 0 end\nreturn redis.call('INCR', key)"},
		{name: "counter seeded with SET NX, then decremented", src: "redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', 60)\nreturn redis.call('DECRBY', KEYS[1], ARGV[2])"},
		{name: "set nx of the lock, incr of another key", src: "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end return 0",
			acq: true, acqTTL: true},
		{name: "hsetnx", src: "return redis.call('hsetnx', KEYS[1], 'w', ARGV[1])", acq: true},
		{name: "writer field after hget is absent", src: "local k = KEYS[1]\nlocal w = redis.call('HGET', k, 'w')\nif w ~= false then return 'conflict' end\nredis.call('HSET', k, 'w', ARGV[1])\nredis.call('EXPIRE', k, ARGV[2])",
			acq: true, acqTTL: true, exp: true},
		{name: "set after the get is tested in place", src: "if redis.call('GET', KEYS[1]) == false then\n redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])\n return 1\nelse\n return 0\nend",
			acq: true, acqTTL: true},
		{name: "set after not get", src: "if not redis.call('get', KEYS[1]) then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end return 0",
			acq: true, acqTTL: true},
		{name: "set after a get tested present that returns", src: "if redis.call('GET', KEYS[1]) ~= false then return 0 end\nredis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])\nreturn 1",
			acq: true, acqTTL: true},
		{name: "set where the get found the key present is no acquire", src: "if redis.call('GET', KEYS[1]) ~= false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end return 0",
			exp: true},
		{name: "set where the get found the owner's token is no acquire", src: "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end return 0",
			exp: true, expChecked: true},
		{name: "hset after not hget", src: "local v = redis.call('hget', KEYS[1], ARGV[1])\nif not v then redis.call('hset', KEYS[1], ARGV[1], ARGV[2]) end",
			acq: true},
		{name: "hset after a read of another field is no acquire", src: "local n = redis.call('HGET', KEYS[1], 'n')\nredis.call('HSET', KEYS[1], 'n', n + 1)"},
		{name: "hdel of the writer field, no compare", src: "redis.call('HDEL', KEYS[1], 'w')\nreturn 'ok'", del: true},
		{name: "hdel of the owner's field after hget compare", src: "if redis.call('HGET', KEYS[1], 'w') == ARGV[1] then redis.call('HDEL', KEYS[1], 'w') end",
			del: true, delChecked: true},
		{name: "delex", src: `return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])`, del: true, delChecked: true},
		{name: "long string", src: "redis.call([[del]], KEYS[1])", del: true},
		{name: "string.find of the caller's token", src: "local v = redis.call('get', KEYS[1])\nif v and string.find(v, ARGV[1], 1, true) then return redis.call('del', KEYS[1]) end return 0",
			del: true, delChecked: true},
		{name: "method find of a token alias", src: "local tok = ARGV[1]\nlocal v = redis.call('get', KEYS[1])\nif v and v:find(tok, 1, true) then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0",
			exp: true, expChecked: true},
		{name: "hdel of a key built from ARGV deletes no lock", src: "if redis.call('EXISTS', KEYS[1]) == 0 then\n local id = redis.call('RPOP', KEYS[2])\n redis.call('HDEL', ARGV[1] .. id, 'queued_at')\nend"},
		{name: "del of every key in a loop deletes the lock", src: "for _, k in ipairs(KEYS) do redis.call('DEL', k) end", del: true},
		{name: "string.find of a constant is no owner check", src: "local v = redis.call('get', KEYS[1])\nif v and string.find(v, 'worker', 1, true) then return redis.call('del', KEYS[1]) end return 0",
			del: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Parse(tt.src)
			if del, checked := s.Deletes(1); del != tt.del || checked != tt.delChecked {
				t.Errorf("Deletes(1) = %v, %v; want %v, %v (effects %+v)", del, checked, tt.del, tt.delChecked, s.Effects)
			}
			if exp, checked := s.Expires(1); exp != tt.exp || checked != tt.expChecked {
				t.Errorf("Expires(1) = %v, %v; want %v, %v (effects %+v)", exp, checked, tt.exp, tt.expChecked, s.Effects)
			}
			if acq, ttl := s.AcquiresNX(1); acq != tt.acq || ttl != tt.acqTTL {
				t.Errorf("AcquiresNX(1) = %v, %v; want %v, %v (effects %+v)", acq, ttl, tt.acq, tt.acqTTL, s.Effects)
			}
		})
	}
}

func TestCreateValueConst(t *testing.T) {
	tests := []struct {
		src   string
		value string
		ok    bool
	}{
		{"local val = redis.call('GET', KEYS[1])\nif val == '1' then\n return 1\nend\nredis.call('SETEX', KEYS[1], 60, '1')\nreturn 0", "1", true},
		{"return redis.call('SET', KEYS[1], 'locked', 'NX', 'PX', ARGV[1])", "locked", true},
		{"return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])", "", false},
		{"return redis.call('SET', KEYS[1], 'owner:' .. ARGV[1], 'NX', 'PX', ARGV[2])", "", false},
		{"return redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])", "", false}, // no NX: no acquire
	}
	for _, tt := range tests {
		v, ok := Parse(tt.src).CreateValueConst(1)
		if v != tt.value || ok != tt.ok {
			t.Errorf("CreateValueConst(%q) = %q, %v; want %q, %v", tt.src, v, ok, tt.value, tt.ok)
		}
	}
}

func TestOnlyNamedKeysChanged(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{"return redis.call('DEL', KEYS[1])", true},
		{"local id = redis.call('RPOP', KEYS[1])\nredis.call('HSET', ARGV[1] .. id, 'state', 'active')\nredis.call('HDEL', ARGV[1] .. id, 'queued_at')", true},
		{"redis.call('DEL', ARGV[1] .. ':lock')", false},
		{"for _, k in ipairs(KEYS) do redis.call('PEXPIRE', k, ARGV[1]) end", false},
		{"redis.call('SET', ARGV[1], ARGV[2], 'NX', 'PX', 100)", false},
	} {
		if got := Parse(tt.src).OnlyNamedKeysChanged(); got != tt.want {
			t.Errorf("OnlyNamedKeysChanged(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}
