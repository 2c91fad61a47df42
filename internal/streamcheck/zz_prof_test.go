package streamcheck

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/analyzers/all"
	"github.com/locklint/locklint/analyzers/suppress"
)

func TestFactCounts(t *testing.T) {
	dir := os.Getenv("STREAMCHECK_DIR")
	if dir == "" {
		t.Skip()
	}
	lcfg := &packages.Config{Dir: dir, Tests: true, Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports | packages.NeedDeps | packages.NeedTypesSizes}
	roots, err := packages.Load(lcfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	r := newRun(suppress.Wrap(all.Analyzers()), roots)
	r.analyse(context.Background())
	count := map[string]int{}
	pkgsWith := map[string]map[string]bool{}
	for k := range r.facts.objs {
		n := k.a.Name + " " + k.t.String() + fmt.Sprintf(" exported=%v", k.obj.Exported())
		count[n]++
		if pkgsWith[n] == nil {
			pkgsWith[n] = map[string]bool{}
		}
		pkgsWith[n][k.obj.Pkg().Path()] = true
	}
	for k := range r.facts.pkgs {
		n := k.a.Name + " pkg " + k.t.String()
		count[n]++
	}
	for n, c := range count {
		fmt.Println(n, c, len(pkgsWith[n]))
	}
	_ = reflect.TypeOf
	fmt.Println("units", len(r.order))
}
