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
	found := 0
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
		if hash {
			// The owner of a hash lock is its field (HINCRBY k ARGV[2] 1,
			// Redisson's reentrant lock), or the value of a fixed field
			// (HSET k "w" ARGV[1]). Only called for keys the script
			// creates (AcquiresNX).
			if v == 0 && next == j+1 && j+2 < len(toks) && toks[j+1].kind == tString && toks[j+2].text == "," {
				v, _ = index(j+3, "ARGV", args)
			}
		} else {
			nx := cmd == "SETNX"
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
	return found
}
