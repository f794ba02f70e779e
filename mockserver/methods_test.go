package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// methodsDocument gives HEAD and OPTIONS operations of their own, as
// AutoRest's security-key service and Box do.
const methodsDocument = `
  /securitykey:
    head:
      operationId: head
      responses:
        '200': {description: the key is good, headers: {X-Checked: {required: true, schema: {type: boolean}}}}
  /files/content:
    options:
      operationId: optionsFilesContent
      responses:
        '200': {description: the upload's preflight, content: {application/json: {schema: {type: object, required: [upload_url], properties: {upload_url: {type: string}}}}}}
    post:
      operationId: upload
      responses:
        '201': {description: uploaded}
  /files:
    get:
      operationId: listFiles
      responses:
        '200': {description: the files, content: {application/json: {schema: {type: array, items: {type: string}}}}}
`

// TestDocumentedHeadAndOptions: a HEAD or an OPTIONS the document gives
// is that operation, with its key and its documented answer; a CORS
// preflight, an OPTIONS with Access-Control-Request-Method, is still
// answered as one, and an OPTIONS of a path without one gets its Allow; a
// HEAD the document does not give is the GET's.
func TestDocumentedHeadAndOptions(t *testing.T) {
	c := document(t, methodsDocument)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key}
	preflight := []string{"Origin", "http://app.example", "Access-Control-Request-Method", "POST"}
	for _, tt := range []struct {
		method, path string
		headers      []string
		want         int
		allow        string // the Allow header, where the answer has one
		documented   bool   // the answer is the operation's
	}{
		{"HEAD", "/securitykey", auth, 200, "", true},
		{"HEAD", "/securitykey", nil, 401, "", false},
		{"GET", "/securitykey", auth, 405, "HEAD, OPTIONS", false},
		{"OPTIONS", "/files/content", auth, 200, "", true},
		{"OPTIONS", "/files/content", nil, 401, "", false},
		{"OPTIONS", "/files/content", preflight, 204, "", false},
		{"OPTIONS", "/files", nil, 204, "GET, HEAD, OPTIONS", false},
		{"HEAD", "/files", auth, 200, "", false},
	} {
		req, resp, body := fetch(t, tt.method, base+"/v1"+tt.path, "", tt.headers...)
		what := tt.method + " " + tt.path
		if resp.StatusCode != tt.want || resp.Header.Get("Allow") != tt.allow {
			t.Errorf("%s %v: %d with Allow %q, want %d with %q\n%s", what, tt.headers, resp.StatusCode, resp.Header.Get("Allow"), tt.want, tt.allow, body)
			continue
		}
		if tt.documented {
			if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("%s %v: %v", what, tt.headers, err)
			}
		}
	}
	// kin-openapi's response validator does not read a HEAD's answer: its
	// required header is held to here.
	if _, resp, _ := fetch(t, http.MethodHead, base+"/v1/securitykey", "", auth...); resp.Header.Get("X-Checked") == "" {
		t.Errorf("HEAD /securitykey: no X-Checked, which the document requires")
	}
}
