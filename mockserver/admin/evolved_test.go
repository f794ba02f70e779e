package admin_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestEvolvedResourceInTheAdminAPI checks that a resource a later version
// of the document adds is in the admin API with no change to it: its
// items are exported, replaced and reset, and counted in health.
func TestEvolvedResourceInTheAdminAPI(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Contract: readContract(t, "evolved-ops.yaml")})
	ts.do(t, "POST", "/store/orders", `{"petId":3,"quantity":2}`)
	export := ts.admin(t, "GET", "orders", "")
	if export.StatusCode != 200 || strings.Count(string(export.body), `"petId"`) != 51 {
		t.Errorf("GET /__petmock/orders: %d with %d orders, want 51", export.StatusCode, strings.Count(string(export.body), `"petId"`))
	}
	if resp := ts.admin(t, "PUT", "orders", `[{"id":7,"petId":1,"quantity":1}]`); resp.StatusCode != 200 || string(resp.body) != `{"orders":1}`+"\n" {
		t.Errorf("PUT /__petmock/orders: %s", resp)
	}
	if resp := ts.admin(t, "PUT", "orders", `[{"id":7,"petId":1,"quantity":12}]`); resp.StatusCode != 400 || resp.apiError(t).Message != "orders[0]: quantity: must be at most 10" {
		t.Errorf("PUT /__petmock/orders of a bad order: %s, want it named", resp)
	}
	if health := ts.admin(t, "GET", "health", ""); string(health.body) != `{"orders":1,"pets":50,"status":"ok"}`+"\n" {
		t.Errorf("health: %s", health.body)
	}
	ts.admin(t, "POST", "reset", "")
	if health := ts.admin(t, "GET", "health", ""); string(health.body) != `{"orders":50,"pets":50,"status":"ok"}`+"\n" {
		t.Errorf("health after reset: %s", health.body)
	}
	for _, tt := range []struct {
		method, name string
		want         int
	}{{"GET", "catalogue/orders", 200}, {"OPTIONS", "orders", 204}, {"POST", "orders", 405}} {
		if resp := ts.admin(t, tt.method, tt.name, ""); resp.StatusCode != tt.want {
			t.Errorf("%s /__petmock/%s: %s, want %d", tt.method, tt.name, resp, tt.want)
		}
	}
}
