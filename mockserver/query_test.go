package mockserver_test

import (
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
