package runsanyway

import (
	"context"
	"log"
	"net/http"
	"time"

	"runsanyway/cache"
)

// An idempotency middleware whose lock is behind the cache's interface:
// a Redis error lets the request through.
func Idempotency(ca cache.Cache, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		key := "idem:" + r.Header.Get("Idempotency-Key")
		locked, err := ca.Lock(ctx, key+":lock", 30*time.Second)
		if err != nil { // want `when Cache.Lock \(SetNX at cache.go:25\) fails \(err != nil\), this branch still runs next.ServeHTTP\(...\)`
			log.Printf("idempotency lock: %v", err)
			next.ServeHTTP(w, r)
			return
		}
		if !locked {
			http.Error(w, "in progress", http.StatusConflict)
			return
		}
		defer func() { _ = ca.Unlock(context.Background(), key+":lock") }()
		// The record moves from "pending" to the response: a record, not
		// a lock, so only its error matters.
		if _, err := ca.SetNX(ctx, key, "pending", 10*time.Minute); err != nil {
			log.Printf("pending: %v", err)
		}
		next.ServeHTTP(w, r)
		if err := ca.Set(ctx, key, w.Header().Get("X-Result"), 10*time.Minute); err != nil {
			_ = ca.Delete(ctx, key)
		}
	})
}

// A marker that nothing overwrites and the function deletes after taking
// it reads as a lock: checking only its error misses "held elsewhere".
func Marker(ca cache.Cache, job string, run func()) {
	ctx := context.Background()
	if _, err := ca.SetNX(ctx, "job:"+job, "running", time.Minute); err != nil { // want `only the error of Cache.SetNX \(SetNX at cache.go:33\) is checked`
		return
	}
	run()
	_ = ca.Delete(ctx, "job:"+job)
}
