package cmds

import "time"

// Builders for TTLs in every unit: Ex/Px take a time.Duration and truncate
// it; ExSeconds, PxMilliseconds and the timestamps take integers.

func (c SetValue) Ex(d time.Duration) SetExpiration                       { return SetExpiration{} }
func (c SetValue) ExSeconds(n int64) SetExpiration                        { return SetExpiration{} }
func (c SetValue) PxMilliseconds(n int64) SetExpiration                   { return SetExpiration{} }
func (c SetConditionNx) Ex(d time.Duration) SetExpiration                 { return SetExpiration{} }
func (c SetConditionNx) PxMilliseconds(n int64) SetExpiration             { return SetExpiration{} }
func (c SetConditionNx) PxatMillisecondsTimestamp(ts int64) SetExpiration { return SetExpiration{} }
func (c SetConditionNx) ExatTimestamp(ts int64) SetExpiration             { return SetExpiration{} }
