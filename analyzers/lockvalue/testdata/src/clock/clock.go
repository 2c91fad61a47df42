// Package clock has the date helpers of many projects' util packages: a
// function of a time, and shortcuts that pass it time.Now().
package clock

import (
	"time"

	"github.com/google/uuid"
)

func UnixMillisOf(t time.Time) int64 { return t.UnixNano() / 1000000 }

func UnixMillis() int64 { return UnixMillisOf(time.Now()) } // want UnixMillis:`weak value: result 0 is a timestamp`

// Tagged adds a fresh uuid to what it is given: unique whatever the tag.
func Tagged(tag string) string { return tag + "-" + uuid.NewString() }

func Owner() string { return Tagged("worker") }

func Label(s string) string { return s }

func Fixed() string { return Label("worker") } // want Fixed:`weak value: result 0 is the constant "worker"`
