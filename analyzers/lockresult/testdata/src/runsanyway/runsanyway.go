// Package runsanyway: on a Redis error the failure branch runs the very
// work the lock guards, so every caller gets in at once.
package runsanyway

import (
	"context"
	"log"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

type Guard struct{ rdb *redis.Client }

// A request lock in middleware that lets the request through when Redis
// fails.
func (g *Guard) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := "lock:req:" + r.Header.Get("Idempotency-Key")
		ok, err := g.rdb.SetNX(r.Context(), key, "1", 30*time.Second).Result()
		if err != nil { // want `when SetNX of key fails \(err != nil\), this branch still runs next.ServeHTTP\(...\), the work the lock guards on success, without the lock`
			log.Printf("lock: %v", err)
			next.ServeHTTP(w, r)
			return
		}
		if !ok {
			http.Error(w, "duplicate request", http.StatusConflict)
			return
		}
		defer g.rdb.Del(context.Background(), key)
		next.ServeHTTP(w, r)
	})
}

// A callback run under the lock, and run anyway on an error.
func (g *Guard) WithLock(ctx context.Context, job string, fn func(context.Context) error) error {
	token := job + "-owner"
	ok, err := g.rdb.SetNX(ctx, "lock:job:"+job, token, time.Minute).Result()
	if err != nil { // want `when SetNX of "lock:job:" \+ job fails \(err != nil\), this branch still runs fn\(...\)`
		log.Printf("redis down, running %s unlocked: %v", job, err)
		return fn(ctx)
	}
	if !ok {
		return nil
	}
	defer release(ctx, g.rdb, "lock:job:"+job, token)
	return fn(ctx)
}

func release(ctx context.Context, rdb *redis.Client, key, token string) {
	rdb.Eval(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, []string{key}, token)
}

// Near misses: the failure branch answers the request with an error (the
// same ResponseWriter method as the held path is not the work), calls a
// fallback handed in for that case, or calls a local helper that both
// paths share.
func (g *Guard) Strict(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := "lock:strict:" + r.URL.Path
		token := r.Header.Get("X-Request-Id") + "-strict"
		ok, err := g.rdb.SetNX(r.Context(), key, token, 30*time.Second).Result()
		if err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if !ok {
			w.WriteHeader(http.StatusConflict)
			return
		}
		defer release(context.Background(), g.rdb, key, token)
		next.ServeHTTP(w, r)
		w.WriteHeader(http.StatusOK)
	})
}

func (g *Guard) WithFallback(ctx context.Context, job string, fn, fallback func(context.Context) error) error {
	token := job + "-fallback"
	ok, err := g.rdb.SetNX(ctx, "lock:fb:"+job, token, time.Minute).Result()
	if err != nil {
		return fallback(ctx)
	}
	if !ok {
		return nil
	}
	defer release(ctx, g.rdb, "lock:fb:"+job, token)
	return fn(ctx)
}

func (g *Guard) Report(ctx context.Context, job string, fn func(context.Context) error) error {
	token := job + "-report"
	finish := func(err error) error {
		log.Printf("job %s: %v", job, err)
		return err
	}
	ok, err := g.rdb.SetNX(ctx, "lock:report:"+job, token, time.Minute).Result()
	if err != nil {
		return finish(err)
	}
	if !ok {
		return nil
	}
	defer release(ctx, g.rdb, "lock:report:"+job, token)
	return finish(fn(ctx))
}
