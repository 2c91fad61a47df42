// Package nsuser locks through nscache's generic helpers: the unchecked
// release is the Del call here, not nscache's Del, which serves every key;
// nscache's own Lock/Unlock API is correct.
package nsuser

import (
	"time"

	"nscache"
)

func runJob(id string, work func()) error {
	ok, err := nscache.SetNX("job-lock:"+id, "worker", time.Minute)
	if err != nil || !ok {
		return err
	}
	work()
	_, err = nscache.Del("job-lock:" + id) // want `lock nscache.key\("job-lock:" \+ \*\) is deleted with DEL \(in nscache.Del at nscache.go:\d+\) without checking`
	return err
}

func runOwned(id string, work func()) error {
	tok, ok, err := nscache.Lock("job:"+id, time.Minute)
	if err != nil || !ok {
		return err
	}
	defer nscache.Unlock("job:"+id, tok)
	work()
	return nil
}

// A cache entry stored and dropped through the same helpers: no lock.
func refresh(id string, v string) error {
	if _, err := nscache.Del("profile:" + id); err != nil {
		return err
	}
	return nscache.Store("profile:"+id, v, time.Hour)
}
