// Package exc is a project's error helpers: some exit or panic, some only
// look as if they did.
package exc

import (
	"errors"
	"fmt"
	"log"
	"os"
)

type Exception struct{ Msg string }

// Never returns.

func Throw(msg string, err error) { // want Throw:"noreturn"
	panic(Exception{Msg: msg + ": " + err.Error()})
}

func Die(format string, args ...any) { // want Die:"noreturn"
	log.Printf(format, args...)
	os.Exit(1)
}

func Loop() { // want Loop:"noreturn"
	for {
		Die("again")
	}
}

// Through another helper of the package.
func Rethrow(err error) { // want Rethrow:"noreturn"
	Throw("rethrown", err)
}

// Does not return when the error is not nil.

func HandleError(err error, msg string) { // want HandleError:"noreturn\\(err 0\\)"
	if err == nil {
		return
	}
	Throw(msg, err)
}

func Check(msg string, err error) { // want Check:"noreturn\\(err 1\\)"
	if err != nil {
		log.Fatalf("%s: %v", msg, err)
	}
}

func Must[T any](v T, err error) T { // want Must:"noreturn\\(err 1\\)"
	if err != nil {
		panic(err)
	}
	return v
}

type Handler struct{ log *log.Logger }

func (h *Handler) Fail(err error) { // want Fail:"noreturn\\(err 0\\)"
	if err != nil && h.log != nil {
		h.log.Println(err)
	}
	if err != nil {
		panic(err)
	}
}

// Near misses: these return.

// Only some errors end the program.
func HandleSome(err error) {
	if errors.Is(err, os.ErrNotExist) {
		panic(err)
	}
}

// The error is replaced before the test.
func Wrapped(err error) {
	err = fmt.Errorf("wrapped: %w", err)
	if err != nil {
		log.Println(err)
		return
	}
	panic("unreachable")
}

// A Fatal that builds an event (zerolog) returns.
type event struct{}

func (event) Msg(string) {}

type logger struct{}

func (logger) Fatal() event { return event{} }

func Logged(err error) {
	if err != nil {
		logger{}.Fatal().Msg(err.Error())
	}
}

// Panics only on the nil side.
func Inverted(err error) {
	if err == nil {
		panic("no error")
	}
}
