package ttluser

import "ttlkv"

type Jobs struct{ db *ttlkv.DB }

// The caller's TTL goes through: SetNotExists takes the script path, with
// a TTL, unless the caller passes 0, which Lock's caller decides.
func (j *Jobs) Lock(name string, seconds int) bool {
	ok, err := j.db.SetNotExists("lock:"+name, "1", seconds)
	return err == nil && ok
}

func (j *Jobs) Unlock(name string) { _ = j.db.Del("lock:" + name) }

// Mark ignores the TTL it is given.
func (j *Jobs) LockMarked(name string) bool {
	ok, err := j.db.Mark("mark:"+name, "1", 30) // want `lock "mark:" \+ name is acquired with SETNX \(in DB.Mark at ttlkv.go:35\) without a TTL`
	return err == nil && ok
}

func (j *Jobs) UnlockMarked(name string) { _ = j.db.Del("mark:" + name) }
