package admin_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/steer"
)

// verification reads GET /__petmock/verification.
func (ts *testServer) verification(tb testing.TB) steer.Verification {
	tb.Helper()
	var v steer.Verification
	resp := ts.admin(tb, "GET", "verification", "")
	if resp.StatusCode != 200 || json.Unmarshal(resp.body, &v) != nil {
		tb.Fatalf("GET verification: %s", resp)
	}
	return v
}

// TestVerification: which requests each expectation answered, one
// dropped once it answered its times included, and which requests none
// did, by method and path, whoever answered them, with counts; counted
// from the last reset.
func TestVerification(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	once := ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":404,"body":`+missing7+`},"times":1}`)
	sold := ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets","query":{"status":"sold"}},"answer":{"status":200,"body":[]}}`)
	idle := ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets/8"},"answer":{"status":404,"body":{"code":"not_found","message":"m","status":404}}}`)
	ts.do(t, "GET", "/pets/7", "")                             // once
	ts.do(t, "GET", "/pets/7", "")                             // petmock: once is dropped
	ts.do(t, "GET", "/pets?status=sold", "")                   // sold
	ts.do(t, "GET", "/pets?status=sold&limit=2", "")           // sold
	ts.do(t, "GET", "/pets?status=pending", "")                // petmock
	ts.do(t, "GET", "/pets", "", "Authorization", "")          // refused, 401
	ts.do(t, "GET", "/cats", "")                               // no operation
	ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`) // petmock
	v := ts.verification(t)
	if v.Received != 8 || v.Matched != 3 || v.Unmatched != 5 {
		t.Errorf("received %d, matched %d, unmatched %d; want 8, 3, 5", v.Received, v.Matched, v.Unmatched)
	}
	byID := map[int64]steer.VerifiedExpectation{}
	for _, e := range v.Expectations {
		byID[e.ID] = e
	}
	if e := byID[once.ID]; e.Count != 1 || e.Set || e.Operation != "getPet" || e.Path != "/v1/pets/7" || len(e.Requests) != 1 || e.Requests[0].Path != "/v1/pets/7" {
		t.Errorf("the expectation answered once and dropped: %+v", e)
	}
	if e := byID[sold.ID]; e.Count != 2 || !e.Set || len(e.Requests) != 2 || e.Requests[1].Method != "GET" {
		t.Errorf("the expectation of sold pets: %+v, want 2 requests", e)
	}
	if e, ok := byID[idle.ID]; !ok || e.Count != 0 || !e.Set || e.Requests == nil {
		t.Errorf("the expectation no request met: %+v, want it listed with 0", e)
	}
	var unmatched []string
	for _, u := range v.UnmatchedRequests {
		unmatched = append(unmatched, u.Method+" "+u.Path+" "+u.Operation+" "+string(rune('0'+u.Count)))
	}
	want := []string{"GET /v1/pets/7 getPet 1", "GET /v1/pets listPets 2", "GET /v1/cats  1", "POST /v1/pets createPet 1"}
	if strings.Join(unmatched, "|") != strings.Join(want, "|") {
		t.Errorf("unmatched requests %q, want %q", unmatched, want)
	}
	for _, u := range v.UnmatchedRequests {
		if u.First.IsZero() || u.Last.Before(u.First) {
			t.Errorf("unmatched %s %s: first %s, last %s", u.Method, u.Path, u.First, u.Last)
		}
	}
	// The admin API's own requests are not the app's.
	if v := ts.verification(t); v.Received != 8 {
		t.Errorf("received %d after a read of the verification, want 8", v.Received)
	}

	resp := ts.admin(t, "DELETE", "verification", "")
	var reset steer.Verification
	if resp.StatusCode != 200 || json.Unmarshal(resp.body, &reset) != nil || reset.Received != 0 || len(reset.UnmatchedRequests) != 0 || !reset.Since.After(v.Since) {
		t.Errorf("DELETE verification: %s, want nothing counted, since now", resp)
	}
	if len(reset.Expectations) != 2 || reset.Expectations[0].Count != 0 {
		t.Errorf("after a reset, the expectations set are listed with 0: %+v", reset.Expectations)
	}
	ts.do(t, "GET", "/pets?status=sold", "")
	if v := ts.verification(t); v.Received != 1 || v.Matched != 1 {
		t.Errorf("after a reset and one request: %+v", v)
	}
}

// TestVerificationHidesTheKey: a key in a path shows as [redacted], and
// so does one in a pattern of the expectations.
func TestVerificationHidesTheKey(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	ts.expect(t, `{"when":{"method":"GET","path":"/pets/{petId}","pathPattern":"`+key+`|^/v1/pets/1$"},"answer":{"status":404,"body":{"code":"not_found","message":"m","status":404}}}`)
	ts.do(t, "GET", "/pets/1", "")
	ts.do(t, "GET", "/pets/"+key, "")
	ts.do(t, "GET", "/nothing/"+key, "")
	body := string(ts.admin(t, "GET", "verification", "").body)
	if strings.Contains(body, key) || strings.Count(body, "[redacted]") != 2 || !strings.Contains(body, `"count":1`) {
		t.Errorf("GET verification: %s, want the key hidden wherever it stands", body)
	}
	if body := string(ts.admin(t, "GET", "expectations", "").body); strings.Contains(body, key) || !strings.Contains(body, `"pathPattern":"[redacted]|^/v1/pets/1$"`) {
		t.Errorf("GET expectations: %s, want the key of the pattern hidden", body)
	}
}

// TestVerificationIsBounded: past the methods and paths it keeps, the
// verification counts the requests no expectation answered without
// keeping them.
func TestVerificationIsBounded(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for i := range steer.MaxUnmatchedGroups + 2 {
		ts.do(t, "GET", "/nothing/"+strconv.Itoa(i), "")
	}
	v := ts.verification(t)
	if len(v.UnmatchedRequests) != steer.MaxUnmatchedGroups || v.Omitted != 2 || v.Unmatched != int64(steer.MaxUnmatchedGroups+2) {
		t.Errorf("%d methods and paths kept, %d omitted, %d unmatched; want %d, 2 and %d",
			len(v.UnmatchedRequests), v.Omitted, v.Unmatched, steer.MaxUnmatchedGroups, steer.MaxUnmatchedGroups+2)
	}
}
