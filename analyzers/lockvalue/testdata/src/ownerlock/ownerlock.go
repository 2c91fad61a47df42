// Package ownerlock is a project's lock package whose constructors take
// the lock value from their callers.
package ownerlock

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// Locker stores the holder its constructor was given.
type Locker struct {
	rdb    redis.Cmdable
	holder string
}

func NewLocker(rdb redis.Cmdable, holder string) *Locker { // want NewLocker:`lock value from parameters \[1\]`
	return &Locker{rdb: rdb, holder: holder}
}

// WithHolder sets the holder too.
func (l *Locker) WithHolder(holder string) *Locker { // want WithHolder:`lock value from parameters \[0\]`
	l.holder = holder
	return l
}

func (l *Locker) Lock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, key, l.holder, ttl).Result()
}

func (l *Locker) Unlock(ctx context.Context, key string) error {
	return release.Run(ctx, l.rdb, []string{key}, l.holder).Err()
}

// Mutex takes its name from the caller but makes a token for every
// acquisition: the name is only the key.
type Mutex struct {
	rdb   redis.Cmdable
	name  string
	token string
}

func NewMutex(rdb redis.Cmdable, name string) *Mutex { return &Mutex{rdb: rdb, name: name} }

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	m.token = newToken()
	return m.rdb.SetNX(ctx, "lock:"+m.name, m.token, time.Minute).Result()
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return release.Run(ctx, m.rdb, []string{"lock:" + m.name}, m.token).Err()
}

func newToken() string { return randomString() }

// Marker keeps a value it never releases: a deduplication marker, not a
// lock, so its value does not matter.
type Marker struct {
	rdb   redis.Cmdable
	value string
}

func NewMarker(rdb redis.Cmdable, value string) *Marker { return &Marker{rdb: rdb, value: value} }

func (m *Marker) Mark(ctx context.Context, id string) (bool, error) {
	return m.rdb.SetNX(ctx, "seen:"+id, m.value, time.Hour).Result()
}

// Fresh is given a value by its constructor, but Lock replaces it with a
// token of its own before it acquires.
type Fresh struct {
	rdb   redis.Cmdable
	value string
}

func NewFresh(rdb redis.Cmdable, value string) *Fresh { return &Fresh{rdb: rdb, value: value} }

func (f *Fresh) Lock(ctx context.Context, key string) (bool, error) {
	f.value = newToken()
	return f.rdb.SetNX(ctx, key, f.value, time.Minute).Result()
}

func (f *Fresh) Unlock(ctx context.Context, key string) error {
	return release.Run(ctx, f.rdb, []string{key}, f.value).Err()
}

// Campaign keeps the identity its constructor was given and starts the
// loop that takes the lock with it: every acquisition stores that value.
type Campaign struct {
	rdb *redis.Client
	key string
	id  string
}

func NewCampaign(rdb *redis.Client, key, id string) *Campaign { // want NewCampaign:`lock value from parameters \[2\]`
	c := &Campaign{rdb: rdb, key: key, id: id}
	go c.loop()
	return c
}

func (c *Campaign) loop() {
	for range time.Tick(time.Second) {
		ctx := context.Background()
		if ok, err := c.rdb.SetNX(ctx, c.key, c.id, 3*time.Second).Result(); err == nil && ok {
			_ = release.Run(ctx, c.rdb, []string{c.key}, c.id).Err()
		}
	}
}

// Taken takes the lock in its constructor with the value it is given:
// the value may be made for this acquisition, so it is the caller's.
type Taken struct {
	rdb   *redis.Client
	value string
}

func NewTaken(ctx context.Context, rdb *redis.Client, value string) (*Taken, error) {
	t := &Taken{rdb: rdb, value: value}
	if err := t.rdb.SetNX(ctx, "taken", t.value, time.Minute).Err(); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Taken) Release(ctx context.Context) error {
	return release.Run(ctx, t.rdb, []string{"taken"}, t.value).Err()
}

// ScriptLock takes its key in a Lua script that sets it where a GET found
// it absent, with the value its constructor was given: an acquire as SET
// NX is.
type ScriptLock struct {
	rdb   *redis.Client
	key   string
	value string
}

func NewScriptLock(rdb *redis.Client, key, value string) *ScriptLock { // want NewScriptLock:`lock value from parameters \[2\]`
	return &ScriptLock{rdb: rdb, key: key, value: value}
}

func (l *ScriptLock) TryLock(ctx context.Context) bool {
	script := redis.NewScript(`
		if redis.call("GET", KEYS[1]) == false then
			redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2])
			return 1
		else
			return 0
		end`)
	n, err := script.Run(ctx, l.rdb, []string{l.key}, l.value, 10).Int()
	return err == nil && n == 1
}

func (l *ScriptLock) Unlock(ctx context.Context) error {
	return release.Run(ctx, l.rdb, []string{l.key}, l.value).Err()
}

// Near miss: the script sets the key only where the GET found it
// present, a refresh of a key someone else took: nothing here acquires.
type Refresher struct {
	rdb   *redis.Client
	key   string
	value string
}

func NewRefresher(rdb *redis.Client, key, value string) *Refresher {
	return &Refresher{rdb: rdb, key: key, value: value}
}

func (r *Refresher) Touch(ctx context.Context) bool {
	script := redis.NewScript(`
		if redis.call("GET", KEYS[1]) ~= false then
			redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2])
			return 1
		end
		return 0`)
	n, err := script.Run(ctx, r.rdb, []string{r.key}, r.value, 10).Int()
	return err == nil && n == 1
}

func (r *Refresher) Forget(ctx context.Context) error {
	return release.Run(ctx, r.rdb, []string{r.key}, r.value).Err()
}
