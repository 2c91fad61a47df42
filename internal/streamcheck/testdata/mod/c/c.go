package c

func MarkC() {}
