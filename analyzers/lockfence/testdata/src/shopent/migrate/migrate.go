// Package migrate stands for ent's generated migrate package.
package migrate

import (
	"context"

	"entgo.io/ent/dialect/sql/schema"
)

type Schema struct{}

func (s *Schema) Create(ctx context.Context, opts ...schema.MigrateOption) error { return nil }

// A type of another name with a Create method is not the migration.
type Plan struct{}

func (p *Plan) Create(ctx context.Context) error { return nil }
