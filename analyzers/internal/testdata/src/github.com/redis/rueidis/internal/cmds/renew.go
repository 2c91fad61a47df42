package cmds

import "time"

// Builders for renewals: EXPIRE and SET ... XX.

type Expire struct{ cs []string }
type ExpireKey struct{ cs []string }
type ExpireSeconds struct{ cs []string }

func (b Builder) Expire() Expire                  { return Expire{} }
func (c Expire) Key(key string) ExpireKey         { return ExpireKey{} }
func (c ExpireKey) Seconds(s int64) ExpireSeconds { return ExpireSeconds{} }
func (c ExpireSeconds) Build() Completed          { return Completed{} }

type SetConditionXx struct{ cs []string }

func (c SetValue) Xx() SetConditionXx                     { return SetConditionXx{} }
func (c SetConditionXx) Px(d time.Duration) SetExpiration { return SetExpiration{} }
func (c SetConditionXx) Build() Completed                 { return Completed{} }
