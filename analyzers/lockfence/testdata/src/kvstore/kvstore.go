// Package kvstore is a project's Redis wrapper, in another package.
package kvstore

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb *redis.Client }

// Put keeps the value without expiry: a store of record.
func (s *Store) Put(ctx context.Context, key string, v any) error {
	return s.rdb.Set(ctx, key, v, 0).Err()
}

// PutFor keeps the value for ttl: taken for a cache.
func (s *Store) PutFor(ctx context.Context, key string, v any, ttl time.Duration) error {
	return s.rdb.Set(ctx, key, v, ttl).Err()
}

// GameStateStorage keeps each room's game state under a key it makes
// itself, for a few hours: the state of record, though it expires.
type GameStateStorage struct{ rdb *redis.Client }

type GameState struct {
	RoomID string
	Round  int
}

func (s *GameStateStorage) Save(ctx context.Context, st *GameState, ttl time.Duration) error {
	return s.rdb.Set(ctx, "game:state:"+st.RoomID, st.Round, ttl).Err()
}

// SessionStore keeps sessions with a TTL: not what a lock protects.
type SessionStore struct{ rdb *redis.Client }

func (s *SessionStore) Touch(ctx context.Context, userID string, ttl time.Duration) error {
	return s.rdb.Set(ctx, "sess:"+userID, 1, ttl).Err()
}

// MfaRepository keeps one-time codes for a few minutes: a credential
// kept like a session, not state a lock protects.
type MfaRepository struct{ rdb *redis.Client }

func (r *MfaRepository) SetMfaOtpByEmail(ctx context.Context, email, otp string) {
	r.rdb.Set(ctx, "mfa:otp:"+email, otp, 5*time.Minute)
}
