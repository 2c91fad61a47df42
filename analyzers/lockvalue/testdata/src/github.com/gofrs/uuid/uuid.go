// Package uuid is a minimal stand-in for github.com/gofrs/uuid.
package uuid

type UUID [16]byte

func NewV4() (UUID, error)    { return UUID{}, nil }
func (u UUID) String() string { return "" }
