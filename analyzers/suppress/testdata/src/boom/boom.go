package boom

func f() {}
