// Package settings turns the values of editor and golangci-lint settings
// (decoded JSON or YAML) into the text of analyzer flags, so that every
// integration reads a setting the same way.
package settings

import (
	"fmt"
	"strconv"
	"strings"
)

// FlagValue returns the flag text for a setting's value: a string as it
// is, a boolean or a number in Go syntax (a JSON 1e6 reaches an int flag
// as 1000000), a list joined by commas. Other values are not settings.
func FlagValue(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = fmt.Sprint(e)
		}
		return strings.Join(parts, ","), true
	}
	return "", false
}
