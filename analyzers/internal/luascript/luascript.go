// Package luascript reads a Redis Lua script and says what it does to each
// of its KEYS: deletes, expires, sets NX, reads, and whether those writes
// are guarded by a comparison against an ARGV value (the owner check that
// makes a release or renewal safe).
//
// It is a tokenizer plus a few patterns, not a Lua interpreter. It
// understands redis.call/redis.pcall with a constant command name, KEYS[n]
// and ARGV[n] (directly or through a local alias), and comparisons with ==
// or ~=. An effect on a key it cannot pin down gets Key 0. Callers must treat
// a script they could not read at all as unknown, never as harmless.
package luascript

import (
	"slices"
	"strconv"
	"strings"
)

// Effect is one redis.call in the script.
type Effect struct {
	Command string // upper case: DEL, UNLINK, PEXPIRE, SET, GET, DELEX, ...
	Key     int    // KEYS index (1-based), 0 when unknown
	NX      bool   // SET ... NX
	TTL     bool   // SET with EX/PX/EXAT/PXAT, or an EXPIRE family command
	// Checked is true when the call runs after the script compared the
	// key's value with an ARGV value (or the command itself carries IFEQ).
	Checked bool
	// Const is the value a SET, SETEX, PSETEX or SETNX writes when it is
	// a literal in the script ('1', 1), and HasConst says there is one.
	Const    string
	HasConst bool

	at int // token index of the call
}

// Script is the analysis of one Lua source text.
type Script struct {
	Text    string
	Effects []Effect
	// Compares is true when the script compares a value it read from
	// Redis with an argument.
	Compares bool

	returns []reply // return statements with a literal value, in order
}

// reply is a "return <literal>" at token index at.
type reply struct {
	at    int
	value string
}

// Deletes reports whether the script deletes KEYS[key] (or an unknown
// key, when key is 0), and whether every such delete is owner-checked.
// An HDEL on a key the script does not take from KEYS (ARGV[1] .. id)
// removes a field of its own data, not a lock.
func (s *Script) Deletes(key int) (deletes, checked bool) {
	checked = true
	for _, e := range s.Effects {
		if isDelete(e.Command) && (e.Key == key || e.Key == 0 && e.Command != "HDEL") {
			deletes = true
			checked = checked && e.Checked
		}
	}
	return deletes, deletes && checked
}

// Expires reports whether the script sets a TTL on KEYS[key] other than
// through an NX acquire, and whether every such call is owner-checked.
func (s *Script) Expires(key int) (expires, checked bool) {
	checked = true
	for _, e := range s.Effects {
		if (isExpire(e.Command) || e.Command == "SET" && !e.NX && e.TTL) && (e.Key == key || e.Key == 0) {
			expires = true
			checked = checked && e.Checked
		}
	}
	return expires, expires && checked
}

// AcquiresNX reports whether the script sets KEYS[key] with NX, and
// whether that SET carries an expiry. A key the script also counts up or
// down (INCR, DECRBY, ...) holds a number it seeds when missing, not a
// holder's token: a counter, not a lock.
func (s *Script) AcquiresNX(key int) (acquires, ttl bool) {
	if s.counts(key) {
		return false, false
	}
	for _, e := range s.Effects {
		if e.Key == key && isCreate(e) {
			acquires = true
			ttl = ttl || e.TTL
		}
	}
	if acquires && !ttl {
		// SETNX then PEXPIRE inside one script is atomic.
		if exp, _ := s.Expires(key); exp {
			ttl = true
		}
	}
	return acquires, ttl
}

// OnlyNamedKeysChanged reports whether every command the script sends
// that could create, delete or expire a lock's string key names that key
// as KEYS[n], so that what it does to each of its keys is known exactly.
// A command on a key built from ARGV (redis.call('DEL', ARGV[2] .. id))
// may touch any key; hash, list and set commands there (HSET, HDEL of a
// task's fields) touch data, not a lock taken with SET NX.
func (s *Script) OnlyNamedKeysChanged() bool {
	for _, e := range s.Effects {
		if e.Key != 0 {
			continue
		}
		switch {
		case isExpire(e.Command), e.Command == "DEL", e.Command == "UNLINK", e.Command == "GETDEL", e.Command == "DELEX",
			e.Command == "SET", e.Command == "SETNX", e.Command == "SETEX", e.Command == "PSETEX", e.Command == "PERSIST", e.Command == "RENAME":
			return false
		}
	}
	return true
}

// counts reports whether the script increments or decrements the string
// at KEYS[key]. (HINCRBY counts a hash lock's re-entries: not this.)
func (s *Script) counts(key int) bool {
	for _, e := range s.Effects {
		if e.Key == key {
			switch e.Command {
			case "INCR", "INCRBY", "INCRBYFLOAT", "DECR", "DECRBY":
				return true
			}
		}
	}
	return false
}

// isCreate reports whether an NX effect creates the key: SET NX, SETNX, or
// a hash write after the script saw the key absent.
func isCreate(e Effect) bool {
	switch e.Command {
	case "SETNX":
		return true
	case "SET", "SETEX", "PSETEX", "HSETNX", "HSET", "HINCRBY", "HMSET":
		return e.NX // SET NX, or a write after the script saw the key absent (or not holding the lock's constant)
	}
	return false
}

// testsZero reports whether the call at toks[i] is compared with 0
// (redis.call('exists', KEYS[1]) == 0).
func testsZero(toks []token, i int) bool {
	j := callEnd(toks, i)
	return j+2 < len(toks) && toks[j+1].text == "==" && toks[j+2].text == "0"
}

// callEnd returns the index of the parenthesis closing the call at
// toks[i] (redis.call(...)), or len(toks) when it is not closed.
func callEnd(toks []token, i int) int {
	depth := 0
	for j := i + 3; j < len(toks); j++ {
		switch toks[j].text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(toks)
}

// isDelete: HDEL removes a hash lock's owner field, its release.
func isDelete(c string) bool {
	return c == "DEL" || c == "UNLINK" || c == "GETDEL" || c == "DELEX" || c == "HDEL"
}

func isExpire(c string) bool {
	switch c {
	case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT":
		return true
	}
	return false
}

// Parse analyzes Lua source text.
func Parse(src string) *Script {
	s := &Script{Text: src}
	toks := tokenize(src)
	keyAlias := map[string]int{}  // local k = KEYS[1]
	argAlias := map[string]bool{} // local token = ARGV[1]
	compared := false

	// keyIndex parses KEYS[n] at toks[i:], returning n and the next index.
	keyIndex := func(i int) (int, int, bool) {
		if i < len(toks) && keyAlias[toks[i].text] > 0 && toks[i].kind == tIdent {
			return keyAlias[toks[i].text], i + 1, true
		}
		if i+3 < len(toks) && toks[i].text == "KEYS" && toks[i+1].text == "[" && toks[i+3].text == "]" {
			n, err := strconv.Atoi(toks[i+2].text)
			if err != nil {
				return 0, i + 4, true
			}
			return n, i + 4, true
		}
		return 0, i, false
	}
	isArg := func(i int) bool {
		return i < len(toks) && (toks[i].text == "ARGV" || toks[i].kind == tIdent && argAlias[toks[i].text])
	}
	// A value the caller passes: ARGV, or a KEYS entry used as a value
	// (GET KEYS[1] == KEYS[2] compares with the token passed as a key).
	isCallerValue := func(i int) bool {
		return isArg(i) || i < len(toks) && toks[i].text == "KEYS"
	}
	// absent[n]: where the script knows that KEYS[n] does not exist
	// (after redis.call('exists', KEYS[n]) == 0); a hash write to it there
	// creates the lock, as SET NX does (Redisson's reentrant lock).
	absent := map[int]span{}

	getAlias := map[string]int{} // local v = redis.call('get', KEYS[n])
	// heldBy[n]: the constant a lock at KEYS[n] holds, and where the
	// script knows the key does not hold it (after if v == '1' then
	// return 1 end): writing that constant there takes the lock, as SET
	// NX does.
	type held struct {
		value string
		where span
	}
	heldBy := map[int]held{}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		// local name = KEYS[n] | ARGV[n] | redis.call('get', KEYS[n]),
		// also in a list: local key, token = KEYS[1], ARGV[1]
		if t.text == "local" {
			for _, b := range localBindings(toks, i) {
				name, at := b.name, b.at
				if n, _, ok := keyIndex(at); ok && toks[at].text == "KEYS" {
					keyAlias[name] = n
				} else if toks[at].text == "ARGV" {
					argAlias[name] = true
				} else if cmd, n, ok := callAt(toks, at, keyIndex); ok && (cmd == "GET" || cmd == "HGET") && n > 0 {
					getAlias[name] = n
				}
			}
		}
		// v == false (or v ~= false then return, or not v) after local v =
		// redis.call('get'|'hget', KEYS[n], ...): the script tested that
		// the key (or the lock's field) is absent before writing it.
		if (t.text == "==" || t.text == "~=") && i > 0 && i+1 < len(toks) && (toks[i+1].text == "false" || toks[i+1].text == "nil") && getAlias[toks[i-1].text] > 0 {
			absent[getAlias[toks[i-1].text]] = absence(toks, i, t.text == "~=")
		}
		if (t.text == "==" || t.text == "~=") && i > 0 && i+1 < len(toks) && toks[i+1].kind == tString && getAlias[toks[i-1].text] > 0 {
			if sp := absence(toks, i, t.text == "=="); sp != (span{i, len(toks)}) {
				heldBy[getAlias[toks[i-1].text]] = held{toks[i+1].text, sp}
			}
		}
		if t.text == "not" && i+1 < len(toks) && getAlias[toks[i+1].text] > 0 {
			absent[getAlias[toks[i+1].text]] = absence(toks, i, false)
		}
		// An owner check: a comparison with an argument on either side,
		// e.g. redis.call('GET', KEYS[1]) == ARGV[1] or v ~= token.
		if (t.text == "==" || t.text == "~=") && (isCallerValue(i+1) || isCallerValue(backOperand(toks, i))) {
			compared = true
			s.Compares = true
		}
		// string.find(v, ARGV[1], 1, true) or v:find(token): the value is
		// tested against the caller's token (a prefix or part of it, as a
		// worker id in "worker:job"): an owner check, if a loose one.
		if t.text == "find" && i > 0 && (toks[i-1].text == "." || toks[i-1].text == ":") && i+1 < len(toks) && toks[i+1].text == "(" {
			depth := 0
			for j := i + 1; j < len(toks); j++ {
				if toks[j].text == "(" {
					depth++
				} else if toks[j].text == ")" {
					if depth--; depth == 0 {
						break
					}
				} else if isCallerValue(j) {
					compared = true
					s.Compares = true
				}
			}
		}
		if t.text == "return" && t.kind == tIdent && i+1 < len(toks) && toks[i+1].kind == tNumber {
			s.returns = append(s.returns, reply{i, toks[i+1].text})
		}
		if cmd, key, ok := callAt(toks, i, keyIndex); ok {
			e := Effect{Command: cmd, Key: key, Checked: compared, at: i}
			args := callArgs(toks, i)
			for _, a := range args {
				switch strings.ToUpper(a) {
				case "NX":
					e.NX = true
				case "EX", "PX", "EXAT", "PXAT":
					e.TTL = true
				case "IFEQ":
					e.Checked = true
				}
			}
			if isExpire(cmd) {
				e.TTL = true
			}
			switch cmd {
			case "EXISTS":
				if key > 0 && testsZero(toks, i) {
					absent[key] = absence(toks, i, false)
				}
			case "GET":
				// The read tested in place, as a local's would be:
				// if redis.call('GET', KEYS[1]) == false then, or
				// if not redis.call('GET', KEYS[1]) then.
				if j := callEnd(toks, i); key > 0 && j+2 < len(toks) && (toks[j+1].text == "==" || toks[j+1].text == "~=") && (toks[j+2].text == "false" || toks[j+2].text == "nil") {
					absent[key] = absence(toks, j+1, toks[j+1].text == "~=")
				} else if key > 0 && i > 0 && toks[i-1].text == "not" {
					absent[key] = absence(toks, i-1, false)
				}
			case "HSETNX":
				e.NX = true
			case "HSET", "HINCRBY", "HMSET", "SET":
				e.NX = e.NX || key > 0 && absent[key].covers(i)
			case "SETEX", "PSETEX":
				e.TTL = true
			}
			if v, ok := literalValue(toks, i, cmd, keyIndex); ok {
				e.Const, e.HasConst = v, true
			}
			if h, ok := heldBy[key]; ok && key > 0 && h.where.covers(i) && (cmd == "SET" || cmd == "SETEX" || cmd == "PSETEX") && len(args) > 1 && slices.Contains(args[1:], h.value) {
				e.NX = true // writes the held constant where the key does not hold it
			}
			// Hash and set locks check ownership by membership:
			// redis.call('HEXISTS', KEYS[1], ARGV[2]) == 1.
			if cmd == "HEXISTS" || cmd == "HGET" || cmd == "SISMEMBER" || cmd == "ZSCORE" {
				if argMentioned(toks, i, isArg) {
					compared = true
					s.Compares = true
				}
			}
			s.Effects = append(s.Effects, e)
		}
	}
	return s
}

// binding is a name a local statement declares and the index of the
// first token of the value it is given.
type binding struct {
	name string
	at   int
}

// localBindings reads "local a, b = x, y" at toks[i]: each name with the
// start of its value (values past the last comma are left out, as are
// names without a value).
func localBindings(toks []token, i int) []binding {
	var names []string
	j := i + 1
	for ; j < len(toks) && toks[j].kind == tIdent; j += 2 {
		names = append(names, toks[j].text)
		if j+1 >= len(toks) || toks[j+1].text != "," {
			j++
			break
		}
	}
	if len(names) == 0 || j >= len(toks) || toks[j].text != "=" {
		return nil
	}
	out := []binding{{names[0], j + 1}}
	depth := 0
	for k := j + 1; k < len(toks) && len(out) < len(names); k++ {
		switch toks[k].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",":
			if depth == 0 {
				out = append(out, binding{names[len(out)], k + 1})
			}
		}
		if depth < 0 {
			break
		}
	}
	for _, b := range out {
		if b.at >= len(toks) {
			return nil
		}
	}
	return out
}

// span is a range of token indices, [from, to).
type span struct{ from, to int }

func (s span) covers(i int) bool { return s.from <= i && i < s.to }

// absence returns where a test at toks[i] that a key is absent holds (or,
// when present is set, a test that it is present leaves it absent). A
// test in an if whose block returns bounds it: after
// if redis.call('exists', KEYS[1]) == 0 then return 0 end the key exists
// (an unlock that decrements a reentrant count then is no acquire), and
// after if v ~= false then return end it does not. Otherwise the test
// holds from where it is made to the end of the script.
func absence(toks []token, i int, present bool) span {
	rest := span{i, len(toks)}
	then := -1
	for j := i + 1; j < len(toks); j++ {
		if toks[j].kind == tIdent {
			switch toks[j].text {
			case "then":
				then = j
			case "end", "do", "local", "return", "else", "if", "elseif", "function":
				return rest // not the condition of an if
			}
		}
		if then >= 0 || toks[j].text == "=" {
			break
		}
	}
	if then < 0 {
		return rest
	}
	end, returns := blockEnd(toks, then+1)
	switch {
	case !returns:
		return rest
	case present:
		return span{end, len(toks)}
	}
	return span{then, end}
}

// blockEnd returns the index of the else, elseif or end closing the block
// that starts at toks[from], and whether the block returns (in Lua a
// return can only be a block's last statement).
func blockEnd(toks []token, from int) (end int, returns bool) {
	depth := 0
	for j := from; j < len(toks); j++ {
		if toks[j].kind != tIdent {
			continue
		}
		switch toks[j].text {
		case "if", "do", "function", "repeat":
			depth++
		case "until":
			depth--
		case "end":
			if depth == 0 {
				return j, returns
			}
			depth--
		case "else", "elseif":
			if depth == 0 {
				return j, returns
			}
		case "return":
			if depth == 0 {
				returns = true
			}
		}
	}
	return len(toks), returns
}

// backOperand returns the index of the first token of a simple operand
// ending just before toks[i] (ARGV[n] or an identifier).
func backOperand(toks []token, i int) int {
	if i >= 1 && toks[i-1].text == "]" && i >= 4 {
		return i - 4
	}
	if i >= 1 {
		return i - 1
	}
	return len(toks)
}

// argMentioned reports whether the call at toks[i] passes an ARGV value.
func argMentioned(toks []token, i int, isArg func(int) bool) bool {
	end := callEnd(toks, i)
	for j := i + 3; j < end; j++ {
		if isArg(j) {
			return true
		}
	}
	return false
}

// callAt recognises redis.call('CMD', KEYS[n] ...) or redis.pcall at toks[i].
func callAt(toks []token, i int, keyIndex func(int) (int, int, bool)) (cmd string, key int, ok bool) {
	if i+5 >= len(toks) || toks[i].text != "redis" || toks[i+1].text != "." ||
		(toks[i+2].text != "call" && toks[i+2].text != "pcall") || toks[i+3].text != "(" || toks[i+4].kind != tString {
		return "", 0, false
	}
	cmd = strings.ToUpper(toks[i+4].text)
	if toks[i+5].text == "," {
		if n, _, ok := keyIndex(i + 6); ok {
			key = n
		}
	}
	return cmd, key, true
}

// callArgs returns the string and identifier arguments of the call at toks[i].
func callArgs(toks []token, i int) []string {
	var out []string
	for j, end := i+3, callEnd(toks, i); j < end; j++ {
		if toks[j].kind == tString {
			out = append(out, toks[j].text)
		}
	}
	return out
}

type tokKind int

const (
	tPunct tokKind = iota
	tIdent
	tString
	tNumber
)

type token struct {
	kind tokKind
	text string
}

// tokenize splits Lua source into identifiers, numbers, strings (unquoted)
// and punctuation, dropping comments.
func tokenize(src string) []token {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "--"):
			i += 2
			if n, ok := longBracket(src[i:]); ok {
				end := strings.Index(src[i+n:], "]"+strings.Repeat("=", n-2)+"]")
				if end < 0 {
					return toks
				}
				i += n + end + n
				continue
			}
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			j := i + 1
			var b strings.Builder
			for j < len(src) && src[j] != c {
				if src[j] == '\\' && j+1 < len(src) {
					j++
				}
				b.WriteByte(src[j])
				j++
			}
			toks = append(toks, token{tString, b.String()})
			i = j + 1
		case c == '[':
			if n, ok := longBracket(src[i:]); ok {
				end := strings.Index(src[i+n:], "]"+strings.Repeat("=", n-2)+"]")
				if end < 0 {
					return toks
				}
				toks = append(toks, token{tString, src[i+n : i+n+end]})
				i += n + end + n
				continue
			}
			toks = append(toks, token{tPunct, "["})
			i++
		case isIdentByte(c) && (c < '0' || c > '9'):
			j := i
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			toks = append(toks, token{tIdent, src[i:j]})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (isIdentByte(src[j]) || src[j] == '.') {
				j++
			}
			toks = append(toks, token{tNumber, src[i:j]})
			i = j
		default:
			if i+1 < len(src) {
				two := src[i : i+2]
				if two == "==" || two == "~=" || two == "<=" || two == ">=" || two == ".." {
					toks = append(toks, token{tPunct, two})
					i += 2
					continue
				}
			}
			toks = append(toks, token{tPunct, string(c)})
			i++
		}
	}
	return toks
}

// longBracket reports the length of an opening long bracket ([[ or [==[).
func longBracket(s string) (int, bool) {
	if !strings.HasPrefix(s, "[") {
		return 0, false
	}
	j := 1
	for j < len(s) && s[j] == '=' {
		j++
	}
	if j < len(s) && s[j] == '[' {
		return j + 1, true
	}
	return 0, false
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// literalValue returns the value a SET, SETNX, SETEX or PSETEX call at
// toks[i] writes when it is a string or number literal.
func literalValue(toks []token, i int, cmd string, keyIndex func(int) (int, int, bool)) (string, bool) {
	skip := 0 // arguments between the key and the value
	switch cmd {
	case "SET", "SETNX":
	case "SETEX", "PSETEX":
		skip = 1
	default:
		return "", false
	}
	j := i + 5 // redis . call ( 'cmd' ,
	if j >= len(toks) || toks[j].text != "," {
		return "", false
	}
	_, next, ok := keyIndex(j + 1)
	if !ok {
		return "", false
	}
	for ; skip > 0; skip-- {
		if next+1 >= len(toks) || toks[next].text != "," {
			return "", false
		}
		next += 2
	}
	if next+1 >= len(toks) || toks[next].text != "," {
		return "", false
	}
	v := toks[next+1]
	if v.kind != tString && v.kind != tNumber {
		return "", false
	}
	if end := next + 2; end < len(toks) && toks[end].text != "," && toks[end].text != ")" {
		return "", false // an expression ('a' .. ARGV[1]), not a literal
	}
	return v.text, true
}

// AcquireReplies returns the number the script returns when it takes the
// lock at KEYS[key] and the one it returns when the key is held, when
// both are plain: every return before the create gives refused (the
// script saw the lock held and left), the first return after it gives
// acquired, and the two differ. A script that returns 0 for "acquired"
// (local v = GET k; if v == '1' then return 1 end; SETEX k 60 '1';
// return 0) is read the other way round from one returning 1.
func (s *Script) AcquireReplies(key int) (acquired, refused string, ok bool) {
	create := -1
	for _, e := range s.Effects {
		if e.Key == key && isCreate(e) {
			if create >= 0 {
				return "", "", false // two ways to take it
			}
			create = e.at
		}
	}
	if create < 0 {
		return "", "", false
	}
	for _, r := range s.returns {
		switch {
		case r.at < create:
			if refused != "" && r.value != refused {
				return "", "", false
			}
			refused = r.value
		case acquired == "":
			acquired = r.value
		}
	}
	if acquired == "" || refused == "" || acquired == refused {
		return "", "", false
	}
	return acquired, refused, true
}

// CreateValueConst returns the literal every write that creates the lock
// at KEYS[key] stores (SETEX k 60 '1' after the script saw k free), when
// there is one: a lock value that is the same for every holder.
func (s *Script) CreateValueConst(key int) (string, bool) {
	value, found := "", false
	for _, e := range s.Effects {
		if e.Key != key || !isCreate(e) {
			continue
		}
		if !e.HasConst || found && e.Const != value {
			return "", false
		}
		value, found = e.Const, true
	}
	return value, found
}
