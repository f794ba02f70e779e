package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// journalFile runs an app's session against a petmock of the key
// petmock-dev-key, and writes its journal, as GET /__petmock/requests
// answers it, to a file of the test's.
func journalFile(tb testing.TB) string {
	tb.Helper()
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		tb.Fatal(err)
	}
	h, err := admin.New(srv, admin.Config{})
	if err != nil {
		tb.Fatal(err)
	}
	hs := httptest.NewServer(h)
	tb.Cleanup(hs.Close)
	get := func(method, path, body string) []byte {
		req, _ := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := hs.Client().Do(req)
		if err != nil {
			tb.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return b
	}
	get("GET", "/v1/pets?limit=3", "")
	get("POST", "/v1/pets", `{"name":"Rex","categoryId":1}`)
	get("GET", "/v1/pets/51", "")
	path := filepath.Join(tb.TempDir(), "journal.json")
	if err := os.WriteFile(path, get("GET", "/__petmock/requests", ""), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestReplayCommand: conformance replay passes a correct deployment, one
// line a request; fails a broken one with exit 1, naming the request and
// the rule, the key nowhere; and refuses what it cannot replay with exit 2.
func TestReplayCommand(t *testing.T) {
	t.Parallel()
	journal := journalFile(t)
	env := []string{"PETSTORE_API_KEY=" + ct.Key}
	r := runBinary(t, env, "replay", journal, "--base-url", serve(t, ct.Petmock(t)))
	if r.code != 0 || !strings.Contains(r.stdout, "ok     3  GET /v1/pets/51 -> 200") || !strings.HasSuffix(r.stdout, "replay: 3 passed, 0 failed, 0 skipped\n") {
		t.Errorf("replay against petmock: want exit 0 and each request passed\n%s", r)
	}
	var broken ct.Fault
	for _, b := range ct.BrokenServers {
		if b.Name == "serves lists as text/plain" {
			broken = b.Fault
		}
	}
	r = runBinary(t, env, "replay", "--base-url", serve(t, broken(t, ct.Petmock(t))), journal)
	if r.code != 1 || !strings.Contains(r.stdout, "FAIL   1  GET /v1/pets?limit=3 -> 200") || !strings.Contains(r.stdout, "contract.response") ||
		!strings.Contains(r.stdout, "curl") || !strings.HasSuffix(r.stdout, "replay: 2 passed, 1 failed, 0 skipped\n") {
		t.Errorf("replay against a server that serves lists as text/plain: want exit 1 naming the list\n%s", r)
	}
	if strings.Contains(r.stdout+r.stderr, ct.Key) {
		t.Errorf("the key is printed\n%s", r)
	}
	notJournal := filepath.Join(t.TempDir(), "pets.json")
	os.WriteFile(notJournal, []byte(`[{"id":1}]`), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--base-url", "http://127.0.0.1:1/v1"}, "replay needs a journal"},
		{[]string{"replay", journal}, "--base-url is required"},
		{[]string{"replay", journal, "--base-url", "staging/v1"}, "must start with http:// or https://"},
		{[]string{"replay", filepath.Join(t.TempDir(), "none.json"), "--base-url", "http://127.0.0.1:1/v1"}, "none.json: no such file or directory"},
		{[]string{"replay", notJournal, "--base-url", "http://127.0.0.1:1/v1"}, `requests[0]: no method`},
		{[]string{"replay", journal, journal, "--base-url", "http://127.0.0.1:1/v1"}, "unexpected argument"},
	} {
		r := runBinary(t, env, tt.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("conformance %q: exit %d, want 2 saying %q\n%s", tt.args, r.code, tt.want, r)
		}
	}
}
