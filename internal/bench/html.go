package bench

import "io"

// WriteHTML writes a self-contained HTML report.
func (rep *Report) WriteHTML(w io.Writer) error {
	return writeHTML(w, rep)
}
