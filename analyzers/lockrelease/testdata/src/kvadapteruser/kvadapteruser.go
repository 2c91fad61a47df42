// Package kvadapteruser takes a processing lock through kvadapter, keyed
// by a configured lock prefix, and releases it in other methods from the
// id it kept in a struct.
package kvadapteruser

import (
	"errors"
	"time"

	"kvadapter"
)

type Config struct {
	LockKeyPrefix string
	KeyPrefix     string
}

type Service struct {
	kv  kvadapter.Adapter
	cfg Config
}

type Work struct{ ID string }

type User struct{ Email string }

func token() []byte { return []byte(time.Now().String()) }

func (s *Service) AcquireProcessingLock(id string) (*Work, error) {
	ok, err := s.kv.SetNX(s.cfg.LockKeyPrefix+id, token(), 30*time.Second)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("busy")
	}
	return &Work{ID: id}, nil
}

func (s *Service) ReleaseLock(w *Work) error {
	return s.kv.Del(s.cfg.LockKeyPrefix + w.ID) // want `is deleted with DEL \(in Adapter.Del at kvadapter.go:\d+\) without checking that this holder still owns it`
}

// MarkFailure copies the id into a local first.
func (s *Service) MarkFailure(w *Work) error {
	id := w.ID
	key := s.cfg.LockKeyPrefix + id
	return s.kv.Del(key) // want `is deleted with DEL \(in Adapter.Del at kvadapter.go:\d+\) without checking that this holder still owns it`
}

func (s *Service) LockOrder(id string) error {
	ok, err := s.kv.SetNX(s.cfg.KeyPrefix+id, token(), 30*time.Second)
	if err != nil || !ok {
		return err
	}
	defer s.kv.Del(s.cfg.KeyPrefix + id) // want `is deleted with DEL \(in Adapter.Del at kvadapter.go:\d+\) without checking that this holder still owns it`
	return nil
}

// Near miss: a prefix whose name does not speak of locks does not make a
// user's email the id of the order lock above.
func (s *Service) DropUser(u *User) error {
	return s.kv.Del(s.cfg.KeyPrefix + u.Email)
}
