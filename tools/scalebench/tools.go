//go:build tools

// The modules the benchmark measures and builds, kept in go.mod.
package main

import (
	_ "github.com/locklint/locklint/analyzers/all"
	_ "github.com/zeromicro/go-zero/core/stores/redis"
)
