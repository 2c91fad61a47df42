// Package ent is a fake of entgo.io/ent for tests: generated clients
// import it.
package ent

type Op uint
