package locklib

import "testing"

// TestLibPaths: rueidislock under every module path rueidis has had, and
// its valkey-go fork, are one library.
func TestLibPaths(t *testing.T) {
	for path, want := range map[string]Lib{
		RueidislockPath:                         Rueidislock,
		"github.com/rueian/rueidis/rueidislock": Rueidislock, // before v1
		ValkeylockPath:                          Rueidislock,
		"github.com/rueian/rueidis":             0,
	} {
		if got := libOf(path); got != want {
			t.Errorf("%s: got %v, want %v", path, got, want)
		}
	}
}
