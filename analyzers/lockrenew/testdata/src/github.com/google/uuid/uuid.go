// Package uuid is a minimal stand-in for github.com/google/uuid.
package uuid

func NewString() string { return "" }
