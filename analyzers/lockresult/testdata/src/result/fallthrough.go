package result

import (
	"context"
	"database/sql"
	"log"
	"time"
)

var db *sql.DB

// The error branch only logs; the purge runs, and its own error reuses
// err: the ExecContext still runs without the lock.
func purge(ctx context.Context) error {
	ok, err := rdb.SetNX(ctx, "ops:purge", "1", 30*time.Minute).Result()
	if err != nil { // want `when SetNX of "ops:purge" fails \(err != nil\), this branch falls through into the code that needs the lock: db.ExecContext\(...\) runs without it`
		log.Printf("purge lock: %v", err)
	} else if !ok {
		return nil
	} else {
		defer rdb.Del(context.Background(), "ops:purge")
	}
	_, err = db.ExecContext(ctx, "TRUNCATE TABLE submits")
	return err
}

// Every failure stops; the work sits in the success branch.
func purgeInElse(ctx context.Context) error {
	ok, err := rdb.SetNX(ctx, "ops:purge2", "1", 30*time.Minute).Result()
	if err != nil {
		return err
	} else if !ok {
		return nil
	} else {
		defer rdb.Del(context.Background(), "ops:purge2")
	}
	_, err = db.ExecContext(ctx, "TRUNCATE TABLE submits")
	return err
}

// The error branch logs, but the work is inside the success branch.
func purgeWorkInElse(ctx context.Context) error {
	ok, err := rdb.SetNX(ctx, "ops:purge3", "1", 30*time.Minute).Result()
	if err != nil {
		log.Printf("purge lock: %v", err)
	} else if !ok {
		return nil
	} else {
		defer rdb.Del(context.Background(), "ops:purge3")
		_, err = db.ExecContext(ctx, "TRUNCATE TABLE submits")
	}
	return err
}

func retry(user string) {}

// A pending retry: on a Redis error the retry is scheduled anyway, by
// design. The key records scheduled work (the timer drops it when it
// fires), not a lock.
func scheduleRetry(ctx context.Context, user string) {
	key := "sync:pending_retry:" + user
	ok, err := rdb.SetNX(ctx, key, "1", 6*time.Minute).Result()
	if err != nil {
		log.Printf("schedule: %v", err)
	} else if !ok {
		return
	}
	if n, _ := rdb.Incr(ctx, key+":rounds").Result(); n > 10 {
		rdb.Del(ctx, key)
		return
	}
	time.AfterFunc(5*time.Minute, func() {
		rdb.Del(context.Background(), key)
		retry(user)
	})
}

// Near miss: the same shape on a key that names no scheduled work.
func syncUser(ctx context.Context, user string) {
	key := "sync:user:" + user
	ok, err := rdb.SetNX(ctx, key, "1", 6*time.Minute).Result()
	if err != nil { // want `when SetNX of key fails \(err != nil\), this branch falls through into the code that needs the lock`
		log.Printf("sync: %v", err)
	} else if !ok {
		return
	}
	if n, _ := rdb.Incr(ctx, key+":rounds").Result(); n > 10 {
		rdb.Del(ctx, key)
		return
	}
	time.AfterFunc(5*time.Minute, func() {
		rdb.Del(context.Background(), key)
		retry(user)
	})
}

func rehash(string) {}

func login(string) {}

// An error falls through to the test a refusal takes too; the success
// branch hands the lock to the work, which gives it back: what follows
// its if is what every non-holder runs, not the section.
func loginRehash(ctx context.Context, email string) {
	key := "lock:rehash:" + email
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil {
		log.Printf("rehash lock: %v", err)
	}
	if ok {
		go func() {
			defer rdb.Del(context.Background(), key)
			rehash(email)
		}()
	}
	login(email)
}

// The success branch neither returns nor gives the lock back: the work
// after it is the section, which a Redis error reaches without the lock.
func loginHeld(ctx context.Context, email string) {
	key := "lock:login:" + email
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil { // want `when SetNX of key fails \(err != nil\), this branch falls through into the code that needs the lock: login\(...\) runs without it`
		log.Printf("login lock: %v", err)
	}
	if ok {
		defer rdb.Del(context.Background(), key)
	}
	login(email)
}

// Both outcomes only log: the error and the refusal each fall through
// into the section. One finding (the acquire's outcome is acted on
// nowhere), reported once, at the acquire.
func checkStock(ctx context.Context, id string) {
	ok, err := rdb.SetNX(ctx, // want `when SetNX of "lock:stock:" \+ id fails, the error \(err != nil\) and the refusal \(!ok\) only fall through into the code that needs the lock: db.ExecContext\(...\) runs without it; stop on failure \(return, continue\)`
		"lock:stock:"+id,
		"1",
		3*time.Second).Result()
	if err != nil {
		log.Printf("stock lock: %v", err)
	} else if !ok {
		log.Printf("stock lock busy")
	}
	db.ExecContext(ctx, "UPDATE stock SET checked = now() WHERE id = $1", id)
}

// Near miss: only the refusal falls through (the error returns): one
// branch, reported at its test.
func checkStockErr(ctx context.Context, id string) {
	ok, err := rdb.SetNX(ctx,
		"lock:stock2:"+id,
		"1",
		3*time.Second).Result()
	if err != nil {
		return
	} else if !ok { // want `when SetNX of "lock:stock2:" \+ id fails \(!ok\), this branch falls through into the code that needs the lock: db.ExecContext\(...\) runs without it`
		log.Printf("stock lock busy")
	}
	db.ExecContext(ctx, "UPDATE stock SET checked = now() WHERE id = $1", id)
}
