// Package adapters puts every compared lock library behind bench.Locker,
// one file per library. Each adapter keeps the library's own acquire,
// release and waiting behaviour (retry delays included), because that is
// what a user of the library gets; where a library needs a choice the
// adapter documents it.
package adapters

import (
	"time"

	"github.com/locklint/locklint/internal/bench"
)

// pollInterval is the retry delay for the libraries whose waiting the user
// chooses (naive loops, bsm/redislock's RetryStrategy).
const pollInterval = 5 * time.Millisecond

// All returns every implementation lockbench can compare, in report order.
func All() []bench.Factory {
	return []bench.Factory{
		Safelock,
		SafelockFair,
		Minimal,
		Naive,
		Redsync,
		Redislock,
		Rueidislock,
	}
}
