// Package unitsconf holds settings another package passes to Redis.
package unitsconf

import "time"

// LockTTL was meant as seconds.
const LockTTL = 30

// RenewEvery has its unit.
const RenewEvery = 10 * time.Second

// CacheTTL is typed: locklint cannot see how it was written, so it trusts it.
const CacheTTL time.Duration = 300
