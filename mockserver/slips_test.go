package mockserver_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestResponseRanges: a range of statuses, such as 4XX, is a documented
// response: petmock answers a success of 2XX, refuses a request in the
// body of 4XX, and answers an operation that documents only 4XX with a
// status of it, every answer held to the document.
func TestResponseRanges(t *testing.T) {
	c := document(t, `
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        2XX: {description: A thing., content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
        4XX: {description: Refused., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /refusals:
    get:
      operationId: refuse
      responses:
        4XX: {description: Refused., content: {application/json: {schema: {type: object, properties: {reason: {type: string}}}}}}`)
	ts := newTestServer(t, mockserver.Config{Contract: c})
	key := []string{"X-API-Key", mockserver.DefaultAPIKey}
	tests := []struct {
		path    string
		headers []string
		status  int
	}{
		{"/things/7", key, 200},
		{"/things/seven", key, 400},
		{"/things/7", []string{"Authorization", ""}, 401},
		{"/refusals", key, 400},
	}
	for _, tt := range tests {
		resp := ts.do(t, "GET", tt.path, "", tt.headers...)
		if resp.StatusCode != tt.status {
			t.Errorf("GET /v1%s %v: %s, want %d", tt.path, tt.headers, resp, tt.status)
			continue
		}
		if tt.status >= 400 && tt.path != "/refusals" && resp.apiError(t).Status != tt.status {
			t.Errorf("GET /v1%s %v: %s, want the Error body of 4XX", tt.path, tt.headers, resp)
		}
	}
	if n := srvNotes(ts.Server); !strings.Contains(n, "paths./refusals.get.responses: no success (2xx) or default response, so a valid request is answered 400, the first status of 4XX") {
		t.Errorf("notes = %s, want one that says /refusals is answered 400", n)
	}
}

// srvNotes returns the start-up notes of srv, one a line.
func srvNotes(srv *mockserver.Server) string {
	return strings.Join(append(srv.Contract().Notes, srv.Notes()...), "\n")
}
