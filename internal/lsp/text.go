package lsp

import (
	"unicode/utf16"
	"unicode/utf8"
)

// text is a file's content as the analysis saw it, for turning byte
// positions into LSP positions (lines from 0, characters in UTF-16 code
// units) and back.
type text struct {
	src   []byte
	lines []int // byte offset of each line's start
}

func newText(src []byte) *text {
	t := &text{src: src, lines: []int{0}}
	for i, b := range src {
		if b == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// at converts a 1-based line and 1-based byte column (go/token) to an LSP
// position; out-of-range input is clamped.
func (t *text) at(line, col int) position {
	if line < 1 {
		return position{}
	}
	if line > len(t.lines) {
		line = len(t.lines)
	}
	start := t.lines[line-1]
	return t.offset(min(start+max(col-1, 0), t.lineEnd(line-1)))
}

// offset converts a byte offset to an LSP position.
func (t *text) offset(off int) position {
	off = max(0, min(off, len(t.src)))
	line := 0
	lo, hi := 0, len(t.lines)-1
	for lo <= hi { // the last line start <= off
		mid := (lo + hi) / 2
		if t.lines[mid] <= off {
			line, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	n := 0
	for b := t.src[t.lines[line]:off]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		n += utf16.RuneLen(r) // an invalid byte decodes to U+FFFD: one unit
		b = b[size:]
	}
	return position{Line: line, Character: n}
}

// lineEnd is the offset of the end of line i (0-based), before its newline.
func (t *text) lineEnd(i int) int {
	if i+1 < len(t.lines) {
		return t.lines[i+1] - 1
	}
	return len(t.src)
}

// lineStart returns the offset of line i's start (0-based) and its
// leading white space.
func (t *text) lineStart(i int) (int, string) {
	if i < 0 || i >= len(t.lines) {
		return len(t.src), ""
	}
	start := t.lines[i]
	end := start
	for end < len(t.src) && (t.src[end] == ' ' || t.src[end] == '\t') {
		end++
	}
	return start, string(t.src[start:end])
}
