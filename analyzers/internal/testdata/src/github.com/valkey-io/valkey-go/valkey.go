// Package valkey is a minimal stand-in for github.com/valkey-io/valkey-go,
// rueidis's fork.
package valkey

import (
	"context"

	"github.com/valkey-io/valkey-go/internal/cmds"
)

type Completed = cmds.Completed

type ValkeyResult struct{}

func (r ValkeyResult) Error() error                  { return nil }
func (r ValkeyResult) AsStrSlice() ([]string, error) { return nil, nil }

type Client interface {
	B() cmds.Builder
	Do(ctx context.Context, cmd Completed) ValkeyResult
	Close()
}
