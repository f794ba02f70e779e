package admin_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// rootContract is the Petstore served from a base path of "/", with more
// paths added at the start of its paths.
func rootContract(t testing.TB, paths string) *spec.Contract {
	t.Helper()
	data, err := os.ReadFile("../../spec/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.ReplaceAll(string(data), "/v1'", "/'")
	doc = strings.Replace(doc, "\npaths:\n", "\npaths:\n"+paths, 1)
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if c.Base != "" {
		t.Fatalf("base path %q, want none", c.Base)
	}
	return c
}

// TestRootBaseJournalsOnlyTheAPI checks that with a base path of "/",
// under which every path lies, the journal still keeps only the API's
// requests: not the admin API's, the document's or the console's, whose
// reads of the journal would otherwise journal themselves.
func TestRootBaseJournalsOnlyTheAPI(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{Contract: rootContract(t, "")})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/__petmock/", "/__petmock/health", "/__petmock/settings", "/openapi.yaml", "/pets?limit=1", "/__petmock/requests"} {
		if w := serve(t, srv, "GET", path); w.Code != 200 {
			t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
		}
	}
	var got struct{ Requests []journal.Exchange }
	if err := json.Unmarshal(serve(t, srv, "GET", "/__petmock/requests").Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range got.Requests {
		paths = append(paths, e.Path)
	}
	if len(paths) != 1 || paths[0] != "/pets" {
		t.Errorf("journal %q, want only the API's [/pets]", paths)
	}
}

// TestRootOperationIsNotTheConsole checks that an operation the document
// has at "/" is answered there; the console stays at /__petmock/.
func TestRootOperationIsNotTheConsole(t *testing.T) {
	root := `  /:
    get:
      operationId: getRoot
      responses:
        '200':
          description: The service's name.
          content:
            application/json:
              schema:
                type: object
                required: [name]
                properties:
                  name: {type: string}
`
	srv, err := mockserver.New(mockserver.Config{Contract: rootContract(t, root)})
	if err != nil {
		t.Fatal(err)
	}
	w := serve(t, srv, "GET", "/")
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") || !strings.Contains(w.Body.String(), `"name"`) {
		t.Errorf("GET / of a document with an operation there: %d %s %.60s, want the operation's answer", w.Code, w.Header().Get("Content-Type"), w.Body)
	}
	if w := serve(t, srv, "GET", "/__petmock/"); w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Errorf("GET /__petmock/: %d %s, want the console", w.Code, w.Header().Get("Content-Type"))
	}
}
