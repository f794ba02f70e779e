package spec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/petstore/contract/spec"
)

// TestServedReplacesTheServers: the document served has one server, the
// one given, in YAML and in JSON, whether the source is YAML or JSON and
// has servers or none; everything else is kept, in its order.
func TestServedReplacesTheServers(t *testing.T) {
	const paths = `{"/b": {"get": {"responses": {"204": {"description": "ok"}}}}, "/a": {"get": {"responses": {"204": {"description": "ok"}}}}}`
	tests := []struct{ name, doc string }{
		{"YAML with servers", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\nservers:\n  - url: /v1\npaths: " + paths + "\n"},
		{"YAML without servers", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: " + paths + "\n"},
		{"JSON with servers", `{"openapi": "3.0.3", "servers": [{"url": "/v1"}], "info": {"title": "x", "version": "1"}, "paths": ` + paths + `}`},
		{"JSON without servers", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": ` + paths + `}`},
	}
	for _, tt := range tests {
		c, err := spec.Read([]byte(tt.doc))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		ym, js, err := c.Served("http://here/v1", `a "mock"`)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, served := range []struct {
			lang string
			doc  []byte
		}{{"YAML", ym}, {"JSON", js}} {
			got, err := spec.Read(served.doc)
			if err != nil {
				t.Errorf("%s: the %s served does not read: %v", tt.name, served.lang, err)
				continue
			}
			if s := got.Doc.Servers; len(s) != 1 || s[0].URL != "http://here/v1" || s[0].Description != `a "mock"` {
				t.Errorf("%s: the %s served has servers %v, want http://here/v1 alone", tt.name, served.lang, s)
			}
			if ops := got.Operations; len(ops) != 2 {
				t.Errorf("%s: the %s served has %d operations, want 2", tt.name, served.lang, len(ops))
			}
			if a, b := strings.Index(string(served.doc), "/a"), strings.Index(string(served.doc), "/b"); b > a {
				t.Errorf("%s: the %s served lists /a before /b, want the order written", tt.name, served.lang)
			}
		}
		var v any
		if err := json.Unmarshal(js, &v); err != nil {
			t.Errorf("%s: the JSON served is no JSON: %v", tt.name, err)
		}
		if err := yaml.Unmarshal(ym, &v); err != nil {
			t.Errorf("%s: the YAML served is no YAML: %v", tt.name, err)
		}
	}
}
