// Package cmds is a minimal stand-in for valkey-go's generated command builders.
package cmds

type Completed struct{ cs []string }

type Builder struct{}

type Sadd struct{ cs []string }
type SaddKey struct{ cs []string }
type SaddMember struct{ cs []string }

func (b Builder) Sadd() Sadd                            { return Sadd{} }
func (c Sadd) Key(key string) SaddKey                   { return SaddKey{} }
func (c SaddKey) Member(member ...string) SaddMember    { return SaddMember{} }
func (c SaddMember) Member(member ...string) SaddMember { return SaddMember{} }
func (c SaddMember) Build() Completed                   { return Completed{} }

type Smembers struct{ cs []string }
type SmembersKey struct{ cs []string }

func (b Builder) Smembers() Smembers          { return Smembers{} }
func (c Smembers) Key(key string) SmembersKey { return SmembersKey{} }
func (c SmembersKey) Build() Completed        { return Completed{} }
