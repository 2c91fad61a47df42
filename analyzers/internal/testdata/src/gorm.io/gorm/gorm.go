// Package gorm is a minimal stand-in for gorm.io/gorm.
package gorm

import (
	"context"

	"gorm.io/gorm/clause"
)

type Dialector interface{ Name() string }

type Option interface{}

type DB struct {
	Error        error
	RowsAffected int64
}

func Open(dialector Dialector, opts ...Option) (*DB, error) { return &DB{}, nil }

func (db *DB) WithContext(ctx context.Context) *DB                { return db }
func (db *DB) Model(value interface{}) *DB                        { return db }
func (db *DB) Table(name string, args ...interface{}) *DB         { return db }
func (db *DB) Where(query interface{}, args ...interface{}) *DB   { return db }
func (db *DB) First(dest interface{}, conds ...interface{}) *DB   { return db }
func (db *DB) Find(dest interface{}, conds ...interface{}) *DB    { return db }
func (db *DB) Create(value interface{}) *DB                       { return db }
func (db *DB) Save(value interface{}) *DB                         { return db }
func (db *DB) Update(column string, value interface{}) *DB        { return db }
func (db *DB) Updates(values interface{}) *DB                     { return db }
func (db *DB) Delete(value interface{}, conds ...interface{}) *DB { return db }
func (db *DB) Exec(sql string, values ...interface{}) *DB         { return db }
func (db *DB) Transaction(fc func(tx *DB) error) error            { return fc(db) }
func (db *DB) Clauses(conds ...clause.Expression) *DB             { return db }
func (db *DB) Raw(sql string, values ...interface{}) *DB          { return db }
func (db *DB) Scan(dest interface{}) *DB                          { return db }
func (db *DB) Begin() *DB                                         { return db }
func (db *DB) Commit() *DB                                        { return db }
func (db *DB) Set(key string, value interface{}) *DB              { return db }
