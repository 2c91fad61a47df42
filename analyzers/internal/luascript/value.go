package luascript

import (
	"strconv"
	"strings"
)

// SetValueArg returns n when the script's SET ... NX (or SETNX) on
// KEYS[key] stores ARGV[n], written directly or through a local alias,
// and 0 when the script does not say (the value is computed, or there are
// several such SETs storing different arguments).
func (s *Script) SetValueArg(key int) int {
	toks := tokenize(s.Text)
	keys := map[string]int{} // local k = KEYS[n]
	args := map[string]int{} // local v = ARGV[n]
	// index parses NAME[n] or an alias at toks[i:], returning n and the next index.
	index := func(i int, name string, alias map[string]int) (int, int) {
		if i < len(toks) && toks[i].kind == tIdent && alias[toks[i].text] > 0 {
			return alias[toks[i].text], i + 1
		}
		if i+3 < len(toks) && toks[i].text == name && toks[i+1].text == "[" && toks[i+3].text == "]" {
			if n, err := strconv.Atoi(toks[i+2].text); err == nil {
				return n, i + 4
			}
		}
		return 0, i
	}
	// SETs made where the script saw the key absent, unless the script
	// first checked that the caller holds some lock: then it is a holder
	// seeding data, not taking a key.
	nxAt := map[int]bool{}
	for _, e := range s.Effects {
		nxAt[e.at] = nxAt[e.at] || e.NX && !e.Checked
	}
	found := 0
	fields := map[string]int{} // fixed hash field -> the ARGV stored in it
	for i := 0; i < len(toks); i++ {
		if toks[i].text == "local" && i+3 < len(toks) && toks[i+1].kind == tIdent && toks[i+2].text == "=" {
			if n, _ := index(i+3, "KEYS", nil); n > 0 {
				keys[toks[i+1].text] = n
			} else if n, _ := index(i+3, "ARGV", nil); n > 0 {
				args[toks[i+1].text] = n
			}
			continue
		}
		if i+5 >= len(toks) || toks[i].text != "redis" || toks[i+1].text != "." ||
			(toks[i+2].text != "call" && toks[i+2].text != "pcall") || toks[i+3].text != "(" || toks[i+4].kind != tString {
			continue
		}
		cmd := strings.ToUpper(toks[i+4].text)
		hash := cmd == "HSET" || cmd == "HSETNX" || cmd == "HINCRBY"
		if cmd != "SET" && cmd != "SETNX" && !hash || toks[i+5].text != "," {
			continue
		}
		k, j := index(i+6, "KEYS", keys)
		if k != key || j >= len(toks) || toks[j].text != "," {
			continue
		}
		v, next := index(j+1, "ARGV", args)
		if hash && v == 0 && next == j+1 {
			// The owner of a hash lock is its field (HINCRBY k ARGV[2] 1,
			// Redisson's reentrant lock), or the value of a fixed field
			// (HSET k "w" ARGV[1], HSET k "owner" ARGV[1] "expire"
			// ARGV[2]), sorted out below. Only called for keys the
			// script creates (AcquiresNX).
			for m := j + 1; m+2 < len(toks) && toks[m].kind == tString && toks[m+1].text == ","; {
				n, after := index(m+2, "ARGV", args)
				if n == 0 {
					fields[toks[m].text] = 0 // computed: not known
					break
				}
				if old, seen := fields[toks[m].text]; !seen || old == n {
					fields[toks[m].text] = n
				} else {
					fields[toks[m].text] = 0
				}
				if after >= len(toks) || toks[after].text != "," {
					break
				}
				m = after + 1
			}
			continue
		}
		if !hash {
			nx := cmd == "SETNX" || nxAt[i] // or a SET where the script saw the key absent
			for _, a := range callArgs(toks, i) {
				nx = nx || strings.EqualFold(a, "NX")
			}
			if !nx {
				continue
			}
		}
		if v == 0 || found != 0 && found != v {
			return 0
		}
		found = v
	}
	if len(fields) == 0 {
		return found
	}
	if found != 0 {
		return 0 // a field owner and a fixed field's value: not one answer
	}
	if len(fields) == 1 {
		for _, n := range fields {
			return n
		}
	}
	// Several fixed fields (owner, expire): the owner is the one the
	// script compares with the same argument (HGET k "owner" == ARGV[1]).
	owner := 0
	for f, n := range fields {
		if n > 0 && comparesField(toks, key, keys, f, n) {
			if owner != 0 && owner != n {
				return 0
			}
			owner = n
		}
	}
	return owner
}

// comparesField reports whether the script reads hash field f of
// KEYS[key] with HGET and compares it with ARGV[n]:
// redis.call('HGET', KEYS[1], 'owner') == ARGV[1] (or ~=).
func comparesField(toks []token, key int, keys map[string]int, f string, n int) bool {
	argAt := func(i int) bool {
		if i+3 < len(toks) && toks[i].text == "ARGV" && toks[i+1].text == "[" && toks[i+3].text == "]" {
			m, err := strconv.Atoi(toks[i+2].text)
			return err == nil && m == n
		}
		return false
	}
	for i := 0; i+12 < len(toks); i++ {
		if toks[i].text != "redis" || toks[i+1].text != "." || toks[i+3].text != "(" || !strings.EqualFold(toks[i+4].text, "HGET") {
			continue
		}
		k, j := 0, i+6
		if toks[j].kind == tIdent && keys[toks[j].text] > 0 {
			k, j = keys[toks[j].text], j+1
		} else if toks[j].text == "KEYS" && toks[j+1].text == "[" && toks[j+3].text == "]" {
			k, _ = strconv.Atoi(toks[j+2].text)
			j += 4
		}
		if k != key || toks[j].text != "," || toks[j+1].kind != tString || toks[j+1].text != f || toks[j+2].text != ")" {
			continue
		}
		if op := toks[j+3].text; (op == "==" || op == "~=") && argAt(j+4) {
			return true
		}
	}
	return false
}
