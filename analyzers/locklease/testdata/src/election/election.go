// Package election elects a master with a key every node tries to set,
// and renews it from the master's loop.
package election

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/redis/go-redis/v9"

	"kvstore"
)

const masterKey = "cluster-master-lock"

type node struct {
	id       string
	isMaster bool
	rdb      *redis.Client
}

func (n *node) Launch() { go n.lifetime() }

func (n *node) lifetime() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for range t.C {
		if !n.isMaster {
			ok, err := kvstore.SetNX(masterKey, n.id, 3*time.Second)
			if err != nil {
				log.Print(err)
				continue
			}
			n.isMaster = ok
			continue
		}
		if err := n.updateMaster(); err != nil {
			log.Print("update master: ", err)
		}
	}
}

// The EXPIRE's reply (false: the key is gone, another node may be master)
// goes to a blank; only a network error reaches the loop, which only logs.
func (n *node) updateMaster() error {
	if _, err := kvstore.Expire(masterKey, 3*time.Second); err != nil { // want `keep-alive renews with`
		return err
	}
	return nil
}

var errLostMaster = errors.New("lost the master key")

// Near miss: the reply is kept and a key found gone is an error the
// loop acts on.
func (n *node) updateMasterChecked() error {
	ok, err := kvstore.Expire(masterKey, 3*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return errLostMaster
	}
	return nil
}

func (n *node) lifetimeChecked() {
	for range time.Tick(time.Second) {
		if n.isMaster {
			if err := n.updateMasterChecked(); err != nil {
				n.isMaster = false
			}
		}
	}
}

func (n *node) LaunchChecked() { go n.lifetimeChecked() }

// A direct renewal in a goroutine that hands on only the error: the same.
func (n *node) keepAlive(ctx context.Context, key string, errs chan<- error) {
	go func() {
		for ctx.Err() == nil {
			time.Sleep(time.Second)
			if _, err := n.rdb.Expire(ctx, key, 3*time.Second).Result(); err != nil { // want `keep-alive renews with`
				errs <- err
				return
			}
		}
	}()
}

func (n *node) acquire(ctx context.Context, key string, errs chan<- error) bool {
	ok, _ := n.rdb.SetNX(ctx, key, n.id, 3*time.Second).Result()
	if ok {
		n.keepAlive(ctx, key, errs)
	}
	return ok
}
