package mockserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// TestServedJSONKeepsTheDocumentsOrder: /openapi.json lists paths and
// properties in the order /openapi.yaml does, as written, so that an API
// explorer shows them as the document's authors meant: name before
// categoryId, not in alphabetical order.
func TestServedJSONKeepsTheDocumentsOrder(t *testing.T) {
	for _, doc := range []struct {
		name     string
		contract *spec.Contract
	}{
		{"the Petstore", nil},
		{"evolved-ops.yaml", readContract(t, "evolved-ops.yaml")},
	} {
		ts := newTestServer(t, mockserver.Config{Contract: doc.contract})
		root := strings.TrimSuffix(ts.URL, "/v1")
		get := func(path string) []byte {
			req, _ := http.NewRequest("GET", root+path, nil)
			return ts.send(t, req).body
		}
		ym, js := get("/openapi.yaml"), get("/openapi.json")
		for _, at := range [][]string{
			{"paths"},
			{"components", "schemas"},
			{"components", "schemas", "NewPet", "properties"},
		} {
			want, got := yamlMemberNames(t, ym, at...), jsonMemberNames(t, js, at...)
			if !slices.Equal(got, want) {
				t.Errorf("%s: /openapi.json %s = %v, want the order of /openapi.yaml, %v", doc.name, strings.Join(at, "."), got, want)
			}
		}
		if got := jsonMemberNames(t, js, "components", "schemas", "NewPet", "properties"); !slices.Equal(got, []string{"name", "categoryId", "status"}) {
			t.Errorf("%s: /openapi.json NewPet properties = %v, want name, categoryId, status", doc.name, got)
		}
	}
}

// yamlMemberNames returns the keys of the mapping at path in a YAML
// document, in their order.
func yamlMemberNames(tb testing.TB, data []byte, path ...string) []string {
	tb.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) != 1 {
		tb.Fatalf("YAML: %v", err)
	}
	n := doc.Content[0]
	for _, name := range path {
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Kind == yaml.MappingNode && n.Content[i].Value == name {
				next = n.Content[i+1]
			}
		}
		if next == nil {
			tb.Fatalf("YAML: no %s in %v", name, path)
		}
		n = next
	}
	var names []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		names = append(names, n.Content[i].Value)
	}
	return names
}

// jsonMemberNames returns the member names of the object at path in a
// JSON document, in their order, which decoding into a map would lose.
func jsonMemberNames(tb testing.TB, data []byte, path ...string) []string {
	tb.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	skip := func() {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			tb.Fatalf("JSON: %v", err)
		}
	}
descend:
	for depth := 0; ; depth++ {
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			tb.Fatalf("JSON: %v at %v is not an object (%v)", t, path[:depth], err)
		}
		var names []string
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				tb.Fatalf("JSON: %v", err)
			}
			name, _ := t.(string)
			switch {
			case depth == len(path):
				names = append(names, name)
			case name == path[depth]:
				continue descend
			}
			skip()
		}
		if depth == len(path) {
			return names
		}
		tb.Fatalf("JSON: no %s in %v", path[depth], path[:depth])
	}
}
