// Package seats locks a table seat by number; leaving reads the number
// from the seat row, so the key is built from a field there.
package seats

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

type Seat struct {
	TableID, SeatNo int64
}

func take(ctx context.Context, tableID, seatNo int64, user string) error {
	lockKey := fmt.Sprintf("seat_lock:%d:%d", tableID, seatNo)
	ok, err := rdb.SetNX(ctx, lockKey, user, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	return nil
}

// leave deletes the seat's lock whoever holds it.
func leave(ctx context.Context, tableID int64, seat *Seat) {
	lockKey := fmt.Sprintf("seat_lock:%d:%d", tableID, seat.SeatNo)
	rdb.Del(ctx, lockKey) // want `lock lockKey is deleted with DEL without checking that this holder still owns it`
}

// A cached seat row under another prefix is no lock.
func forget(ctx context.Context, seat *Seat) {
	rdb.Del(ctx, fmt.Sprintf("seat:%d:%d", seat.TableID, seat.SeatNo))
}
