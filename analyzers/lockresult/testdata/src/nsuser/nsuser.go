// Package nsuser writes through nscache's generic helpers. Its SetNX
// serves any key: a queued SetNX in a transaction seeds data; a lock key
// taken through it is judged here, at the call.
package nsuser

import (
	"time"

	"github.com/redis/go-redis/v9"

	"nscache"
)

// Two mappings seeded in one MULTI/EXEC: set-once data, no lock, and a
// queued command's bool means nothing before EXEC anyway.
func seed(tenant, k string) error {
	var err error
	return nscache.Transaction(func(p redis.Pipeliner) error {
		_, err = nscache.SetNX("id2key:"+tenant, k, 2*time.Hour, p)
		if err != nil {
			return err
		}
		_, err = nscache.SetNX("key2id:"+k, tenant, 2*time.Hour, p)
		return err
	})
}

func runJob(id string, work func()) error {
	if _, err := nscache.SetNX("job-lock:"+id, "worker", time.Minute); err != nil { // want `only the error of`
		return err
	}
	work()
	return nil
}
