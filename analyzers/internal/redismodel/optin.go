package redismodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ClientDirective marks a project's own interface as a go-redis client:
//
//	//locklint:client go-redis
//	type KV interface {
//		SetNX(ctx context.Context, key string, v any, ttl time.Duration) (bool, error)
//		Expire(ctx context.Context, key string, ttl time.Duration) error
//	}
//
// Calls of its methods are then read like go-redis methods of the same
// name and parameters, wherever the implementation lives.
const ClientDirective = "//locklint:client go-redis"

// ClientInterfaces returns the interfaces of the package marked with
// ClientDirective in their doc comment.
func ClientInterfaces(pass *analysis.Pass) map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				marked := hasDirective(ts.Doc) || len(gd.Specs) == 1 && hasDirective(gd.Doc)
				if !marked {
					continue
				}
				if tn, ok := pass.TypesInfo.Defs[ts.Name].(*types.TypeName); ok && types.IsInterface(tn.Type()) {
					out[tn] = true
				}
			}
		}
	}
	return out
}

func hasDirective(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if strings.TrimSpace(c.Text) == ClientDirective {
			return true
		}
	}
	return false
}

// optedIn reports whether fn is a method of an interface marked with
// ClientDirective, here or (through the lookup) in another package.
func (p *parser) optedIn(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return false
	}
	named, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	if !ok || !types.IsInterface(named) {
		return false
	}
	tn := named.Obj()
	if tn.Pkg() == p.pass.Pkg {
		if p.clients == nil {
			p.clients = ClientInterfaces(p.pass)
		}
		return p.clients[tn]
	}
	return p.importedClient != nil && p.importedClient(tn)
}
