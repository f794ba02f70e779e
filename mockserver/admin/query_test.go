package admin_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestAdminQueryPetmockCannotRead checks that the admin API reads a query
// as the API does: a ';' is refused, naming the parameter, rather than the
// parameter lost.
func TestAdminQueryPetmockCannotRead(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, q := range []string{"requests?limit=1;", "catalogue/pets?limit=1;"} {
		if resp := ts.admin(t, "GET", q, ""); resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, "limit: ") {
			t.Errorf("GET /__petmock/%s: %s, want a 400 naming limit", q, resp)
		}
	}
}
