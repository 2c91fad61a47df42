// Package clause is a minimal stand-in for gorm.io/gorm/clause.
package clause

// Expression is a clause of a statement.
type Expression interface{}

// Table names a table in a clause.
type Table struct{ Name string }

// Locking is the locking clause of a SELECT (FOR UPDATE, FOR SHARE).
type Locking struct {
	Strength string
	Table    Table
	Options  string
}
