package safelock

import "time"

// expiring is a map whose entries are dropped ttl after they were put.
// Entries expire in the order they were put, so dropping them costs
// amortized O(1) per put, however many there are: a busy queue leaves a
// notifier thousands of departed waiters to remember.
type expiring[V any] struct {
	ttl   time.Duration
	items map[string]expiringItem[V]
	order []expiringKey // oldest first
}

type expiringItem[V any] struct {
	v     V
	until time.Time
}

type expiringKey struct {
	key   string
	until time.Time
}

func newExpiring[V any](ttl time.Duration) *expiring[V] {
	return &expiring[V]{ttl: ttl, items: make(map[string]expiringItem[V])}
}

// put adds or replaces key, to be dropped ttl after now, and drops what
// expired by now.
func (e *expiring[V]) put(now time.Time, key string, v V) {
	e.expire(now)
	until := now.Add(e.ttl)
	e.items[key] = expiringItem[V]{v: v, until: until}
	e.order = append(e.order, expiringKey{key: key, until: until})
}

// take removes key and returns its value, if it is there.
func (e *expiring[V]) take(key string) (V, bool) {
	it, ok := e.items[key]
	if ok {
		delete(e.items, key)
	}
	return it.v, ok
}

// expire drops the entries whose time passed before now.
func (e *expiring[V]) expire(now time.Time) {
	n := 0
	for ; n < len(e.order) && now.After(e.order[n].until); n++ {
		k := e.order[n]
		// A key put again since has a later time: keep it.
		if it, ok := e.items[k.key]; ok && it.until.Equal(k.until) {
			delete(e.items, k.key)
		}
	}
	e.order = e.order[n:]
}

func (e *expiring[V]) len() int { return len(e.items) }
