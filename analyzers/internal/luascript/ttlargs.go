package luascript

import (
	"strconv"
	"strings"
)

// TTLArgs maps ARGV indexes (1-based) to the option or command that takes
// them as a TTL or expiry time: "EX", "PX", "EXAT", "PXAT" after SET,
// "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "SETEX", "PSETEX". An
// argument is listed when the script passes ARGV[n] there directly,
// through a local alias or through tonumber(...); one used with two
// different units is left out (TTLUses lists it).
func (s *Script) TTLArgs() map[int]string {
	out := map[int]string{}
	for n, words := range s.TTLUses() {
		same := true
		for _, w := range words[1:] {
			same = same && unitOf(w) == unitOf(words[0])
		}
		if same {
			out[n] = words[0]
		}
	}
	return out
}

// unitOf groups TTL words by the unit they take.
func unitOf(word string) string {
	switch word {
	case "EX", "EXPIRE", "SETEX":
		return "s"
	case "PX", "PEXPIRE", "PSETEX":
		return "ms"
	case "EXAT", "EXPIREAT":
		return "unix s"
	case "PXAT", "PEXPIREAT":
		return "unix ms"
	}
	return word
}

// TTLUses maps ARGV indexes to every option or command that takes them as
// a TTL, in script order, each word once: a script that passes ARGV[2] to
// both PX and EXPIRE gets both.
func (s *Script) TTLUses() map[int][]string {
	toks := tokenize(s.Text)
	alias := map[string]int{} // local ttl = ARGV[n] (or tonumber(ARGV[n]))
	// argv returns n when the tokens of one call argument name ARGV[n].
	var argv func(arg []token) int
	argv = func(arg []token) int {
		switch {
		case len(arg) == 1 && arg[0].kind == tIdent:
			return alias[arg[0].text]
		case len(arg) == 4 && arg[0].text == "ARGV" && arg[1].text == "[" && arg[3].text == "]":
			n, err := strconv.Atoi(arg[2].text)
			if err == nil {
				return n
			}
		case len(arg) > 3 && arg[0].text == "tonumber" && arg[1].text == "(" && arg[len(arg)-1].text == ")":
			return argv(arg[2 : len(arg)-1])
		}
		return 0
	}
	out := map[int][]string{}
	add := func(n int, word string) {
		if n <= 0 {
			return
		}
		for _, w := range out[n] {
			if w == word {
				return
			}
		}
		out[n] = append(out[n], word)
	}
	for i := 0; i < len(toks); i++ {
		if toks[i].text == "local" && i+3 < len(toks) && toks[i+1].kind == tIdent && toks[i+2].text == "=" {
			// local ttl = ARGV[n] or tonumber(ARGV[n]), not followed by
			// arithmetic that changes its unit.
			for _, k := range []int{4, 7} {
				end := i + 3 + k
				if end > len(toks) {
					continue
				}
				if end < len(toks) && strings.Contains("*/+-..%^", toks[end].text) && toks[end].kind == tPunct {
					continue
				}
				if n := argv(toks[i+3 : end]); n > 0 {
					alias[toks[i+1].text] = n
				}
			}
			continue
		}
		if i+5 >= len(toks) || toks[i].text != "redis" || toks[i+1].text != "." ||
			(toks[i+2].text != "call" && toks[i+2].text != "pcall") || toks[i+3].text != "(" || toks[i+4].kind != tString {
			continue
		}
		cmd := strings.ToUpper(toks[i+4].text)
		args := splitArgs(toks, i+3)
		switch cmd {
		case "SET":
			for k := 0; k+1 < len(args); k++ {
				if len(args[k]) == 1 && args[k][0].kind == tString {
					switch w := strings.ToUpper(args[k][0].text); w {
					case "EX", "PX", "EXAT", "PXAT":
						add(argv(args[k+1]), w)
					}
				}
			}
		case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "SETEX", "PSETEX":
			if len(args) > 2 {
				add(argv(args[2]), cmd)
			}
		}
	}
	return out
}

// splitArgs returns the comma-separated arguments of the call whose
// opening parenthesis is toks[open], each as its tokens.
func splitArgs(toks []token, open int) [][]token {
	var args [][]token
	var cur []token
	depth := 0
	for j := open; j < len(toks); j++ {
		t := toks[j]
		switch t.text {
		case "(", "[", "{":
			depth++
			if depth == 1 {
				continue
			}
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return append(args, cur)
			}
		case ",":
			if depth == 1 {
				args = append(args, cur)
				cur = nil
				continue
			}
		}
		cur = append(cur, t)
	}
	return args
}
