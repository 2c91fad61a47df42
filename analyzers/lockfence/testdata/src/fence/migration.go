package fence

import (
	"context"
	"time"

	"github.com/go-gormigrate/gormigrate/v2"
	"gorm.io/gorm"

	"shopent/migrate"
)

// A lock that keeps two instances from migrating at once guards the
// migration: a holder whose lease lapsed goes on creating and altering
// tables beside the next one. Neither ent's Schema.Create nor
// gormigrate's Migrate locks anything itself.

func migrateEnt(ctx context.Context, s *migrate.Schema) error {
	lock, err := rl.Obtain(ctx, "init_database_lock", time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return s.Create(ctx) // want `ent Schema.Create under lock "init_database_lock" \(redislock Client.Obtain\) carries no fencing token`
}

func migrateGorm(ctx context.Context, db *gorm.DB) error {
	lock, err := rl.Obtain(ctx, "migrations_lock", time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	m := gormigrate.New(db, gormigrate.DefaultOptions, nil)
	return m.Migrate() // want `gormigrate Gormigrate.Migrate under lock "migrations_lock" \(redislock Client.Obtain\) carries no fencing token`
}

// Near misses: a method named Create of another generated type, and
// gormigrate's read-only HasMigration.
func planOnly(ctx context.Context, p *migrate.Plan, db *gorm.DB) error {
	lock, err := rl.Obtain(ctx, "plan_lock", time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if gormigrate.New(db, gormigrate.DefaultOptions, nil).HasMigration("x") {
		return nil
	}
	return p.Create(ctx)
}
