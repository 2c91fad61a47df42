// Package cmds is a minimal stand-in for rueidis's generated command builders.
package cmds

import "time"

type Completed struct{ cs []string }

type Builder struct{}

func NewBuilder() Builder { return Builder{} }

type Set struct{ cs []string }
type SetKey struct{ cs []string }
type SetValue struct{ cs []string }
type SetConditionNx struct{ cs []string }
type SetExpiration struct{ cs []string }

func (b Builder) Set() Set                                { return Set{} }
func (c Set) Key(key string) SetKey                       { return SetKey{} }
func (c SetKey) Value(value string) SetValue              { return SetValue{} }
func (c SetValue) Nx() SetConditionNx                     { return SetConditionNx{} }
func (c SetValue) Px(d time.Duration) SetExpiration       { return SetExpiration{} }
func (c SetValue) Build() Completed                       { return Completed{} }
func (c SetConditionNx) Px(d time.Duration) SetExpiration { return SetExpiration{} }
func (c SetConditionNx) ExSeconds(n int64) SetExpiration  { return SetExpiration{} }
func (c SetConditionNx) Build() Completed                 { return Completed{} }
func (c SetExpiration) Build() Completed                  { return Completed{} }

type Del struct{ cs []string }
type DelKey struct{ cs []string }

func (b Builder) Del() Del             { return Del{} }
func (c Del) Key(key ...string) DelKey { return DelKey{} }
func (c DelKey) Build() Completed      { return Completed{} }

type Get struct{ cs []string }
type GetKey struct{ cs []string }

func (b Builder) Get() Get          { return Get{} }
func (c Get) Key(key string) GetKey { return GetKey{} }
func (c GetKey) Build() Completed   { return Completed{} }

type Pexpire struct{ cs []string }
type PexpireKey struct{ cs []string }
type PexpireMilliseconds struct{ cs []string }

func (b Builder) Pexpire() Pexpire                             { return Pexpire{} }
func (c Pexpire) Key(key string) PexpireKey                    { return PexpireKey{} }
func (c PexpireKey) Milliseconds(ms int64) PexpireMilliseconds { return PexpireMilliseconds{} }
func (c PexpireMilliseconds) Build() Completed                 { return Completed{} }

type Delex struct{ cs []string }
type DelexKey struct{ cs []string }
type DelexConditionIfeq struct{ cs []string }

func (b Builder) Delex() Delex                      { return Delex{} }
func (c Delex) Key(key string) DelexKey             { return DelexKey{} }
func (c DelexKey) Ifeq(v string) DelexConditionIfeq { return DelexConditionIfeq{} }
func (c DelexConditionIfeq) Build() Completed       { return Completed{} }

type JsonSet struct{ cs []string }
type JsonSetKey struct{ cs []string }
type JsonSetPath struct{ cs []string }
type JsonSetValue struct{ cs []string }

func (b Builder) JsonSet() JsonSet                    { return JsonSet{} }
func (c JsonSet) Key(key string) JsonSetKey           { return JsonSetKey{} }
func (c JsonSetKey) Path(path string) JsonSetPath     { return JsonSetPath{} }
func (c JsonSetPath) Value(value string) JsonSetValue { return JsonSetValue{} }
func (c JsonSetValue) Build() Completed               { return Completed{} }
