package a

func del() {}

// Wrapper deletes through del, so it gets the fact.
func Wrapper() { del() }

// Outer deletes through Wrapper.
func Outer() { Wrapper() }

// Clean deletes nothing.
func Clean() {}
