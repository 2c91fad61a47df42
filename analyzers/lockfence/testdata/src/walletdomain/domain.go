// Package walletdomain declares the repository the use cases call; its
// implementation lives beside each use case.
package walletdomain

import "context"

type Wallet struct {
	ID      string
	Balance int64
}

type Repository interface {
	Get(ctx context.Context, id string) (*Wallet, error)
	SaveBalance(ctx context.Context, w Wallet) error
}
