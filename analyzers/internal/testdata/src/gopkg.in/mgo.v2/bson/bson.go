// Package bson is a stand-in for gopkg.in/mgo.v2/bson.
package bson

type M map[string]interface{}
