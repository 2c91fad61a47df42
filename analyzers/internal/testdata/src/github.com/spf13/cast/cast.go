// Package cast is a stub of github.com/spf13/cast for the analyzers' tests.
package cast

// ToInt64 converts i to an int64, 0 when it cannot.
func ToInt64(i interface{}) int64 {
	n, _ := i.(int64)
	return n
}
