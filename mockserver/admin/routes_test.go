package admin

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// TestRoutesAreTheDocument proves the admin API's document and its routes
// one: every ServeMux pattern is an operation of openapi.yaml, every
// operation has a pattern, and the ServeMux hands a request of each
// operation to that operation's endpoint.
func TestRoutesAreTheDocument(t *testing.T) {
	doc, err := spec.Read(document)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	hh, err := New(srv, Config{})
	if err != nil {
		t.Fatal(err)
	}
	h := hh.(*handler)
	if err := h.makeAdmin(); err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSuffix(Prefix, "/")
	// pattern is the ServeMux pattern of an operation: its path below
	// Prefix, where "{$}" says that "/" ends the path.
	pattern := func(op *spec.Operation) string {
		path := base + op.Path
		if strings.HasSuffix(path, "/") {
			path += "{$}"
		}
		return op.Method + " " + path
	}
	documented := map[string]bool{}
	for _, op := range doc.Operations {
		documented[pattern(op)] = true
	}
	routed := map[string]bool{}
	for _, rt := range h.routes() {
		if !documented[rt.pattern] {
			t.Errorf("the route %s is no operation of openapi.yaml", rt.pattern)
		}
		routed[rt.pattern] = true
	}
	for _, op := range doc.Operations {
		want := pattern(op)
		if !routed[want] {
			t.Errorf("%s (%s) has no route", op.ID, want)
			continue
		}
		path := strings.NewReplacer("{resource}", "pets", "{file}", "console.js").Replace(base + op.Path)
		if _, got := h.mux.Handler(httptest.NewRequest(op.Method, "http://petmock"+path, nil)); got != want {
			t.Errorf("%s %s: the ServeMux routes it to %q, want %q, the route of %s", op.Method, path, got, want, op.ID)
		}
	}
}

// TestDocumentBoundsAreTheServer's checks that the bounds the document
// gives are those the server keeps.
func TestDocumentBoundsAreTheServers(t *testing.T) {
	doc, err := spec.Read(document)
	if err != nil {
		t.Fatal(err)
	}
	schemas := doc.Doc.Components.Schemas
	for _, tt := range []struct {
		schema, property string
		max              int
	}{
		{"SettingsChange", "journal", steer.MaxJournalSize},
		{"Settings", "journal", steer.MaxJournalSize},
		{"ForceRequest", "count", steer.MaxForcedCount},
	} {
		p := schemas[tt.schema].Value.Properties[tt.property].Value
		if p.Max == nil || int(*p.Max) != tt.max {
			t.Errorf("%s.%s: maximum %v, want the server's %d", tt.schema, tt.property, p.Max, tt.max)
		}
	}
}

// TestConcreteDocument checks the document the edge routes by: a path of
// {resource} for each resource of the served document, and none for a
// resource named like another path.
func TestConcreteDocument(t *testing.T) {
	served, err := spec.Read([]byte(strings.ReplaceAll(string(spec.YAML()), "/pets", "/reset")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		served *spec.Contract
		want   []string // paths of the concrete document
		not    []string
	}{
		{mustDefault(t), []string{"/pets", "/catalogue/pets", "/health", "/"}, []string{"/{resource}", "/catalogue/{resource}"}},
		{served, []string{"/catalogue/reset"}, []string{"/{resource}"}},
	} {
		c, err := concrete(tt.served)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tt.want {
			if c.Doc.Paths.Value(p) == nil {
				t.Errorf("concrete document of %v: no path %s", tt.served.Resources[0].Name, p)
			}
		}
		for _, p := range tt.not {
			if c.Doc.Paths.Value(p) != nil {
				t.Errorf("concrete document of %v: a path %s", tt.served.Resources[0].Name, p)
			}
		}
		if ops := c.PathOperations("/reset"); len(ops) != 1 || ops["POST"] == nil {
			t.Errorf("concrete document of %v: /reset takes %v, want POST alone", tt.served.Resources[0].Name, ops)
		}
	}
}

func mustDefault(tb testing.TB) *spec.Contract {
	tb.Helper()
	c, err := spec.Default()
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
