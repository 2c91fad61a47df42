// Package bson is a stand-in for go.mongodb.org/mongo-driver/bson.
package bson

type M map[string]interface{}

type E struct {
	Key   string
	Value interface{}
}

type D []E
