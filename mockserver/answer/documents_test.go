package answer

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestDocumentsAreMadeOnFirstUse holds the served document to being made
// by the first request of it, not at start, and to being the document
// with its servers at the origin the request was sent to.
func TestDocumentsAreMadeOnFirstUse(t *testing.T) {
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	d := NewDocuments(c)
	if d.yaml != nil || d.json != nil {
		t.Fatal("the served documents were made before any request of them")
	}
	for _, tc := range []struct{ path, contentType, want string }{
		{DocYAMLPath, "application/yaml", "url: http://mock.example:4010/v1"},
		{DocJSONPath, "application/json", `"url":"http://mock.example:4010/v1"`},
	} {
		w := httptest.NewRecorder()
		if err := d.Serve(w, httptest.NewRequest("GET", "http://mock.example:4010"+tc.path, nil)); err != nil {
			t.Fatalf("GET %s: %v", tc.path, err)
		}
		if got := w.Header().Get("Content-Type"); w.Code != 200 || got != tc.contentType {
			t.Errorf("GET %s: %d %s, want 200 %s", tc.path, w.Code, got, tc.contentType)
		}
		if body := w.Body.String(); !strings.Contains(body, tc.want) || strings.Contains(body, originPlaceholder) {
			t.Errorf("GET %s: the servers are not at the request's origin, want %s in:\n%.400s", tc.path, tc.want, body)
		}
	}
	if d.yaml == nil || d.json == nil {
		t.Error("the served documents were not kept once made")
	}
}
