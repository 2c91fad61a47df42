// Package tokens refreshes OAuth tokens: nothing here is a lock.
package tokens

import "context"

type Manager interface {
	Refresh(ctx context.Context, account string) error
}
