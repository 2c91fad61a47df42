package rawclientuser

import "rawclient"

type Job struct{ Redis *rawclient.Manager }

func (j *Job) lock(key string, ttl int) bool {
	ok, err := j.Redis.Do("SET", key, "locked", "EX", ttl, "NX") // want `lock key stores the constant "locked" as its value`
	return ok != nil && err == nil
}

func (j *Job) unlock(key string) {
	_, _ = j.Redis.Do("DEL", key)
}

// Near miss: Record does not send the command.
func (j *Job) note(key string, ttl int) bool {
	ok, err := j.Redis.Record("SET", key, "locked", "EX", ttl, "NX")
	_, _ = j.Redis.Record("DEL", key)
	return ok != nil && err == nil
}

func (j *Job) lockOrRenew(name string, ttl int, renewal bool) bool {
	key := "schedule:jobLock:" + name
	if renewal {
		_, err := j.Redis.Do("EXPIRE", key, ttl)
		if err == nil {
			return true
		}
	} else {
		ok, err := j.Redis.Do("SET", key, "locked", "EX", ttl, "NX") // want `lock key stores the constant "locked" as its value`
		if ok != nil && err == nil {
			return true
		}
	}
	return false
}

func (j *Job) unlockJob(name string) {
	_, _ = j.Redis.Del("schedule:jobLock:" + name)
}
