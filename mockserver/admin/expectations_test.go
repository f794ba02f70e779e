package admin_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver"
)

// expectationList decodes {"expectations": [...]}.
func (r *response) expectationList(tb testing.TB) []steer.Expectation {
	tb.Helper()
	var v struct {
		Expectations []steer.Expectation `json:"expectations"`
	}
	if err := json.Unmarshal(r.body, &v); err != nil {
		tb.Fatalf("decoding %s: %v", r.body, err)
	}
	return v.Expectations
}

const missing7 = `{"code":"not_found","message":"petId: no pet has id 7","status":404}`

// TestExpectationsEndpoints sets an expectation over HTTP, reads it in
// the list and alone, sees it answer the API, and drops it.
func TestExpectationsEndpoints(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	resp := ts.admin(t, "PUT", "expectations", `{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":404,"body":`+missing7+`},"times":2}`)
	if resp.StatusCode != 201 || resp.Header.Get("Location") != "/__petmock/expectations/1" {
		t.Fatalf("PUT expectations: %s with Location %q, want 201 at /__petmock/expectations/1", resp, resp.Header.Get("Location"))
	}
	var set steer.Expectation
	if err := json.Unmarshal(resp.body, &set); err != nil || set.ID != 1 || set.Operation != "getPet" || set.Remaining != 2 {
		t.Errorf("PUT expectations: %s, want id 1, operation getPet, 2 remaining", resp.body)
	}
	resp = ts.admin(t, "PUT", "expectations", `{"when":{"method":"GET","path":"/v1/pets","query":{"status":"sold"}},"answer":{"status":200,"body":[]}}`)
	if resp.StatusCode != 201 {
		t.Fatalf("PUT expectations: %s, want 201", resp)
	}
	if list := ts.admin(t, "GET", "expectations", "").expectationList(t); len(list) != 2 || list[0].ID != 1 || list[1].ID != 2 {
		t.Errorf("GET expectations: %+v, want 1 and 2 in the order set", list)
	}
	if resp := ts.admin(t, "GET", "expectations/2", ""); resp.StatusCode != 200 || !strings.Contains(string(resp.body), `"query":{"status":"sold"}`) {
		t.Errorf("GET expectations/2: %s, want it", resp)
	}
	if resp := ts.do(t, "GET", "/pets/7", ""); resp.StatusCode != 404 || string(resp.body) != missing7+"\n" {
		t.Errorf("GET /v1/pets/7: %s, want the expectation's 404", resp)
	}
	if resp := ts.do(t, "GET", "/pets?status=sold", ""); string(resp.body) != "[]\n" {
		t.Errorf("GET /v1/pets?status=sold: %s, want the expectation's []", resp)
	}
	list := ts.admin(t, "GET", "expectations", "").expectationList(t)
	if len(list) != 2 || list[0].Remaining != 1 || list[0].Matched != 1 || list[1].Matched != 1 {
		t.Errorf("GET expectations after a match each: %+v, want 1 remaining of the first, 1 matched of each", list)
	}
	if resp := ts.admin(t, "DELETE", "expectations/1", ""); resp.StatusCode != 200 || len(resp.expectationList(t)) != 1 {
		t.Errorf("DELETE expectations/1: %s, want 200 and the one left", resp)
	}
	for _, tt := range []struct {
		method, path string
		status       int
		want         string
	}{
		{"GET", "expectations/1", 404, "id: no expectation has id 1"},
		{"DELETE", "expectations/1", 404, "id: no expectation has id 1"},
		{"GET", "expectations/one", 400, "id: must be an integer (int64)"},
	} {
		if resp := ts.admin(t, tt.method, tt.path, ""); resp.StatusCode != tt.status || resp.apiError(t).Message != tt.want {
			t.Errorf("%s %s: %s, want %d %q", tt.method, tt.path, resp, tt.status, tt.want)
		}
	}
	if resp := ts.admin(t, "DELETE", "expectations", ""); resp.StatusCode != 200 || len(resp.expectationList(t)) != 0 {
		t.Errorf("DELETE expectations: %s, want 200 and none left", resp)
	}
	if resp := ts.do(t, "GET", "/pets/7", ""); resp.StatusCode != 200 {
		t.Errorf("GET /v1/pets/7 once the expectations were dropped: %s, want 200", resp)
	}
}

// TestExpectationsRefusedOverHTTP: the admin API's document refuses a
// body of the wrong shape, and the server an answer that breaks the
// document petmock serves; each names the member at fault.
func TestExpectationsRefusedOverHTTP(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, tt := range []struct{ body, want string }{
		{`{"answer":{"status":404}}`, "when: is required"},
		{`{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":404},"id":3}`, "id: is not a member; the members are answer, bytesPerSecond, chunks, delay, duration, fault, priority, scenario, times, when"},
		{`{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":404,"body":{"code":"x","message":"y"}}}`, "answer.body.status: is required"},
		{`{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":418}}`, "answer.status: 418 is not documented for getPet"},
		{`{"when":{"method":"GET","path":"/v1/pets/7","query":{"limit":1}},"answer":{"status":404}}`, "when.query.limit: must be a string"},
	} {
		resp := ts.admin(t, "PUT", "expectations", tt.body)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("PUT expectations %s: %s, want 400 %q", tt.body, resp, tt.want)
		}
	}
	if list := ts.admin(t, "GET", "expectations", "").expectationList(t); len(list) != 0 {
		t.Errorf("expectations after refusals: %+v, want none", list)
	}
}

// TestExpectationsViewHidesTheKey: the admin API shows an expectation
// with a key in it as [redacted].
func TestExpectationsViewHidesTheKey(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	resp := ts.admin(t, "PUT", "expectations", `{"when":{"method":"GET","path":"/v1/pets","query":{"cursor":"`+key+`"}},"answer":{"status":200,"body":[]}}`)
	if resp.StatusCode != 201 || strings.Contains(string(resp.body), key) {
		t.Errorf("PUT expectations with a key: %s, want 201 without the key", resp)
	}
	if resp := ts.admin(t, "GET", "expectations", ""); strings.Contains(string(resp.body), key) || !strings.Contains(string(resp.body), "[redacted]") {
		t.Errorf("GET expectations: %s, want the key hidden", resp)
	}
}

// TestForcedFaultsOverHTTP: POST /__petmock/forced takes a fault, which
// the list shows and the next request meets; what cannot be is refused.
func TestForcedFaultsOverHTTP(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, tt := range []struct{ body, want string }{
		{`{"fault":"boom"}`, "fault: must be one of reset, empty, malformed-chunk, random-data, slow, dribble"},
		{`{"code":503,"fault":"reset"}`, "fault: give a code or a fault, not both"},
		{`{"fault":"reset","bytesPerSecond":5}`, "bytesPerSecond: goes with the fault slow only"},
		{`{"fault":"slow","bytesPerSecond":0}`, "bytesPerSecond: must be at least 1"},
		{`{"count":2}`, "code: is required, or a fault: one of reset, empty, malformed-chunk, random-data, slow, dribble"},
	} {
		resp := ts.admin(t, "POST", "forced", tt.body)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("POST forced %s: %s, want 400 %q", tt.body, resp, tt.want)
		}
	}
	resp := ts.admin(t, "POST", "forced", `{"fault":"reset","operation":"listPets"}`)
	if resp.StatusCode != 200 || !strings.Contains(string(resp.body), `"fault":"reset"`) {
		t.Fatalf("POST forced a reset: %s, want 200 and the fault listed", resp)
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	req, _ := http.NewRequest("GET", ts.URL+"/pets", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	if _, err := client.Do(req); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("GET /v1/pets with a reset forced: %v, want ECONNRESET", err)
	}
	if got := ts.forced(t); len(got) != 0 {
		t.Errorf("forced answers once the fault was met: %+v, want none", got)
	}
}

// TestFaultsSpareTheControlPlane: with every request of the API meeting
// a fault, the admin API, the console and the health answer as usual.
func TestFaultsSpareTheControlPlane(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	resp := ts.admin(t, "PATCH", "settings", `{"fault":"reset","faultRate":1}`)
	if resp.StatusCode != 200 || !strings.Contains(string(resp.body), `"fault":"reset","faultRate":1,"slowBytesPerSecond":100`) {
		t.Fatalf("PATCH settings of a fault: %s", resp)
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	get := func(url string) (int, error) {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if _, err := get(ts.URL + "/pets"); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("GET /v1/pets at a fault rate of 1: %v, want ECONNRESET", err)
	}
	for _, path := range []string{"/__petmock/settings", "/__petmock/health", "/__petmock/", "/__petmock/expectations", "/"} {
		if status, err := get(ts.root + path); err != nil || status != 200 {
			t.Errorf("GET %s at a fault rate of 1: %d %v, want 200: faults are the API's alone", path, status, err)
		}
	}
	// The client may see the reset before the server journals it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		j := ts.admin(t, "GET", "requests?limit=1", "")
		if strings.Contains(string(j.body), `"status":0`) && strings.Contains(string(j.body), `"fault":"reset"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("GET requests: %s, want the reset journaled as a fault, with no status", j.body)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}
