// Package zap is a stub of go.uber.org/zap for tests: a structured
// logger whose fields are built by calls (zap.Error(err)).
package zap

type Field struct {
	Key string
	Val any
}

func Error(err error) Field     { return Field{Key: "error", Val: err} }
func String(k, v string) Field  { return Field{Key: k, Val: v} }
func Any(k string, v any) Field { return Field{Key: k, Val: v} }

type Logger struct{}

func L() *Logger                                  { return &Logger{} }
func (*Logger) Error(msg string, fields ...Field) {}
func (*Logger) Warn(msg string, fields ...Field)  {}
func (*Logger) Info(msg string, fields ...Field)  {}
