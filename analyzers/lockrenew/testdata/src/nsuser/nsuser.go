// Package nsuser takes a leader lock through nscache's generic helpers:
// the renew is the Expire call here, not nscache's Expire, which serves
// every key.
package nsuser

import (
	"time"

	"nscache"
)

const leaderKey = "cluster:leader"

func elect(id string) (bool, error) {
	return nscache.SetNX(leaderKey, id, 2*time.Second)
}

func keepLeading() error {
	_, err := nscache.Expire(leaderKey, 2*time.Second) // want `lock nscache.key\("cluster:leader"\) is renewed with EXPIRE \(in nscache.Expire at nscache.go:\d+\) without checking that this holder still owns it`
	return err
}

// A session's sliding expiry through the same helper: no lock.
func touchSession(id string) error {
	if err := nscache.Store("session:"+id, "user", time.Hour); err != nil {
		return err
	}
	_, err := nscache.Expire("session:"+id, time.Hour)
	return err
}
