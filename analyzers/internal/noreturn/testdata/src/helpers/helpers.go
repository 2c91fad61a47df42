// Package helpers wraps another package's helpers; its facts come from
// the imported ones.
package helpers

import (
	"errors"

	"exc"
)

func Local(err error) { // want Local:"noreturn\\(err 0\\)"
	if err != nil {
		exc.Rethrow(err)
	}
}

func Always() { // want Always:"noreturn"
	exc.HandleError(errors.New("always"), "always")
}

// Near misses: the argument may be nil.

// A package variable is not known to be set.
var errFixed error

func Fixed() {
	exc.HandleError(errFixed, "fixed")
}

func Maybe(err error) {
	exc.HandleError(err, "maybe")
}
