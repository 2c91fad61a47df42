// Package mgo is a stand-in for gopkg.in/mgo.v2.
package mgo

import "errors"

var ErrNotFound = errors.New("not found")

type Session struct{}

func (s *Session) Close()                   {}
func (s *Session) DB(name string) *Database { return &Database{} }

type Database struct{}

func (d *Database) C(name string) *Collection { return &Collection{} }

type ChangeInfo struct{ Updated, Removed int }

type Change struct {
	Update    interface{}
	Upsert    bool
	ReturnNew bool
}

type Collection struct{}

func (c *Collection) Find(query interface{}) *Query                            { return &Query{} }
func (c *Collection) Insert(docs ...interface{}) error                         { return nil }
func (c *Collection) Update(selector, update interface{}) error                { return nil }
func (c *Collection) UpdateId(id, update interface{}) error                    { return nil }
func (c *Collection) Upsert(selector, update interface{}) (*ChangeInfo, error) { return nil, nil }
func (c *Collection) Remove(selector interface{}) error                        { return nil }

type Query struct{}

func (q *Query) One(result interface{}) error                                 { return nil }
func (q *Query) All(result interface{}) error                                 { return nil }
func (q *Query) Apply(change Change, result interface{}) (*ChangeInfo, error) { return nil, nil }
