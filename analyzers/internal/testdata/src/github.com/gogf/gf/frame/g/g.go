// Package g is a stub of GoFrame v1's frame/g for locklint's tests.
package g

import "github.com/gogf/gf/database/gredis"

func Redis(name ...string) *gredis.Redis { return &gredis.Redis{} }
