// Package demo is sample code for plugin/build_test.go, which runs a
// golangci-lint binary with a test-only linter, lockdemo, that reports
// calls of DelLock.
package demo

// DelLock stands for a DEL without an ownership check.
func DelLock(key string) error { return nil }

// ReleaseLock stands for the owner-checked release.
func ReleaseLock(key string) error { return nil }

func reported() {
	_ = DelLock("a")
}

func nolinted() {
	_ = DelLock("b") //nolint:lockdemo // test fixture
}

func ignored() {
	//locklint:ignore lockdemo test fixture
	_ = DelLock("c")
}

func otherNolint() {
	_ = DelLock("d") //nolint:errcheck // names another linter, so lockdemo still reports
}
