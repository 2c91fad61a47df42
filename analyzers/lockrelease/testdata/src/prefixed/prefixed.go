// Package prefixed wraps redigo in helpers that put the application's
// prefix before every key; the lock helpers add their own prefix.
package prefixed

import (
	"crypto/rand"
	"encoding/hex"
	"errors"

	"github.com/gomodule/redigo/redis"
)

const keyPrefix = "app_"
const lockPrefix = "lock_"

type Conn struct{ c redis.Conn }

func (v *Conn) Get(key string) ([]byte, error) {
	return redis.Bytes(v.c.Do("GET", keyPrefix+key))
}

func (v *Conn) Del(key string) (interface{}, error) {
	return v.c.Do("DEL", keyPrefix+key)
}

func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Lock writes app_lock_<key>: the constants fold into one.
func (v *Conn) Lock(key string) (string, error) {
	id := newID()
	ret, err := v.c.Do("SET", keyPrefix+lockPrefix+key, id, "NX", "EX", 30)
	if err != nil {
		return "", err
	}
	if ret == nil {
		return "", errors.New("held")
	}
	return id, nil
}

// Unlock reads and deletes app_lock_<key> through the helpers, whose
// prefix joins the one passed in.
func (v *Conn) Unlock(key, id string) error {
	val, err := v.Get(lockPrefix + key)
	if err != nil {
		return err
	}
	if string(val) != id {
		return errors.New("not the owner")
	}
	_, err = v.Del(lockPrefix + key) // want `is read with GET and then deleted with a separate DEL`
	return err
}

// DropSession compares and deletes app_session_<key>, which no lock
// writes.
func (v *Conn) DropSession(key, id string) error {
	val, err := v.Get("session_" + key)
	if err != nil {
		return err
	}
	if string(val) != id {
		return errors.New("not the owner")
	}
	_, err = v.Del("session_" + key)
	return err
}
