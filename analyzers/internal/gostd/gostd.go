// Package gostd tells whether a pass is over a package of the Go
// distribution. The fact-computing passes skip those: their thousands of
// functions would cost more to read than they tell, and what the rules
// need of them (time.AfterFunc, os.Exit) is listed by hand.
package gostd

import (
	"go/build"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
)

var goroot = filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)

// Contains reports whether the package's files are in GOROOT/src.
func Contains(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 || build.Default.GOROOT == "" {
		return false
	}
	return strings.HasPrefix(pass.Fset.Position(pass.Files[0].Pos()).Filename, goroot)
}
