package bench

import (
	"io"
	"strings"
)

func writeHTML(w io.Writer, rep *Report) error {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><meta charset=\"utf-8\"><title>lockbench</title></head><body><pre>")
	if err := rep.WriteText(&b); err != nil {
		return err
	}
	b.WriteString("</pre></body></html>")
	_, err := io.WriteString(w, b.String())
	return err
}
