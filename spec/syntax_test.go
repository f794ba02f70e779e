package spec_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestYAMLErrorLines: a document that does not parse as YAML is refused
// naming the line an editor shows the fault on, counted from 1, whichever
// of the YAML parser's stages finds it.
func TestYAMLErrorLines(t *testing.T) {
	tests := []struct {
		name, doc string
		line      string
	}{
		{"a flow mapping left open", "openapi: 3.0.3\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a:\n    get: {responses: {'200': {description: x}}\n  /b: {}\n", "line 7: "},
		{"a flow sequence left open after a block scalar", "openapi: 3.0.3\ninfo:\n  title: x\n  description: |\n    one\n    two\n  version: '1'\ntags: [a, b\npaths: {}\n", "line 8: "},
		{"a flow mapping left open on the second line", "openapi: 3.0.3\ninfo: {title: x, version: '1'\npaths: {}\n", "line 2: "},
		{"a sequence item among keys", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n- x\n", "line 4: "},
		{"a key indented too far", "openapi: 3.0.3\ninfo:\n  title: x\n   version: 1\npaths: {}\n", "line 4: "},
		{"a character that starts no token", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: @x\n", "line 3: "},
	}
	for _, tt := range tests {
		_, err := spec.Read([]byte(tt.doc))
		if err == nil {
			t.Errorf("%s: the document was accepted", tt.name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "YAML: "+tt.line) {
			t.Errorf("%s: refusal = %q, want it to name %q", tt.name, msg, strings.TrimSuffix(tt.line, ": "))
		}
	}
}
