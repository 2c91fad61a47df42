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
