package lsp

import "encoding/json"

// The subset of the Language Server Protocol 3.17 types the server uses.

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type location struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

type initializeParams struct {
	RootURI               string          `json:"rootUri"`
	InitializationOptions json.RawMessage `json:"initializationOptions"`
	Capabilities          struct {
		General struct {
			PositionEncodings []string `json:"positionEncodings"`
		} `json:"general"`
	} `json:"capabilities"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type didChangeParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int    `json:"version"`
	} `json:"textDocument"`
	ContentChanges []struct {
		Range *lspRange `json:"range"`
		Text  string    `json:"text"`
	} `json:"contentChanges"`
}

type didSaveParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type didCloseParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type didChangeConfigurationParams struct {
	Settings json.RawMessage `json:"settings"`
}

type diagnostic struct {
	Range              lspRange        `json:"range"`
	Severity           int             `json:"severity"`
	Code               string          `json:"code"`
	CodeDescription    *codeDesc       `json:"codeDescription,omitempty"`
	Source             string          `json:"source"`
	Message            string          `json:"message"`
	RelatedInformation []relatedInfo   `json:"relatedInformation,omitempty"`
	Data               json.RawMessage `json:"data,omitempty"`
}

type codeDesc struct {
	Href string `json:"href"`
}

type relatedInfo struct {
	Location location `json:"location"`
	Message  string   `json:"message"`
}

const (
	severityError   = 1
	severityWarning = 2
)

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

type codeActionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Range        lspRange               `json:"range"`
	Context      struct {
		Diagnostics []diagnostic `json:"diagnostics"`
		Only        []string     `json:"only"`
	} `json:"context"`
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type workspaceEdit struct {
	Changes map[string][]textEdit `json:"changes"`
}

type codeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind"`
	Diagnostics []diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *workspaceEdit `json:"edit,omitempty"`
}

type showMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

const (
	messageError   = 1
	messageWarning = 2
	messageInfo    = 3
	messageLog     = 4
)
