// Package stores recognises writes to the resources a lock protects:
// SQL statements (database/sql, jmoiron/sqlx, pgx, and interfaces that
// stand for them: see sqlInterface), gorm and GoFrame gdb model writes,
// MongoDB collection writes (mongo-driver, mgo), file writes, Redis writes
// (from redismodel commands) and safelock's fenced write helpers. A [Write] says which values the write receives, so a rule
// can ask whether a fencing token reaches it, and for SQL the statement
// text, so a rule can ask whether the statement checks the fence.
//
// Guarantee: SQL calls count as writes only when their statement text is
// a constant (through locals assigned once, concatenation and Sprintf
// formats) that starts with INSERT, UPDATE, DELETE, REPLACE, MERGE,
// UPSERT or TRUNCATE (or a WITH that contains one); unreadable statements are not
// writes, so rules stay silent about them.
package stores

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzers/internal/keyexpr"
	"github.com/locklint/locklint/analyzers/internal/lifecycle"
	"github.com/locklint/locklint/analyzers/internal/locklib"
	"github.com/locklint/locklint/analyzers/internal/redismodel"
)

// Kind is the kind of store written.
type Kind int

const (
	SQL       Kind = iota + 1 // database/sql, sqlx
	Gorm                      // gorm model writes
	Ent                       // ent builder writes (Create, Update, Delete ... Save/Exec)
	File                      // os file writes
	Mongo                     // MongoDB collection writes (mongo-driver, mgo)
	GoFrame                   // GoFrame gdb model writes (Insert, Update, Delete, Save ...)
	Redis                     // a Redis command that changes a key
	Fenced                    // a safelock/fence helper: checks the fence where the write lands
	Xorm                      // xorm Engine/Session writes (Insert, Update, Delete)
	Migration                 // a schema migration: ent's Schema.Create, gormigrate's Migrate
)

// Write is one call that writes to a store.
type Write struct {
	Kind Kind
	Call *ast.CallExpr
	What string // for messages: "database/sql DB.ExecContext", "gorm DB.Save", "os.WriteFile", "Redis HSET"
	// Values are every expression the write receives: its arguments and,
	// for gorm, the arguments of the calls chained before it (Where, Model).
	Values []ast.Expr

	// SQL statements.
	Query     string     // the statement text, verbs of Sprintf formats as %v
	QueryExpr ast.Expr   // the statement argument (nil for prepared statements)
	Complete  bool       // Query is the whole text (no unknown parts)
	Params    []ast.Expr // bind arguments after the statement
	Spread    bool       // Params end in args...
	Named     bool       // sqlx named statement (:name parameters bound from a struct or map)

	// Gorm: the Where/Not/Or conditions chained before the write, and
	// the columns an Update/Updates sets (when named by constants).
	Conds   []GormCond
	SetCols []string

	Cmd *redismodel.Command // Redis writes

	// A write made inside a helper the call goes to (see [Result.Helper]):
	// its summary, and the arguments bound to a fence condition there.
	via      *FactWrite
	condArgs []ast.Expr
}

// GormCond is one gorm Where(query, args...) call of a chain.
type GormCond struct {
	Query    string
	Complete bool
	Args     []ast.Expr
}

// Classify returns the write call makes, or nil. cmd is the Redis
// command model of the call, if any.
func Classify(info *types.Info, defs *keyexpr.Defs, call *ast.CallExpr, cmd *redismodel.Command) *Write {
	return classify(info, defs, call, cmd, false)
}

// classify is Classify; with anyText, SQL calls whose text is not a
// known write are returned too (to summarise wrappers that take the
// statement as a parameter).
func classify(info *types.Info, defs *keyexpr.Defs, call *ast.CallExpr, cmd *redismodel.Command, anyText bool) *Write {
	if cmd != nil {
		return redisWrite(info, defs, cmd)
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	path := fn.Pkg().Path()
	sig := fn.Type().(*types.Signature)
	recv := recvName(sig)
	w := &Write{Call: call, Values: call.Args, What: shortPath(path) + " " + dotted(recv, fn.Name())}
	switch path {
	case locklib.FencePath:
		w.Kind = Fenced
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && recv != "" {
			w.Values = append(append([]ast.Expr{}, call.Args...), chainArgs(info, sel.X)...)
		}
		return w
	case "database/sql", "github.com/jmoiron/sqlx":
		return sqlWrite(info, defs, w, fn, recv, anyText)
	case "gorm.io/gorm", "github.com/jinzhu/gorm":
		return gormWrite(info, defs, w, fn, recv, anyText)
	case "os":
		return fileWrite(info, defs, w, fn, recv)
	case "go.mongodb.org/mongo-driver/mongo", "go.mongodb.org/mongo-driver/v2/mongo":
		return mongoWrite(info, w, fn, recv, mongoDriverWrites)
	case "gopkg.in/mgo.v2", "github.com/globalsign/mgo":
		return mongoWrite(info, w, fn, recv, mgoWrites)
	case "github.com/jackc/pgx/v5", "github.com/jackc/pgx/v5/pgxpool", "github.com/jackc/pgx/v4", "github.com/jackc/pgx/v4/pgxpool":
		return pgxWrite(info, defs, w, fn, recv, anyText)
	case "github.com/gogf/gf/v2/database/gdb", "github.com/gogf/gf/database/gdb":
		return goframeWrite(info, defs, w, fn, recv)
	case "xorm.io/xorm", "github.com/go-xorm/xorm":
		return xormWrite(info, defs, w, fn, recv, anyText)
	case "github.com/go-gormigrate/gormigrate/v2", "gopkg.in/gormigrate.v1":
		switch fn.Name() {
		case "Migrate", "MigrateTo", "RollbackLast", "RollbackTo", "RollbackMigration":
			w.Kind = Migration
			w.What = "gormigrate " + dotted(recv, fn.Name())
			return w
		}
		return nil
	}
	switch sqlInterface(sig) {
	case "database/sql":
		return sqlWrite(info, defs, w, fn, recv, anyText)
	case "pgx":
		return pgxWrite(info, defs, w, fn, recv, anyText)
	}
	return entWrite(info, w, fn, recv)
}

// sqlInterface says whose statement methods the method of an interface
// with signature sig stands for, by what it returns: "database/sql" for a
// sql.Result, *sql.Rows or *sql.Row (a project's own Querier or DBTX
// interface, which *sql.DB, *sql.Tx and sqlx implement), "pgx" for a
// pgconn.CommandTag, pgx.Rows or pgx.Row (sqlc's DBTX for pgx); "" for
// anything else.
func sqlInterface(sig *types.Signature) string {
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return ""
	}
	for v := range sig.Results().Variables() {
		t := v.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || n.Obj().Pkg() == nil {
			continue
		}
		switch path, name := n.Obj().Pkg().Path(), n.Obj().Name(); {
		case path == "database/sql" && (name == "Result" || name == "Rows" || name == "Row"):
			return "database/sql"
		case (path == "github.com/jackc/pgx/v5/pgconn" || path == "github.com/jackc/pgconn") && name == "CommandTag",
			(path == "github.com/jackc/pgx/v5" || path == "github.com/jackc/pgx/v4") && (name == "Rows" || name == "Row"):
			return "pgx"
		}
	}
	return ""
}

// redisWrites are the commands that change a key's value.
var redisWrites = map[string]bool{
	"SET": true, "SETEX": true, "PSETEX": true, "MSET": true, "APPEND": true, "SETRANGE": true,
	"INCR": true, "INCRBY": true, "INCRBYFLOAT": true, "DECR": true, "DECRBY": true,
	"HSET": true, "HMSET": true, "HSETNX": true, "HINCRBY": true, "HINCRBYFLOAT": true, "HDEL": true,
	"LPUSH": true, "RPUSH": true, "LSET": true, "LREM": true, "LPOP": true, "RPOP": true, "LTRIM": true,
	"LINSERT": true, "RPOPLPUSH": true, "LMOVE": true, "GETSET": true, "SETBIT": true,
	"SADD": true, "SREM": true, "SPOP": true, "SMOVE": true, "ZADD": true, "ZREM": true, "ZINCRBY": true,
	"ZREMRANGEBYSCORE": true, "ZREMRANGEBYRANK": true, "ZREMRANGEBYLEX": true, "ZPOPMIN": true, "ZPOPMAX": true,
	"XADD":     true,
	"JSON.SET": true,
}

// cacheFill reports whether cmd sets a key named as a cache with a TTL
// (SETEX cache:shop:42, SET CACHE_KEY+id v EX 60; the key held in a
// variable named so, cacheKey := "ocr:" + hash; or a TTL named so,
// s.ocrCacheTTL), or fills a read-through cache with a TTL (readThrough):
// the mutex around a cache rebuild guards the database, not the cached
// copy.
func cacheFill(info *types.Info, defs *keyexpr.Defs, cmd *redismodel.Command) bool {
	switch cmd.Name {
	case "SET", "SETEX", "PSETEX":
	default:
		return false
	}
	if !cmd.SetsExpiry() || cmd.Key() == nil {
		return false
	}
	return CacheKeyNamed(info, defs, cmd) || namedCache(cmd.TTL) || readThrough(info, cmd)
}

// CacheKeyNamed reports whether cmd's key, or the expression a variable
// holding it was given (key := CACHE_SHOP_KEY + id), is named as a cache.
func CacheKeyNamed(info *types.Info, defs *keyexpr.Defs, cmd *redismodel.Command) bool {
	if cmd.Key() == nil {
		return false
	}
	return namedCache(cmd.Key()) || namedCache(resolve(info, defs, cmd.Key()))
}

func namedCache(e ast.Expr) bool {
	return e != nil && strings.Contains(strings.ToLower(types.ExprString(e)), "cache")
}

// doneMarker reports whether cmd sets a key named as a record of work
// done (processed:<id>, event:done:<id>) to a constant with a TTL: a
// deduplication mark that a stale holder's late write sets to the value
// it already has.
func doneMarker(info *types.Info, defs *keyexpr.Defs, cmd *redismodel.Command) bool {
	switch cmd.Name {
	case "SET", "SETEX", "PSETEX":
	default:
		return false
	}
	if !cmd.SetsExpiry() || cmd.Key() == nil || cmd.Value == nil || cmd.Opts.Get || cmd.Opts.XX {
		return false
	}
	if tv, ok := info.Types[cmd.Value]; !ok || tv.Value == nil {
		return false // not a constant
	}
	key := resolve(info, defs, cmd.Key())
	return lifecycle.NamedAsRecord(types.ExprString(cmd.Key())) || lifecycle.NamedAsRecord(types.ExprString(key))
}

func redisWrite(info *types.Info, defs *keyexpr.Defs, cmd *redismodel.Command) *Write {
	w := &Write{Kind: Redis, Call: cmd.Call, Cmd: cmd, What: "Redis " + cmd.Name}
	switch {
	case cmd.Name == "SET" && cmd.Opts.NX:
		return nil // another lock, not a write of data
	case cacheFill(info, defs, cmd):
		return nil // a cache entry with a TTL: a stale fill expires, the store of record is elsewhere
	case doneMarker(info, defs, cmd):
		return nil // a constant "processed" mark: a late write sets what is already set
	case redisWrites[cmd.Name]:
	case (cmd.Name == "EVAL" || cmd.Name == "EVALSHA") && cmd.Script != nil && !cmd.Partial:
		if !scriptWrites(cmd) {
			return nil
		}
		w.What = "Redis script"
	default:
		return nil
	}
	w.Values = append(append([]ast.Expr{}, cmd.Call.Args...), cmd.ScriptArgs...)
	return w
}

// scriptWrites reports whether a script changes a key without a guard of
// its own: a write after the script compared a value it read with the
// caller's (a compare-and-set, a write checked against the lock's token)
// cannot land for a holder whose view is stale, and a SET NX creates.
func scriptWrites(cmd *redismodel.Command) bool {
	for _, e := range cmd.Script.Effects {
		if redisWrites[e.Command] && !e.NX && !e.Checked {
			return true
		}
	}
	return false
}

// Keys returns the keys a Redis write changes (all of an EVAL's keys).
func (w *Write) Keys() []ast.Expr {
	if w.Cmd == nil {
		return nil
	}
	return w.Cmd.Keys
}

func sqlWrite(info *types.Info, defs *keyexpr.Defs, w *Write, fn *types.Func, recv string, anyText bool) *Write {
	w.Kind = SQL
	name := fn.Name()
	base := strings.TrimSuffix(strings.TrimSuffix(name, "Context"), "Ctx") // ExecContext, go-zero's ExecCtx
	args := w.Call.Args
	q := 0 // index of the statement argument
	if sig := fn.Type().(*types.Signature); sig.Params().Len() > 0 && isContextType(sig.Params().At(0).Type()) {
		q = 1
	}
	if recv == "" { // sqlx package functions: f(ctx?, execer, query, args...)
		q++
	}
	switch {
	case recv == "Stmt" || recv == "NamedStmt":
		// Prepared: the text is at the Prepare call that made the receiver.
		switch base {
		case "Exec", "Query", "QueryRow", "MustExec", "Queryx", "QueryRowx":
		default:
			return nil
		}
		sel, ok := ast.Unparen(w.Call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		prep, ok := resolve(info, defs, sel.X).(*ast.CallExpr)
		if !ok {
			return nil
		}
		pfn, _ := typeutil.Callee(info, prep).(*types.Func)
		if pfn == nil || !strings.HasPrefix(pfn.Name(), "Prepare") || len(prep.Args) == 0 {
			return nil
		}
		w.Query, w.Complete = Text(info, defs, prep.Args[len(prep.Args)-1])
		if q > len(args) {
			return nil
		}
		w.Params, w.Spread = args[q:], w.Call.Ellipsis.IsValid()
		w.Named = recv == "NamedStmt"
	case base == "Exec" || base == "MustExec" || base == "Query" || base == "QueryRow" ||
		base == "Queryx" || base == "QueryRowx" || base == "Get" || base == "Select":
		if base == "Get" || base == "Select" {
			q++ // Get(dest, query, args...)
		}
		if q >= len(args) {
			return nil
		}
		w.Query, w.Complete = Text(info, defs, args[q])
		w.QueryExpr = args[q]
		w.Params, w.Spread = args[q+1:], w.Call.Ellipsis.IsValid()
	case base == "NamedExec" || base == "NamedQuery":
		if q >= len(args) {
			return nil
		}
		w.Query, w.Complete = Text(info, defs, args[q])
		w.Params, w.Named = args[q+1:], true
	default:
		return nil
	}
	if !anyText && !IsWriteSQL(w.Query) {
		return nil
	}
	return w
}

var gormWrites = map[string]bool{
	"Create": true, "CreateInBatches": true, "Save": true, "Update": true, "Updates": true,
	"UpdateColumn": true, "UpdateColumns": true, "Delete": true, "FirstOrCreate": true,
}

func gormWrite(info *types.Info, defs *keyexpr.Defs, w *Write, fn *types.Func, recv string, anyText bool) *Write {
	if recv != "DB" {
		return nil
	}
	w.Kind = Gorm
	w.What = "gorm DB." + fn.Name()
	sel, ok := ast.Unparen(w.Call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	switch {
	case fn.Name() == "Exec":
		if statementAt(info, defs, w, 0, anyText) == nil {
			return nil
		}
	case gormWrites[fn.Name()]:
	default:
		return nil
	}
	w.SetCols = gormSetColumns(info, fn.Name(), w.Call.Args)
	// Walk the chain db.Model(&x).Where("fence < ?", f).Updates(...).
	walkChain(w, sel.X, func(m string, args []ast.Expr) {
		if (m == "Where" || m == "Not" || m == "Or") && len(args) > 0 {
			q, complete := Text(info, defs, args[0])
			w.Conds = append(w.Conds, GormCond{Query: q, Complete: complete, Args: args[1:]})
		}
	})
	return w
}

// gormSetColumns returns the columns a gorm update sets, when constants
// name them: Update("status", v), Updates(map[string]any{"status": v}).
func gormSetColumns(info *types.Info, method string, args []ast.Expr) []string {
	if len(args) == 0 {
		return nil
	}
	str := func(e ast.Expr) (string, bool) {
		tv, ok := info.Types[e]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", false
		}
		return constant.StringVal(tv.Value), true
	}
	var cols []string
	switch method {
	case "Update", "UpdateColumn":
		if c, ok := str(args[0]); ok {
			cols = append(cols, c)
		}
	case "Updates", "UpdateColumns":
		lit, ok := ast.Unparen(args[0]).(*ast.CompositeLit)
		if !ok {
			return nil
		}
		if _, isMap := info.TypeOf(lit).Underlying().(*types.Map); !isMap {
			return nil
		}
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if c, ok := str(kv.Key); ok {
					cols = append(cols, c)
				}
			}
		}
	}
	return cols
}

// walkChain adds the arguments of the method calls chained before an
// ORM write (x in x.Update()) to w.Values, and shows each call to cond.
func walkChain(w *Write, x ast.Expr, cond func(method string, args []ast.Expr)) {
	for {
		c, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			return
		}
		s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return
		}
		w.Values = append(w.Values, c.Args...)
		cond(s.Sel.Name, c.Args)
		x = s.X
	}
}

// goframeWrites are GoFrame gdb Model methods that change rows.
var goframeWrites = map[string]bool{
	"Insert": true, "InsertIgnore": true, "InsertAndGetId": true, "Replace": true, "Save": true,
	"Update": true, "UpdateAndGetAffected": true, "Delete": true, "Increment": true, "Decrement": true,
}

// goframeWrite recognises a GoFrame gdb model write:
// tx.Model("t").Where("id", id).Data(g.Map{...}).Update(). Its Where
// conditions are kept as gorm's are; WhereLT/WhereLTE(col, v) read as
// "col < ?" and "col <= ?".
func goframeWrite(info *types.Info, defs *keyexpr.Defs, w *Write, fn *types.Func, recv string) *Write {
	sel, ok := ast.Unparen(w.Call.Fun).(*ast.SelectorExpr)
	if recv != "Model" || !goframeWrites[fn.Name()] || !ok {
		return nil
	}
	w.Kind = GoFrame
	w.What = "gdb Model." + fn.Name()
	walkChain(w, sel.X, func(m string, args []ast.Expr) {
		switch {
		case (m == "Where" || m == "WhereOr" || m == "Wheref") && len(args) > 0:
			q, complete := Text(info, defs, args[0])
			w.Conds = append(w.Conds, GormCond{Query: q, Complete: complete, Args: args[1:]})
		case (m == "WhereLT" || m == "WhereLTE") && len(args) == 2:
			col, complete := Text(info, defs, args[0])
			op := " < ?"
			if m == "WhereLTE" {
				op = " <= ?"
			}
			w.Conds = append(w.Conds, GormCond{Query: col + op, Complete: complete, Args: args[1:]})
		}
	})
	return w
}

// xormWrites are the xorm Engine and Session methods that change rows.
var xormWrites = map[string]bool{
	"Insert": true, "InsertOne": true, "InsertMulti": true, "Update": true, "Delete": true,
}

// xormWrite recognises an xorm write: engine.Insert(&item),
// engine.Where("id = ?", id).Update(&item), session.Delete(&item), and
// Exec("UPDATE ...", args...) with its statement first. Where, And and
// Or conditions of the chain are kept as gorm's are.
func xormWrite(info *types.Info, defs *keyexpr.Defs, w *Write, fn *types.Func, recv string, anyText bool) *Write {
	sel, ok := ast.Unparen(w.Call.Fun).(*ast.SelectorExpr)
	if recv != "Engine" && recv != "Session" && recv != "EngineGroup" || !ok {
		return nil
	}
	w.What = "xorm " + recv + "." + fn.Name()
	if fn.Name() == "Exec" {
		return statementAt(info, defs, w, 0, anyText)
	}
	if !xormWrites[fn.Name()] {
		return nil
	}
	w.Kind = Xorm
	walkChain(w, sel.X, func(m string, args []ast.Expr) {
		if (m == "Where" || m == "And" || m == "Or") && len(args) > 0 {
			q, complete := Text(info, defs, args[0])
			w.Conds = append(w.Conds, GormCond{Query: q, Complete: complete, Args: args[1:]})
		}
	})
	return w
}

// pgxWrite recognises pgx's Exec(ctx, sql, args...) on a Conn, Pool or
// Tx.
func pgxWrite(info *types.Info, defs *keyexpr.Defs, w *Write, fn *types.Func, recv string, anyText bool) *Write {
	// Query and QueryRow write too when their text does (INSERT ...
	// RETURNING, sqlc's :one UPDATE), as database/sql's do.
	switch fn.Name() {
	case "Exec", "Query", "QueryRow":
	default:
		return nil
	}
	w.What = "pgx " + dotted(recv, fn.Name())
	return statementAt(info, defs, w, 1, anyText)
}

// statementAt reads w as a SQL write whose statement is argument i and
// whose parameters follow it; nil when there is no argument i or, unless
// anyText, the statement does not write.
func statementAt(info *types.Info, defs *keyexpr.Defs, w *Write, i int, anyText bool) *Write {
	args := w.Call.Args
	if i >= len(args) {
		return nil
	}
	w.Kind = SQL
	w.Query, w.Complete = Text(info, defs, args[i])
	w.QueryExpr = args[i]
	w.Params, w.Spread = args[i+1:], w.Call.Ellipsis.IsValid()
	if !anyText && !IsWriteSQL(w.Query) {
		return nil
	}
	return w
}

// entBuilders are the suffixes of ent's generated builder types that
// write; the package path is the user's own, so ent is told by the
// generated package importing entgo.io/ent.
var entBuilders = []string{"CreateBulk", "Create", "UpdateOne", "Update", "DeleteOne", "Delete", "UpsertOne", "UpsertBulk", "Upsert"}

// entWrite recognises the Save/Exec that runs an ent write builder:
// client.User.Update().Where(user.ID(id)).SetName(n).Save(ctx).
func entWrite(info *types.Info, w *Write, fn *types.Func, recv string) *Write {
	if fn.Name() == "Create" && recv == "Schema" && imports(fn.Pkg(), "entgo.io/ent/dialect/sql/schema") {
		// client.Schema.Create(ctx) of ent's generated migrate package:
		// it creates and alters tables, and takes no lock of its own.
		w.Kind = Migration
		w.What = "ent Schema.Create"
		return w
	}
	switch fn.Name() {
	case "Save", "SaveX", "Exec", "ExecX":
	default:
		return nil
	}
	builder := ""
	for _, suf := range entBuilders {
		if strings.HasSuffix(recv, suf) && len(recv) > len(suf) {
			builder = suf
			break
		}
	}
	if builder == "" || !importsEnt(fn.Pkg()) {
		return nil
	}
	sel, ok := ast.Unparen(w.Call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	w.Kind = Ent
	w.What = "ent " + recv + "." + fn.Name()
	w.Values = append(append([]ast.Expr{}, w.Call.Args...), chainArgs(info, sel.X)...)
	return w
}

func imports(pkg *types.Package, path string) bool {
	return slices.ContainsFunc(pkg.Imports(), func(imp *types.Package) bool { return imp.Path() == path })
}

func importsEnt(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == "entgo.io/ent" || strings.HasPrefix(imp.Path(), "entgo.io/ent/") {
			return true
		}
	}
	return false
}

func fileWrite(info *types.Info, defs *keyexpr.Defs, w *Write, fn *types.Func, recv string) *Write {
	switch {
	case recv == "" && (fn.Name() == "WriteFile" || fn.Name() == "Create" || fn.Name() == "Rename" ||
		fn.Name() == "Remove" || fn.Name() == "RemoveAll" || fn.Name() == "Truncate"):
		w.What = "os." + fn.Name()
	case recv == "File" && (fn.Name() == "Write" || fn.Name() == "WriteString" || fn.Name() == "WriteAt"):
		sel, ok := ast.Unparen(w.Call.Fun).(*ast.SelectorExpr)
		if !ok || longLived(info, sel.X) || tempFile(info, defs, sel.X) {
			return nil
		}
		w.What = "(*os.File)." + fn.Name()
		w.Values = append(append([]ast.Expr{}, w.Call.Args...), sel.X)
	default:
		return nil
	}
	w.Kind = File
	return w
}

// tempFile reports whether the file handle x comes from os.CreateTemp
// (f, err := os.CreateTemp(dir, "upload-*")): a file of a name no other
// holder has, so a stale holder's writes land in its own file; what the
// lock protects is where that file is renamed to.
func tempFile(info *types.Info, defs *keyexpr.Defs, x ast.Expr) bool {
	v := keyexpr.VarOf(info, x)
	if v == nil || defs == nil {
		return false
	}
	call, _ := defs.Tuple(v)
	if call == nil {
		return false
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "os" && fn.Name() == "CreateTemp"
}

// longLived reports whether the file handle x is kept in a struct field or
// a package variable (os.Stdout, a logger's log file opened at startup):
// a stream the process appends to, not a file a critical section
// produces. Handles the function opens, or is passed, are files it writes.
func longLived(info *types.Info, x ast.Expr) bool {
	v := keyexpr.VarOf(info, x)
	return v != nil && (v.IsField() || v.Pkg() != nil && v.Parent() == v.Pkg().Scope())
}

// The methods that change documents, by receiver type.
var (
	mongoDriverWrites = map[string][]string{
		"Collection": {"InsertOne", "InsertMany", "UpdateOne", "UpdateMany", "UpdateByID", "ReplaceOne",
			"DeleteOne", "DeleteMany", "FindOneAndUpdate", "FindOneAndReplace", "FindOneAndDelete", "BulkWrite"},
	}
	mgoWrites = map[string][]string{
		"Collection": {"Insert", "Update", "UpdateId", "UpdateAll", "Upsert", "UpsertId", "Remove", "RemoveId", "RemoveAll"},
		"Query":      {"Apply"}, // findAndModify: c.Find(filter).Apply(change, &doc)
		"Bulk":       {"Run"},
	}
)

// mongoWrite is a write to a MongoDB collection; its values include the
// arguments of the calls chained before it (the filter of Find(...).Apply).
func mongoWrite(info *types.Info, w *Write, fn *types.Func, recv string, writes map[string][]string) *Write {
	if !slices.Contains(writes[recv], fn.Name()) {
		return nil
	}
	w.Kind = Mongo
	w.What = "mongo " + dotted(recv, fn.Name())
	if sel, ok := ast.Unparen(w.Call.Fun).(*ast.SelectorExpr); ok {
		w.Values = append(append([]ast.Expr{}, w.Call.Args...), chainArgs(info, sel.X)...)
	}
	return w
}

// chainArgs returns the arguments of the method calls chained in x.
func chainArgs(info *types.Info, x ast.Expr) []ast.Expr {
	var out []ast.Expr
	for {
		c, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			return append(out, x)
		}
		out = append(out, c.Args...)
		s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return out
		}
		x = s.X
	}
}

var writeVerb = regexp.MustCompile(`(?i)^\s*(?:/\*.*?\*/\s*|--[^\n]*\n\s*)*\(?\s*(insert|update|delete|replace|merge|upsert|truncate)\b`)
var cteWrite = regexp.MustCompile(`(?is)^\s*with\b.*\b(insert|update|delete)\b`)

// IsWriteSQL reports whether a statement's text changes data.
func IsWriteSQL(q string) bool {
	return writeVerb.MatchString(q) || cteWrite.MatchString(q)
}

// Text returns the text of a SQL statement expression: a constant, a local
// or package variable assigned once, a concatenation, a fmt.Sprintf
// with a constant format, or what a function of the package with one
// return statement returns. complete is false when parts are unknown; the
// unknown parts read as %v.
func Text(info *types.Info, defs *keyexpr.Defs, e ast.Expr) (text string, complete bool) {
	return text1(info, defs, e, 0)
}

func text1(info *types.Info, defs *keyexpr.Defs, e ast.Expr, depth int) (string, bool) {
	if e == nil || depth > 8 {
		return "%v", false
	}
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if r := resolve(info, defs, x); r != ast.Expr(x) {
			return text1(info, defs, r, depth+1)
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			a, ca := text1(info, defs, x.X, depth+1)
			b, cb := text1(info, defs, x.Y, depth+1)
			return a + b, ca && cb
		}
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, x).(*types.Func)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf" && len(x.Args) > 0 {
			f, _ := text1(info, defs, x.Args[0], depth+1)
			return f, false
		}
		if r := defs.Returned(fn); r != nil {
			// A statement builder of the package (prepareInsert(table,
			// cols) returning fmt.Sprintf("INSERT INTO %s ...")): its
			// arguments are unknown here.
			t, _ := text1(info, defs, r, depth+1)
			return t, false
		}
	}
	return "%v", false
}

func resolve(info *types.Info, defs *keyexpr.Defs, e ast.Expr) ast.Expr {
	for range 6 {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return ast.Unparen(e)
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || defs == nil {
			return id
		}
		def := defs.Single(v)
		if def == nil {
			return id
		}
		e = def
	}
	return e
}

func shortPath(path string) string {
	switch path {
	case "github.com/jmoiron/sqlx":
		return "sqlx"
	case "gorm.io/gorm", "github.com/jinzhu/gorm":
		return "gorm"
	case locklib.FencePath:
		return "fence"
	}
	return path
}

func dotted(recv, name string) string {
	if recv == "" {
		return name
	}
	return recv + "." + name
}

func recvName(sig *types.Signature) string {
	if sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

func isContextType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}
