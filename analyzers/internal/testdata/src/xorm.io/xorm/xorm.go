// Package xorm is a stand-in for xorm.io/xorm: the Engine and Session
// methods the analyzers match on.
package xorm

import "database/sql"

type Engine struct{}

type Session struct{}

func NewEngine(driverName, dataSourceName string) (*Engine, error) { return &Engine{}, nil }

func (e *Engine) NewSession() *Session                                  { return &Session{} }
func (e *Engine) Where(query interface{}, args ...interface{}) *Session { return &Session{} }
func (e *Engine) ID(id interface{}) *Session                            { return &Session{} }
func (e *Engine) Cols(columns ...string) *Session                       { return &Session{} }
func (e *Engine) Insert(beans ...interface{}) (int64, error)            { return 0, nil }
func (e *Engine) InsertOne(bean interface{}) (int64, error)             { return 0, nil }
func (e *Engine) Update(bean interface{}, condiBeans ...interface{}) (int64, error) {
	return 0, nil
}
func (e *Engine) Delete(beans ...interface{}) (int64, error)              { return 0, nil }
func (e *Engine) Exec(sqlOrArgs ...interface{}) (sql.Result, error)       { return nil, nil }
func (e *Engine) Get(beans ...interface{}) (bool, error)                  { return false, nil }
func (e *Engine) Find(beans interface{}, condiBeans ...interface{}) error { return nil }

func (s *Session) Where(query interface{}, args ...interface{}) *Session { return s }
func (s *Session) And(query interface{}, args ...interface{}) *Session   { return s }
func (s *Session) Or(query interface{}, args ...interface{}) *Session    { return s }
func (s *Session) ID(id interface{}) *Session                            { return s }
func (s *Session) Cols(columns ...string) *Session                       { return s }
func (s *Session) Incr(column string, arg ...interface{}) *Session       { return s }
func (s *Session) Begin() error                                          { return nil }
func (s *Session) Commit() error                                         { return nil }
func (s *Session) Insert(beans ...interface{}) (int64, error)            { return 0, nil }
func (s *Session) Update(bean interface{}, condiBeans ...interface{}) (int64, error) {
	return 0, nil
}
func (s *Session) Delete(beans ...interface{}) (int64, error)              { return 0, nil }
func (s *Session) Exec(sqlOrArgs ...interface{}) (sql.Result, error)       { return nil, nil }
func (s *Session) Get(beans ...interface{}) (bool, error)                  { return false, nil }
func (s *Session) Find(beans interface{}, condiBeans ...interface{}) error { return nil }
