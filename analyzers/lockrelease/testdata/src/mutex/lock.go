package mutex

import (
	"context"
	"time"
)

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.client.SetNX(ctx, m.key, m.token, 30*time.Second).Result()
}
