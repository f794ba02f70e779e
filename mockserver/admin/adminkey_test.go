package admin_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestAdminKeyIsItsOwn: with an admin key, the admin API takes it alone,
// the API does not take it, and neither shows it.
func TestAdminKeyIsItsOwn(t *testing.T) {
	const apiKey, adminKey = "app-key-41c2", "admin-key-9f3e7a"
	ts := newTestServer(t, mockserver.Config{APIKeys: []string{apiKey}, AdminKeys: []string{adminKey}})
	for _, tt := range []struct {
		what, key string
		admin     bool
		want      int
	}{
		{"the admin API with the admin key", adminKey, true, 200},
		{"the admin API with the API key", apiKey, true, 401},
		{"the API with the API key", apiKey, false, 200},
		{"the API with the admin key", adminKey, false, 401},
	} {
		var resp *response
		if tt.admin {
			resp = ts.admin(t, "GET", "settings", "", "Bearer "+tt.key)
		} else {
			resp = ts.do(t, "GET", "/pets?limit=1&note="+tt.key, "", "Authorization", "Bearer "+tt.key)
		}
		if resp.StatusCode != tt.want {
			t.Errorf("%s: %s, want %d", tt.what, resp, tt.want)
		}
	}
	journal, _ := json.Marshal(ts.Journal().Recent(0))
	if strings.Contains(string(journal), adminKey) || strings.Contains(string(journal), apiKey) {
		t.Errorf("the journal shows a key: %s", journal)
	}
	if ts.PublishedKey() || contractView(t, ts)["publishedKey"] != false {
		t.Error("with keys of its own, petmock says it takes the published key")
	}
}

// TestPublishedKeyIsSaid: the contract the console reads says whether the
// admin API takes the published key, so that the console warns of it.
func TestPublishedKeyIsSaid(t *testing.T) {
	for _, tt := range []struct {
		cfg  mockserver.Config
		want bool
	}{
		{mockserver.Config{}, true},
		{mockserver.Config{APIKeys: []string{"mine-1"}}, false},
		{mockserver.Config{AdminKeys: []string{"mine-2"}}, false},
		{mockserver.Config{APIKeys: []string{"mine-3"}, AdminKeys: []string{mockserver.DefaultAPIKey}}, true},
	} {
		ts := newTestServer(t, tt.cfg)
		if got := contractView(t, ts)["publishedKey"]; got != tt.want {
			t.Errorf("API keys %q, admin keys %q: publishedKey %v, want %v", tt.cfg.APIKeys, tt.cfg.AdminKeys, got, tt.want)
		}
	}
}

// contractView returns the body of GET /__petmock/contract.
func contractView(tb testing.TB, ts *testServer) map[string]any {
	tb.Helper()
	resp := ts.admin(tb, "GET", "contract", "", "")
	var v map[string]any
	if err := json.Unmarshal(resp.body, &v); err != nil {
		tb.Fatalf("GET contract: %s: %v", resp, err)
	}
	return v
}
