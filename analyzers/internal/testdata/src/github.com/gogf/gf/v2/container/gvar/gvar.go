// Package gvar is a stub of GoFrame's gvar for locklint's tests.
package gvar

type Var struct{ v any }

func (v *Var) IsNil() bool    { return v == nil || v.v == nil }
func (v *Var) String() string { s, _ := v.v.(string); return s }
func (v *Var) Int64() int64   { n, _ := v.v.(int64); return n }
func (v *Var) Bool() bool     { b, _ := v.v.(bool); return b }
func (v *Var) Interface() any { return v.v }
