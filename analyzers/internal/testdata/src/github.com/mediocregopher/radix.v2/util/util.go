// Package util is a stand-in for github.com/mediocregopher/radix.v2/util.
package util

import "github.com/mediocregopher/radix.v2/redis"

type Cmder interface {
	Cmd(cmd string, args ...interface{}) *redis.Resp
}

// LuaEval runs script with numKeys keys among keysAndArgs.
func LuaEval(c Cmder, script string, numKeys int, keysAndArgs ...interface{}) *redis.Resp {
	return c.Cmd("EVAL", script, numKeys)
}
