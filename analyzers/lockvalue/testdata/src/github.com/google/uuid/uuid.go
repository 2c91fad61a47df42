// Package uuid is a minimal stand-in for github.com/google/uuid.
package uuid

type UUID [16]byte

func New() UUID               { return UUID{} }
func NewString() string       { return "" }
func (u UUID) String() string { return "" }
