package b

import "facts/a"

func F() {
	a.Wrapper() // want `call of a.Wrapper, which deletes`
	a.Outer()   // want `call of a.Outer, which deletes`
	a.Clean()
	//locklint:ignore uses deleting on purpose
	a.Outer()
}
