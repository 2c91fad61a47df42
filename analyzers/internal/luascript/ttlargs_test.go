package luascript

import (
	"reflect"
	"testing"
)

func TestTTLArgs(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want map[int]string
	}{
		{`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`, map[int]string{2: "PX"}},
		{`local ttl = tonumber(ARGV[2])
		  if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ttl) end`, map[int]string{2: "PEXPIRE"}},
		{`redis.call('set', KEYS[1], ARGV[1], 'ex', tonumber(ARGV[3]), 'nx')`, map[int]string{3: "EX"}},
		{`local ms = ARGV[2] * 1000
		  redis.call("PEXPIRE", KEYS[1], ms)`, map[int]string{}},
		{`redis.call("EXPIRE", KEYS[1], ARGV[2]); redis.call("PEXPIRE", KEYS[2], ARGV[2])`, map[int]string{}},
		{`redis.call("EXPIRE", KEYS[1], ARGV[2] * 2)`, map[int]string{}},
	} {
		if got := Parse(tc.src).TTLArgs(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("TTLArgs(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

func TestTTLUses(t *testing.T) {
	for _, tc := range []struct {
		src  string
		args map[int]string
		uses map[int][]string
	}{
		{`redis.call("EXPIRE", KEYS[1], ARGV[2]); redis.call("PEXPIRE", KEYS[2], ARGV[2])`,
			map[int]string{}, map[int][]string{2: {"EXPIRE", "PEXPIRE"}}},
		{`redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]); redis.call('expire', KEYS[1], ARGV[2])`,
			map[int]string{2: "EX"}, map[int][]string{2: {"EX", "EXPIRE"}}},
		{`redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]); redis.call('set', KEYS[2], ARGV[1], 'PX', ARGV[2])`,
			map[int]string{2: "PX"}, map[int][]string{2: {"PX"}}},
	} {
		s := Parse(tc.src)
		if got := s.TTLArgs(); !reflect.DeepEqual(got, tc.args) {
			t.Errorf("TTLArgs(%q) = %v, want %v", tc.src, got, tc.args)
		}
		if got := s.TTLUses(); !reflect.DeepEqual(got, tc.uses) {
			t.Errorf("TTLUses(%q) = %v, want %v", tc.src, got, tc.uses)
		}
	}
}
