package fence_test

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/alicebob/miniredis/v2"
	"github.com/locklint/locklint/safelock/fence"
	"github.com/redis/go-redis/v9"
	_ "modernc.org/sqlite"
)

// A lease with fence 33 lost its lock while paused; the next holder got
// fence 34 and wrote. The paused holder's late write is refused by the row,
// while the new holder can write again.
func ExampleTable_Update() {
	ctx := context.Background()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // each connection to :memory: is its own database
	_, err = db.Exec(`CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER, fence INTEGER, token TEXT);
		INSERT INTO accounts VALUES (1, 100, NULL, NULL)`)
	if err != nil {
		fmt.Println(err)
		return
	}

	accounts := fence.Table{Name: "accounts", IDColumn: "id", FenceColumn: "fence", TokenColumn: "token"}
	// In real code pass the *safelock.Lease itself.
	newHolder, oldHolder := fence.Of(34, "token-b"), fence.Of(33, "token-a")
	for _, w := range []struct {
		who     string
		g       fence.Grant
		balance int
	}{{"new holder", newHolder, 150}, {"paused old holder", oldHolder, 90}, {"new holder again", newHolder, 160}} {
		ok, err := accounts.Update(ctx, db, 1, w.g, fence.Set("balance", w.balance))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s (fence %d): accepted=%v\n", w.who, w.g.Fence(), ok)
	}
	var balance int
	if err := db.QueryRow(`SELECT balance FROM accounts WHERE id = 1`).Scan(&balance); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("balance", balance)
	// Output:
	// new holder (fence 34): accepted=true
	// paused old holder (fence 33): accepted=false
	// new holder again (fence 34): accepted=true
	// balance 160
}

func ExampleTable_Upsert() {
	ctx := context.Background()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE reports (day TEXT PRIMARY KEY, body TEXT, fence INTEGER, token TEXT)`); err != nil {
		fmt.Println(err)
		return
	}
	reports := fence.Table{Name: "reports", IDColumn: "day", FenceColumn: "fence", TokenColumn: "token"}
	for _, f := range []int64{7, 6} {
		g := fence.Of(f, fmt.Sprint("token-", f))
		ok, err := reports.Upsert(ctx, db, "2026-11-29", g, fence.Set("body", fmt.Sprint("written with fence ", f)))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("fence %d: accepted=%v\n", f, ok)
	}
	var body string
	if err := db.QueryRow(`SELECT body FROM reports`).Scan(&body); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(body)
	// Output:
	// fence 7: accepted=true
	// fence 6: accepted=false
	// written with fence 7
}

// The example runs on miniredis so that it needs no server; pass your own
// client (plain or cluster) in production.
func ExampleSetRedis() {
	m, err := miniredis.Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	client := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer client.Close()
	ctx := context.Background()

	// In real code pass the *safelock.Lease itself.
	for _, w := range []struct {
		g     fence.Grant
		value string
	}{{fence.Of(34, "token-b"), "from the new holder"}, {fence.Of(33, "token-a"), "late write from the paused holder"}} {
		ok, err := fence.SetRedis(ctx, client, "report:today", w.g, w.value)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("fence %d: accepted=%v\n", w.g.Fence(), ok)
	}
	fmt.Println(client.Get(ctx, "report:today").Val())
	// Output:
	// fence 34: accepted=true
	// fence 33: accepted=false
	// from the new holder
}
