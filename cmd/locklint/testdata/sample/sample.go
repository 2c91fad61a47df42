// Package sample is code for the locklint command's tests, which run a
// test-only analyzer, lockdemo, that reports calls of DelLock.
package sample

// DelLock stands for a DEL without an ownership check.
func DelLock(key string) error { return nil }

// ReleaseLock stands for the owner-checked release.
func ReleaseLock(key string) error { return nil }

func plain() {
	_ = DelLock("a")
}

func wide() {
	_, _ = "ü😀", DelLock("b")
}

func ignored() {
	//locklint:ignore lockdemo the key is a test fixture
	_ = DelLock("c")
}

func noReason() {
	//locklint:ignore lockdemo
	_ = DelLock("d")
}
