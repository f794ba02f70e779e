package mockserver_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestQueryPetmockCannotRead checks that a query petmock cannot read whole
// is refused, naming the parameter, rather than answered as if the pair it
// could not read had not been sent: ?limit=1; is not a page of 20 pets, and
// ?status=sold;x=1 is not every pet.
func TestQueryPetmockCannotRead(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	const semicolon = "the query holds a ';', which petmock does not take as a separator; use &"
	tests := []struct{ query, wantMessage string }{
		{"limit=1;", "limit: " + semicolon},
		{"status=sold;x=1", "status: " + semicolon},
		{"limit=2&status=sold;", "status: " + semicolon},
		{"a;limit=1", "a: " + semicolon},
		{";limit=1", "query: " + semicolon},
		{"limit=%zz", "limit: is not valid percent-encoding"},
		{"li%zzmit=1", "query: a parameter name is not valid percent-encoding"},
	}
	for _, tt := range tests {
		resp := ts.do(t, "GET", "/pets?"+tt.query, "")
		if resp.StatusCode != 400 {
			t.Errorf("GET /v1/pets?%s: status = %d, want 400", tt.query, resp.StatusCode)
			continue
		}
		if e := resp.apiError(t); e.Message != tt.wantMessage {
			t.Errorf("GET /v1/pets?%s: message = %q, want %q", tt.query, e.Message, tt.wantMessage)
		}
	}
	// What can be read is read as before: an escaped ';' is a value's.
	if resp := ts.do(t, "GET", "/pets?limit=%32&&status=sold", ""); resp.StatusCode != 200 || len(resp.pets(t)) != 2 {
		t.Errorf("GET /v1/pets?limit=%%32&&status=sold: %s, want 2 sold pets", resp)
	}
}

// TestDeepObjectArrays: an array parameter of style deepObject, as
// Stripe's expand, is read as Stripe's clients send it, expand[]=a or
// expand[0]=a, checked item by item, and may be left out where it is
// optional; openapi3filter, which cannot read it, refused every query of
// its operation.
func TestDeepObjectArrays(t *testing.T) {
	c := document(t, `
  /entries:
    get:
      operationId: listEntries
      parameters:
        - {name: expand, in: query, style: deepObject, explode: true, schema: {type: array, items: {type: string, maxLength: 5}}}
        - {name: ids, in: query, style: deepObject, explode: true, schema: {type: array, maxItems: 2, items: {type: integer}}}
        - {name: account, in: query, required: true, schema: {type: string}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
  /tags:
    get:
      operationId: listTags
      parameters:
        - {name: expand, in: query, required: true, style: deepObject, explode: true, schema: {type: array, items: {type: string}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	for _, tt := range []struct {
		path    string
		status  int
		message string
	}{
		{"/entries?account=x", 200, ""},
		{"/entries?account=x&expand[]=data&expand[]=owner", 200, ""},
		{"/entries?account=x&expand[0]=data&expand[1]=owner", 200, ""},
		{"/entries?account=x&ids[0]=1&ids[1]=2", 200, ""},
		{"/entries?account=x&expand[]=toolong", 400, "expand.0: "},
		{"/entries?account=x&ids[]=one", 400, "ids.0: must be an integer"},
		{"/entries?account=x&ids[]=1&ids[]=2&ids[]=3", 400, "ids: "},
		{"/entries?expand[]=data", 400, "account: is required"},
		{"/tags", 400, "expand: is required"},
		{"/tags?expand[]=a", 200, ""},
	} {
		req, resp, body := fetch(t, "GET", base+"/v1"+tt.path, "", "X-API-Key", key)
		if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.message) {
			t.Errorf("GET %s: %d %s, want %d %q", tt.path, resp.StatusCode, body, tt.status, tt.message)
			continue
		}
		if err := documented(t, c, req, resp.StatusCode, resp.Header, body); resp.StatusCode == 200 && err != nil {
			t.Errorf("GET %s: %v", tt.path, err)
		}
	}
}
