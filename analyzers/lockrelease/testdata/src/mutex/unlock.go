package mutex

import "context"

func (mu *Mutex) Unlock(ctx context.Context) error {
	if err := mu.client.Del(ctx, mu.key).Err(); err != nil { // want `lock mu.key is deleted with DEL without checking`
		return err
	}
	return nil
}
