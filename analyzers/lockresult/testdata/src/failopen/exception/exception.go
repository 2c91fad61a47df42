// Package exception is a project's error handlers, in a package of its
// own: the caller knows what they do only from facts.
package exception

import "log"

type ServerError struct{ Msg string }

// HandleServerError panics with the error, if there is one.
func HandleServerError(err error, msg string) {
	if err == nil {
		return
	}
	throw(msg, err)
}

func throw(msg string, err error) { panic(ServerError{Msg: msg + ": " + err.Error()}) }

// Report only logs.
func Report(err error, msg string) {
	if err != nil {
		log.Println(msg, err)
	}
}
