// Package gormigrate is a fake of github.com/go-gormigrate/gormigrate/v2
// for tests.
package gormigrate

import "gorm.io/gorm"

type Migration struct{ ID string }

type Options struct{}

var DefaultOptions = &Options{}

type Gormigrate struct{}

func New(db *gorm.DB, options *Options, migrations []*Migration) *Gormigrate { return &Gormigrate{} }

func (g *Gormigrate) Migrate() error              { return nil }
func (g *Gormigrate) MigrateTo(id string) error   { return nil }
func (g *Gormigrate) RollbackLast() error         { return nil }
func (g *Gormigrate) HasMigration(id string) bool { return false }
