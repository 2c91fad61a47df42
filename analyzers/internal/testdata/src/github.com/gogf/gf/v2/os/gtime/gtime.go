// Package gtime is a stand-in for GoFrame's gtime: its clock. The bodies
// are empty; the analyzers know the names.
package gtime

import "time"

type Time struct{}

func Now() *Time                          { return &Time{} }
func New(param ...interface{}) *Time      { return &Time{} }
func Timestamp() int64                    { return 0 }
func TimestampMilli() int64               { return 0 }
func (t *Time) Unix() int64               { return 0 }
func (t *Time) TimestampMilli() int64     { return 0 }
func (t *Time) String() string            { return "" }
func (t *Time) Format(f string) string    { return f }
func (t *Time) Sub(u *Time) time.Duration { return 0 }
