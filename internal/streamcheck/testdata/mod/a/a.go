package a

func MarkA() {}

func Plain() {}
