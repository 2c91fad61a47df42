package redismodel_test

import (
	"fmt"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzers/internal/redismodel"
	"github.com/locklint/locklint/analyzers/internal/testutil"
)

var units = map[redismodel.Unit]string{
	redismodel.UnitDuration: "duration", redismodel.UnitSeconds: "s", redismodel.UnitMillis: "ms",
	redismodel.UnitUnixSeconds: "unix-s", redismodel.UnitUnixMillis: "unix-ms", redismodel.UnitTime: "time",
}

// describe renders a command compactly for // want comments.
func describe(c *redismodel.Command) string {
	parts := []string{c.Client.String(), c.Name}
	for _, k := range c.Keys {
		parts = append(parts, "key="+types.ExprString(k))
	}
	if c.Value != nil {
		parts = append(parts, "value="+types.ExprString(c.Value))
	}
	o := c.Opts
	for _, f := range []struct {
		on   bool
		name string
	}{{o.NX, "NX"}, {o.XX, "XX"}, {o.Get, "GET"}, {o.KeepTTL, "KEEPTTL"}, {o.IfEq != nil, "IFEQ"}, {o.IfNe != nil, "IFNE"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	if o.Cond != "" {
		parts = append(parts, "cond="+o.Cond)
	}
	if c.TTL != nil {
		parts = append(parts, fmt.Sprintf("ttl=%s/%s", types.ExprString(c.TTL), units[c.Unit]))
	}
	if c.NoExpiry() {
		parts = append(parts, "noexpiry")
	}
	if c.Script != nil {
		del, checked := c.Script.Deletes(1)
		parts = append(parts, fmt.Sprintf("script(del=%v,checked=%v)", del, checked))
	}
	in := c.In
	for _, f := range []struct {
		on   bool
		name string
	}{{in.Multi, "multi"}, {in.Pipeline, "pipeline"}, {in.Watch != nil, "watch"}, {in.InDefer, "defer"}, {in.InGo, "go"}, {c.Partial, "partial"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, " ")
}

var dump = &analysis.Analyzer{
	Name: "cmds",
	Doc:  "reports every Redis command the model sees",
	Run: func(pass *analysis.Pass) (any, error) {
		redismodel.Scan(pass, redismodel.ScanOptions{}, func(c redismodel.Call) {
			if c.Cmd != nil {
				pass.Reportf(c.Call.Pos(), "%s", describe(c.Cmd))
			}
		})
		return nil, nil
	},
}

func TestCommands(t *testing.T) {
	analysistest.Run(t, testutil.GOPATH(t, "testdata"), dump, "cmds")
}
