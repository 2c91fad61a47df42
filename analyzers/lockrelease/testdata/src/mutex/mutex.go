// Package mutex is shaped like a real project: the token is made in the
// constructor, Lock and Unlock live in different files, and their
// receivers have different names.
package mutex

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/redis/go-redis/v9"
)

type Mutex struct {
	client redis.UniversalClient
	key    string
	token  string
}

func New(client redis.UniversalClient, name string) *Mutex {
	b := make([]byte, 16)
	rand.Read(b)
	return &Mutex{client: client, key: "mutex:" + name, token: hex.EncodeToString(b)}
}
