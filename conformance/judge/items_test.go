package judge

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDifferences: what was sent must come back, equal, at any depth;
// what a server adds, at any depth, is its own.
func TestDifferences(t *testing.T) {
	decode := func(s string) map[string]any {
		var v map[string]any
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		got, sent, want string
	}{
		{`{"id":1,"name":"a"}`, `{"name":"a"}`, ""},
		{`{"name":"b"}`, `{"name":"a"}`, `name "b", want "a"`},
		{`{}`, `{"name":"a"}`, `name is missing, want "a"`},
		{`{"n":100}`, `{"n":1e2}`, ""},
		{`{"owner":{"login":"x","id":7}}`, `{"owner":{"login":"x"}}`, ""},
		{`{"owner":{"id":7}}`, `{"owner":{"login":"x"}}`, `owner.login is missing, want "x"`},
		{`{"parts":[{"label":"a","serial":"s1"},{"label":"b"}]}`, `{"parts":[{"label":"a"},{"label":"b"}]}`, ""},
		{`{"parts":[{"label":"a"}]}`, `{"parts":[{"label":"a"},{"label":"b"}]}`, `parts [{"label":"a"}], want [{"label":"a"},{"label":"b"}]`},
		{`{"parts":[{"label":"b"}]}`, `{"parts":[{"label":"a"}]}`, `parts.0.label "b", want "a"`},
		{`{"owner":"x"}`, `{"owner":{"login":"x"}}`, `owner "x", want {"login":"x"}`},
	} {
		if got := Differences(decode(tc.got), decode(tc.sent)); got != tc.want {
			t.Errorf("%s against %s sent: %q, want %q", tc.got, tc.sent, got, tc.want)
		}
	}
}
