// Package schema is a fake of entgo.io/ent/dialect/sql/schema for tests:
// ent's generated migrate package imports it.
package schema

type MigrateOption func()

func WithDropColumn(b bool) MigrateOption { return nil }
