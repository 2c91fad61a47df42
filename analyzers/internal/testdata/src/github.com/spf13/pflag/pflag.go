// Package pflag is a stub of github.com/spf13/pflag: the flag
// definitions the analyzers read.
package pflag

func String(name, value, usage string) *string { return &value }

func StringP(name, shorthand, value, usage string) *string { return &value }

func Int(name string, value int, usage string) *int { return &value }

func Parse() {}
