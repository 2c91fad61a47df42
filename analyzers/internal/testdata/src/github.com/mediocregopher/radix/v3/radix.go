// Package radix is a stand-in for github.com/mediocregopher/radix/v3: the
// action constructors and clients with the signatures the analyzers match
// on. A command is an Action; a client's Do sends it and writes the reply
// into the action's receiver.
package radix

type Action interface{ Run(c Conn) error }

type CmdAction interface{ Action }

type Conn interface {
	Do(Action) error
	Close() error
}

type Client interface {
	Do(Action) error
	Close() error
}

type action struct {
	rcv  interface{}
	cmd  string
	args []interface{}
}

func (a *action) Run(Conn) error { return nil }

// Cmd sends cmd with string arguments.
func Cmd(rcv interface{}, cmd string, args ...string) CmdAction {
	a := &action{rcv: rcv, cmd: cmd}
	for _, s := range args {
		a.args = append(a.args, s)
	}
	return a
}

// FlatCmd sends cmd on key with arguments flattened to strings (a
// time.Duration becomes its integer nanoseconds).
func FlatCmd(rcv interface{}, cmd, key string, args ...interface{}) CmdAction {
	return &action{rcv: rcv, cmd: cmd, args: append([]interface{}{key}, args...)}
}

// MaybeNil wraps a receiver and says whether the reply was nil.
type MaybeNil struct {
	Nil bool
	Rcv interface{}
}

type EvalScript struct {
	numKeys int
	script  string
}

func NewEvalScript(numKeys int, script string) EvalScript { return EvalScript{numKeys, script} }

func (es EvalScript) Cmd(rcv interface{}, keysAndArgs ...string) Action {
	return &action{rcv: rcv, cmd: "EVALSHA"}
}

func (es EvalScript) FlatCmd(rcv interface{}, keys []string, args ...interface{}) Action {
	return &action{rcv: rcv, cmd: "EVALSHA"}
}

func Pipeline(cmds ...CmdAction) Action { return &action{} }

func WithConn(key string, fn func(Conn) error) Action { return &action{} }

type Pool struct{}

func NewPool(network, addr string, size int) (*Pool, error) { return &Pool{}, nil }

func (p *Pool) Do(a Action) error { return nil }
func (p *Pool) Close() error      { return nil }
