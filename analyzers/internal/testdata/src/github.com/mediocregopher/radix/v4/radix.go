// Package radix is a stand-in for github.com/mediocregopher/radix/v4: the
// action constructors and clients with the signatures the analyzers match
// on. A client's Do(ctx, action) sends an action and writes the reply into
// its receiver.
package radix

import "context"

type Action interface {
	Perform(ctx context.Context, c Conn) error
}

type Conn interface {
	Do(context.Context, Action) error
	Close() error
}

type Client interface {
	Do(context.Context, Action) error
	Close() error
}

type action struct {
	rcv  interface{}
	args []interface{}
}

func (a *action) Perform(context.Context, Conn) error { return nil }

func Cmd(rcv interface{}, cmd string, args ...string) Action {
	a := &action{rcv: rcv}
	for _, s := range args {
		a.args = append(a.args, s)
	}
	return a
}

func FlatCmd(rcv interface{}, cmd string, args ...interface{}) Action {
	return &action{rcv: rcv, args: args}
}

// Maybe wraps a receiver and says whether the reply was nil.
type Maybe struct {
	Rcv   interface{}
	Null  bool
	Empty bool
}

type EvalScript struct{ script string }

func NewEvalScript(script string) EvalScript { return EvalScript{script} }

func (es EvalScript) Cmd(rcv interface{}, keys []string, args ...string) Action {
	return &action{rcv: rcv}
}

func (es EvalScript) FlatCmd(rcv interface{}, keys []string, args ...interface{}) Action {
	return &action{rcv: rcv}
}

type Pipeline struct{ actions []Action }

func NewPipeline() *Pipeline                                  { return &Pipeline{} }
func (p *Pipeline) Append(a Action)                           { p.actions = append(p.actions, a) }
func (p *Pipeline) Perform(ctx context.Context, c Conn) error { return nil }

type PoolConfig struct{}

func (cfg PoolConfig) New(ctx context.Context, network, addr string) (Client, error) {
	return nil, nil
}
