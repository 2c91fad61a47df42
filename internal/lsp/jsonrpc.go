package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
)

// JSON-RPC 2.0 error codes used by the server.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	// codeServerNotInitialized: a request before initialize (LSP).
	codeServerNotInitialized = -32002
)

// maxMessage bounds one message's body; a larger Content-Length is refused
// rather than allocated.
const maxMessage = 64 << 20

// message is any JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method only) or a response (ID, and Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func (m *message) isRequest() bool { return len(m.ID) > 0 && m.Method != "" }

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// conn reads and writes LSP base-protocol frames: a Content-Length header,
// a blank line, and a JSON body. Writes are serialised; reads are not (one
// reader).
type conn struct {
	r  *bufio.Reader
	mu sync.Mutex
	w  io.Writer
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{r: bufio.NewReader(r), w: w}
}

// errFraming is a header the server cannot read past; the stream is lost.
var errFraming = errors.New("lsp: bad message header")

// read returns the next message. A body that is not JSON-RPC gives a
// *rpcError (the stream can go on); a broken header gives an error
// wrapping errFraming; the end of input gives io.EOF.
func (c *conn) read() (*message, error) {
	tp := textproto.NewReader(c.r)
	hdr, err := tp.ReadMIMEHeader()
	if err != nil {
		if errors.Is(err, io.EOF) && len(hdr) == 0 {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("%w: %w", errFraming, err)
	}
	cl := hdr.Get("Content-Length")
	n, err := strconv.Atoi(strings.TrimSpace(cl))
	if err != nil || n < 0 || n > maxMessage {
		return nil, fmt.Errorf("%w: Content-Length %q", errFraming, cl)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return nil, fmt.Errorf("%w: body: %w", errFraming, err)
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, &rpcError{Code: codeParseError, Message: err.Error()}
	}
	if m.JSONRPC != "2.0" || (m.Method == "" && len(m.ID) == 0) {
		return &m, &rpcError{Code: codeInvalidRequest, Message: "not a JSON-RPC 2.0 message"}
	}
	return &m, nil
}

func (c *conn) write(m *message) error {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = c.w.Write(body)
	return err
}

func (c *conn) notify(method string, params any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return c.write(&message{Method: method, Params: p})
}

func (c *conn) reply(id json.RawMessage, result any, rerr *rpcError) error {
	m := &message{ID: id}
	if rerr != nil {
		m.Error = rerr
	} else {
		r, err := json.Marshal(result)
		if err != nil {
			return err
		}
		m.Result = r
	}
	return c.write(m)
}
