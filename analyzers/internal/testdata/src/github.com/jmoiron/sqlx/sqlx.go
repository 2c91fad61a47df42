// Package sqlx is a minimal stand-in for github.com/jmoiron/sqlx.
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct{ *sql.DB }

type Tx struct{ *sql.Tx }

func Connect(driverName, dataSourceName string) (*DB, error) { return &DB{}, nil }

func (db *DB) MustBegin() *Tx { return &Tx{} }

func (db *DB) NamedExec(query string, arg interface{}) (sql.Result, error) { return nil, nil }
func (db *DB) NamedExecContext(ctx context.Context, query string, arg interface{}) (sql.Result, error) {
	return nil, nil
}
func (db *DB) MustExec(query string, args ...interface{}) sql.Result { return nil }
func (db *DB) MustExecContext(ctx context.Context, query string, args ...interface{}) sql.Result {
	return nil
}
func (db *DB) Get(dest interface{}, query string, args ...interface{}) error    { return nil }
func (db *DB) Select(dest interface{}, query string, args ...interface{}) error { return nil }

func (tx *Tx) NamedExec(query string, arg interface{}) (sql.Result, error)   { return nil, nil }
func (tx *Tx) MustExec(query string, args ...interface{}) sql.Result         { return nil }
func (tx *Tx) Get(dest interface{}, query string, args ...interface{}) error { return nil }

// Ext is the interface of DB and Tx.
type Ext interface {
	Exec(query string, args ...interface{}) (sql.Result, error)
}

func NamedExec(e Ext, query string, arg interface{}) (sql.Result, error) { return nil, nil }
func MustExec(e Ext, query string, args ...interface{}) sql.Result       { return nil }
