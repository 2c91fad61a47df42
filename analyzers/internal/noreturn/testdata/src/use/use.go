package use

import (
	"errors"
	"fmt"

	"exc"
)

func acquire() (bool, error) { return true, nil }

func calls() bool {
	exc.Throw("x", nil) // want "exits"
	exc.Rethrow(nil)    // want "exits"

	ok, err := acquire()
	if err != nil {
		exc.HandleError(err, "acquire") // want "exits"
	}
	if err == nil {
		_ = ok
	} else {
		exc.Check("acquire", err) // want "exits"
	}
	if ok && err != nil {
		new(exc.Handler).Fail(err) // want "exits"
	}
	exc.HandleError(errors.New("boom"), "x") // want "exits"
	h := new(exc.Handler)
	if err != nil {
		(*exc.Handler).Fail(h, err) // want "exits"
	}
	exc.Check("x", fmt.Errorf("boom: %w", err)) // want "exits"

	// Near misses: the error may be nil here.
	exc.HandleError(err, "unguarded")
	if err == nil {
		exc.Check("nil side", err)
	}
	if ok || err != nil {
		exc.Check("either", err)
	}
	if err != nil {
		func() { exc.Check("literal", err) }()
	}
	if h != nil {
		(*exc.Handler).Fail(h, err) // the receiver is tested, not the error
	}
	exc.HandleSome(err)
	exc.Logged(err)
	exc.Inverted(err)
	_ = exc.Must(acquire())
	return ok
}
