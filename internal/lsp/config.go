package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/locklint/locklint/internal/settings"
)

// config is the client's workspace configuration, under "locklint":
//
//	{"analyzers": {"lockvalue": false},
//	 "settings":  {"lockrelease": {"flag": "value"}}}
//
// The names are those of the command's flags (-lockvalue=false,
// -lockrelease.flag=value) and of the golangci-lint linters and their
// settings.
type config struct {
	Analyzers map[string]bool           `json:"analyzers"`
	Settings  map[string]map[string]any `json:"settings"`
}

// configure applies new settings; unknown analyzers and flags are
// reported to the user and left out, the rest applies. Absent or null
// settings change nothing: clients send didChangeConfiguration with null
// settings to say "ask me" (VS Code's client does, Zed may), which must not
// drop what initializationOptions set. It reports whether the settings
// changed.
func (s *Server) configure(raw json.RawMessage) bool {
	if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return false
	}
	var wrapped struct {
		Locklint *config `json:"locklint"`
	}
	var c config
	if err := json.Unmarshal(raw, &wrapped); err == nil && wrapped.Locklint != nil {
		c = *wrapped.Locklint
	} else if err := json.Unmarshal(raw, &c); err != nil {
		s.showMessage(messageError, fmt.Sprintf("locklint: bad settings: %v", err))
		return false
	}
	var problems []string
	for name := range c.Analyzers {
		if s.analyzers[name] == nil {
			problems = append(problems, fmt.Sprintf("unknown analyzer %q", name))
			delete(c.Analyzers, name)
		}
	}
	for name, flags := range c.Settings {
		a := s.analyzers[name]
		if a == nil {
			problems = append(problems, fmt.Sprintf("settings for unknown analyzer %q", name))
			delete(c.Settings, name)
			continue
		}
		for flag, v := range flags {
			if a.Flags.Lookup(flag) == nil {
				problems = append(problems, fmt.Sprintf("%s: unknown setting %q", name, flag))
				delete(flags, flag)
				continue
			}
			if _, ok := settings.FlagValue(v); !ok {
				problems = append(problems, fmt.Sprintf("%s: setting %q: want a string, number, boolean or list, got %T", name, flag, v))
				delete(flags, flag)
			}
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		s.showMessage(messageError, "locklint settings: "+strings.Join(problems, "; "))
	}
	s.mu.Lock()
	s.cfg = c
	s.mu.Unlock()
	return true
}

// flags returns the vet tool's flags for the configuration.
func (c config) flags() []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(c.Analyzers)) {
		if !c.Analyzers[name] {
			out = append(out, "-"+name+"=false")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Settings)) {
		for _, flag := range slices.Sorted(maps.Keys(c.Settings[name])) {
			v, _ := settings.FlagValue(c.Settings[name][flag])
			out = append(out, fmt.Sprintf("-%s.%s=%s", name, flag, v))
		}
	}
	return out
}

func (s *Server) showMessage(typ int, msg string) {
	if err := s.conn.notify("window/showMessage", showMessageParams{Type: typ, Message: msg}); err != nil {
		s.logf("showMessage: %v", err)
	}
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}
