// Package resultglobal holds a shared redsync handle and takes no lock.
package resultglobal

import "github.com/go-redsync/redsync/v4"

var RS *redsync.Redsync
