package b

import "example.com/mod/a"

func MarkB() {}

func Use() {
	a.MarkA()
	a.Plain()
	MarkB()
}
