package cmds

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const claimScript = `if redis.call("SETNX", KEYS[1], ARGV[1]) == 1 then redis.call("EXPIRE", KEYS[1], ARGV[2]) return 1 end return 0`

// loadSHA loads the script it is given and returns its SHA1.
func loadSHA(ctx context.Context, rdb *redis.Client, src string) (string, error) {
	s := redis.NewScript(src)
	res := s.Load(ctx, rdb)
	if res.Err() != nil {
		return "", res.Err()
	}
	return res.Val(), nil
}

// reverse takes a string it does not load.
func reverse(ctx context.Context, rdb *redis.Client, src string) (string, error) {
	return src + "!", nil
}

type registry struct {
	rdb            *redis.Client
	claimSHA       string
	otherSHA       string
	twoScriptsSHA  string
}

func newRegistry(ctx context.Context, rdb *redis.Client, other string) (*registry, error) {
	sha, err := loadSHA(ctx, rdb, claimScript)
	if err != nil {
		return nil, err
	}
	rev, _ := reverse(ctx, rdb, claimScript)
	r := &registry{rdb: rdb, claimSHA: sha, otherSHA: rev}
	r.twoScriptsSHA = sha
	if other != "" {
		r.twoScriptsSHA = rdb.ScriptLoad(ctx, `return redis.call("del", KEYS[1])`).Val()
	}
	return r, nil
}

func (r *registry) claim(ctx context.Context, k, v string) {
	r.rdb.EvalSha(ctx, r.claimSHA, []string{k}, v, 10)      // want `^go-redis EVALSHA key=k script\(.*\)$`
	r.rdb.EvalSha(ctx, r.otherSHA, []string{k}, v, 10)      // want `^go-redis EVALSHA key=k$`
	r.rdb.EvalSha(ctx, r.twoScriptsSHA, []string{k}, v, 10) // want `^go-redis EVALSHA key=k$`
}
