package settings

import "testing"

func TestFlagValue(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
		ok   bool
	}{
		{"30s", "30s", true},
		{true, "true", true},
		{1e6, "1000000", true},
		{2.5, "2.5", true},
		{7, "", false}, // decoded settings carry numbers as float64
		{[]any{"a", 2.0, true}, "a,2,true", true},
		{map[string]any{}, "", false},
		{nil, "", false},
	} {
		got, ok := FlagValue(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("FlagValue(%#v) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
