package admin_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
)

// TestAdminNeedsAKey checks that the admin API takes the keys the API
// takes, and refuses a request without one, changing nothing, except at
// its public endpoints; and that it routes as the API does.
func TestAdminNeedsAKey(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, rq := range []struct{ method, name string }{
		{"POST", "reset"}, {"GET", "pets"}, {"PUT", "pets"}, {"GET", "requests"}, {"DELETE", "requests"},
	} {
		for _, auth := range []string{"", "Bearer wrong", "Basic " + key} {
			if resp := ts.admin(t, rq.method, rq.name, "[]", auth); resp.StatusCode != 401 || resp.apiError(t).Code != "unauthorized" {
				t.Errorf("%s %s with %q: %s, want a 401 Error", rq.method, rq.name, auth, resp)
			}
		}
	}
	if ts.Items().Store("pets").Len() != catalogue.DefaultCount {
		t.Errorf("refused admin requests changed the store")
	}
	health := ts.admin(t, "GET", "health", "", "")
	if health.StatusCode != 200 || !strings.Contains(string(health.body), `"status":"ok"`) {
		t.Errorf("GET health without a key: %s, want 200 ok", health)
	}
	for _, tt := range []struct {
		method, name string
		want         int
	}{{"GET", "nope", 404}, {"GET", "reset", 405}, {"POST", "pets", 405}, {"PUT", "health", 405}} {
		resp := ts.admin(t, tt.method, tt.name, "")
		if resp.StatusCode != tt.want || resp.apiError(t).Status != tt.want {
			t.Errorf("%s %s: %s, want a %d Error", tt.method, tt.name, resp, tt.want)
		}
	}
}
