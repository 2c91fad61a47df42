// Package gdb is a stand-in for GoFrame's gdb: the Model chain and the
// DB and TX interfaces, with the signatures the analyzers match on.
package gdb

import (
	"context"
	"database/sql"

	"github.com/gogf/gf/v2/database/gredis"
)

type Map = map[string]interface{}

type Raw string

type Model struct{ table string }

type DB interface {
	Model(tableNameOrStruct ...interface{}) *Model
	Transaction(ctx context.Context, f func(ctx context.Context, tx TX) error) error
}

type TX interface {
	Model(tableNameOrStruct ...interface{}) *Model
}

func (m *Model) Ctx(ctx context.Context) *Model                                  { return m }
func (m *Model) Where(where interface{}, args ...interface{}) *Model             { return m }
func (m *Model) WhereOr(where interface{}, args ...interface{}) *Model           { return m }
func (m *Model) WhereLT(column string, value interface{}) *Model                 { return m }
func (m *Model) WhereLTE(column string, value interface{}) *Model                { return m }
func (m *Model) Fields(fieldNamesOrMapStruct ...interface{}) *Model              { return m }
func (m *Model) Data(data ...interface{}) *Model                                 { return m }
func (m *Model) Count(where ...interface{}) (int, error)                         { return 0, nil }
func (m *Model) Insert(data ...interface{}) (sql.Result, error)                  { return nil, nil }
func (m *Model) InsertAndGetId(data ...interface{}) (int64, error)               { return 0, nil }
func (m *Model) Save(data ...interface{}) (sql.Result, error)                    { return nil, nil }
func (m *Model) Replace(data ...interface{}) (sql.Result, error)                 { return nil, nil }
func (m *Model) Update(dataAndWhere ...interface{}) (sql.Result, error)          { return nil, nil }
func (m *Model) Delete(where ...interface{}) (sql.Result, error)                 { return nil, nil }
func (m *Model) Increment(column string, amount interface{}) (sql.Result, error) { return nil, nil }

// Scan reads; like GoFrame's, it fills the query cache, which may live
// in Redis (gcache's Redis adapter).
func (m *Model) Scan(pointer interface{}, where ...interface{}) error {
	_, err := gredis.Instance().Set(context.Background(), "Select:"+m.table, pointer)
	return err
}
