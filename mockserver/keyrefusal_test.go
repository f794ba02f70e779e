package mockserver_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// refusalDocument has an operation that documents 403 for a request
// without a valid key and no 401, as Box's do, one that documents 401,
// and one that documents neither; the first two take HTTP basic
// credentials, whose 401 has a challenge, the last an API key.
const refusalDocument = `
  /folders:
    get:
      operationId: listFolders
      security: [{basic: []}]
      responses:
        '200': {description: the folders, content: {application/json: {schema: {type: array, items: {type: string}}}}}
        '403': {description: no valid key, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /files:
    get:
      operationId: listFiles
      security: [{basic: []}]
      responses:
        '200': {description: the files, content: {application/json: {schema: {type: array, items: {type: string}}}}}
        '401': {description: no valid key, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
        '403': {description: not yours, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /links:
    get:
      operationId: listLinks
      responses:
        '200': {description: the links, content: {application/json: {schema: {type: array, items: {type: string}}}}}
`

// TestKeyRefusedAsDocumented: a request without a valid key is answered
// 403 by an operation that documents 403 and not 401, and 401, with its
// challenge, by the others, as HTTP asks where the document says
// nothing; the start-up notes say which; a 401 forced on an operation
// that refuses keys with 403 is that 403.
func TestKeyRefusedAsDocumented(t *testing.T) {
	c := document(t, refusalDocument)
	srv, base := plainServer(t, mockserver.Config{Contract: c})
	for _, tt := range []struct {
		path      string
		want      int
		challenge bool
	}{
		{"/folders", http.StatusForbidden, false},
		{"/files", http.StatusUnauthorized, true},
		{"/links", http.StatusUnauthorized, false},
	} {
		for _, headers := range [][]string{nil, {"X-API-Key", "not-a-key"}, {"Authorization", "Basic OnNvbWV0aGluZw=="}} {
			req, resp, body := fetch(t, http.MethodGet, base+"/v1"+tt.path, "", headers...)
			if resp.StatusCode != tt.want {
				t.Errorf("GET %s with %v: %d, want %d\n%s", tt.path, headers, resp.StatusCode, tt.want, body)
				continue
			}
			if got := resp.Header.Get("WWW-Authenticate") != ""; got != tt.challenge {
				t.Errorf("GET %s with %v: a challenge %v, want %v", tt.path, headers, got, tt.challenge)
			}
			if c.OperationAt(http.MethodGet, tt.path).Documents(resp.StatusCode) {
				if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
					t.Errorf("GET %s with %v: %v", tt.path, headers, err)
				}
			}
		}
	}
	notes := strings.Join(srv.Notes(), "\n")
	for _, want := range []string{"403 is answered to a request without a valid key, rather than 401, by operations that document 403 and not 401: listFolders;", "401 is answered, as HTTP requires, to a request without a valid key, by operations that do not document it: listLinks;"} {
		if !strings.Contains(notes, want) {
			t.Errorf("the start-up notes do not say %q:\n%s", want, notes)
		}
	}
	if slices.ContainsFunc(srv.Notes(), func(n string) bool { return strings.HasPrefix(n, "401") && strings.Contains(n, "listFolders") }) {
		t.Errorf("a note says listFolders answers 401:\n%s", notes)
	}

	// A 401 forced, by Prefer or from the admin API, on an operation
	// that refuses a key with 403 is that 403.
	auth := []string{"Authorization", "Basic OnBldG1vY2stZGV2LWtleQ=="} // the key as the password
	if _, resp, body := fetch(t, http.MethodGet, base+"/v1/folders", "", append(auth, "Prefer", "code=401")...); resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET /folders with Prefer: code=401: %d, want 403\n%s", resp.StatusCode, body)
	}
	if err := srv.Steering().Force(http.StatusUnauthorized, 1, "listFolders"); err != nil {
		t.Fatalf("Force(401, listFolders): %v", err)
	}
	if _, resp, body := fetch(t, http.MethodGet, base+"/v1/folders", "", auth...); resp.StatusCode != http.StatusForbidden || strings.Contains(string(body), "internal") {
		t.Errorf("GET /folders with a 401 forced: %d, want 403 with its own code\n%s", resp.StatusCode, body)
	}
}
