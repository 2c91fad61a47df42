package stores

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// recordCommands change a Redis structure in place: a hash's fields, a
// list's items, a set's or sorted set's members, a stream's entries.
// Counters (INCR, HINCRBY, ZINCRBY) are left out: a late increment adds
// what it would have added anyway. So are pops (a consumer taking work)
// and the SET family, which rules follow by key (see lockfence's
// persistentSets).
var recordCommands = map[string]bool{
	"HSET": true, "HMSET": true, "HDEL": true,
	"LPUSH": true, "RPUSH": true, "LSET": true, "LREM": true, "LTRIM": true, "LINSERT": true,
	"RPOPLPUSH": true, "LMOVE": true,
	"SADD": true, "SREM": true, "SMOVE": true,
	"ZADD": true, "ZREM": true, "ZREMRANGEBYSCORE": true, "ZREMRANGEBYRANK": true, "ZREMRANGEBYLEX": true,
	"XADD": true,
}

// notRecordWords name what is not a record: caches, statistics, limits,
// sessions, presence, dedup markers, and locks themselves.
var notRecordWords = []string{
	"cache", "stats", "statistic", "metric", "counter", "limit", "session",
	"lock", "mutex", "lease", "online", "presence", "dedup", "idempot",
}

// recordWrites returns, for each function of the package, its Redis
// writes of records: a structure write (recordCommands) in a function
// that sets no expiry on any key, where neither the key nor the function,
// its receiver or its package is named as a cache, a statistic, a limit,
// a session or a lock. A job's hash or a queue's list kept without a TTL
// is the state of record, and a stale holder's late write to it lands as
// surely as an SQL UPDATE does; a structure that expires, or is named as
// one of those, is taken for a cache as before.
func recordWrites(pass *analysis.Pass, defs *keyexpr.Defs) map[*ast.FuncDecl]map[*ast.CallExpr]*Write {
	lc, _ := pass.ResultOf[lifecycle.Analyzer].(*lifecycle.Result)
	if lc == nil {
		return nil
	}
	out := map[*ast.FuncDecl]map[*ast.CallExpr]*Write{}
	for fd, calls := range lc.Calls {
		if fd == nil || expires(calls) || namedNotRecord(pass, fd) {
			continue
		}
		for _, c := range calls {
			cmd := c.Cmd
			if cmd == nil || cmd.Partial || !recordCommands[cmd.Name] || cmd.Key() == nil {
				continue
			}
			if hasNotRecordWord(types.ExprString(resolve(pass.TypesInfo, defs, cmd.Key()))) {
				continue
			}
			if w := redisWrite(pass.TypesInfo, defs, cmd); w != nil {
				if out[fd] == nil {
					out[fd] = map[*ast.CallExpr]*Write{}
				}
				out[fd][c.Call] = w
			}
		}
	}
	return out
}

// expires reports whether any of the calls sets an expiry.
func expires(calls []redismodel.Call) bool {
	for _, c := range calls {
		if c.Cmd == nil {
			continue
		}
		switch c.Cmd.Name {
		case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT":
			return true
		}
		if c.Cmd.SetsExpiry() {
			return true
		}
	}
	return false
}

func namedNotRecord(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	names := fd.Name.Name + " " + pass.Pkg.Name()
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		names += " " + types.ExprString(fd.Recv.List[0].Type)
	}
	return hasNotRecordWord(names)
}

// NamedNotRecord reports whether s names a cache, statistics, a limit, a
// session, presence, dedup or a lock (notRecordWords).
func NamedNotRecord(s string) bool { return hasNotRecordWord(s) }

func hasNotRecordWord(s string) bool {
	s = strings.ToLower(s)
	for _, w := range notRecordWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
