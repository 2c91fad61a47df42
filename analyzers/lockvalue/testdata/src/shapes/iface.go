package shapes

import (
	"context"
	"time"
)

// Ticket has one implementation in the package: its Holder is the value.
type Ticket interface{ Holder() string }

type ticket struct{ id string }

func (t *ticket) Holder() string { return "worker" } // want Holder:`weak value: result 0 is the constant "worker"` `lock "lock:run" stores the constant "worker" as its value`

func RunTicket(ctx context.Context, tk Ticket) {
	if !rdb.SetNX(ctx, "lock:run", tk.Holder(), time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:run")
}

// Owner has two implementations: which one runs is the caller's choice.
type Owner interface{ OwnerID() string }

type fixedOwner struct{}

func (fixedOwner) OwnerID() string { return "fixed" } // want OwnerID:`weak value: result 0 is the constant "fixed"`

type randomOwner struct{ id string }

func newRandomOwner(id string) randomOwner { return randomOwner{id: id} }

func (r randomOwner) OwnerID() string { return r.id }

func RunOwner(ctx context.Context, o Owner) {
	if !rdb.SetNX(ctx, "lock:owner", o.OwnerID(), time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:owner")
}
