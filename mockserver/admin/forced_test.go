package admin_test

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver"
)

// forced reads GET /__petmock/forced.
func (ts *testServer) forced(t testing.TB) []steer.ForcedAnswer {
	t.Helper()
	var got struct{ Forced []steer.ForcedAnswer }
	if resp := ts.admin(t, "GET", "forced", ""); resp.StatusCode != 200 || json.Unmarshal(resp.body, &got) != nil {
		t.Fatalf("GET forced: %s", resp)
	}
	return got.Forced
}

func TestForceRefusesWhatTheDocumentDoesNotSay(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, tt := range []struct{ body, want string }{
		{`{"count":2}`, "code: is required"},
		{`{"code":"503"}`, "code: must be an integer"},
		{`{"code":99}`, "code: must be at least 100"},
		{`{"code":404,"operation":"listPets"}`, "code: 404 is not documented for listPets; use one of 200, 400, 401, or 500 or 503 to rehearse an outage"},
		{`{"code":418}`, "code: 418 is documented for no operation; use one of 200, 201, 400, 401, 404, 410, 413, 415, 507, or 500 or 503"},
		{`{"code":503,"operation":"listPetz"}`, `operation: "listPetz": want the id of an operation of the document: listPets, createPet, getPet`},
		{`{"code":503,"count":0}`, "count: must be at least 1"},
		{`{"code":503,"count":1001}`, "count: must be at most 1000"},
		{`{"code":503,"times":2}`, "times: is not a member; the members are bytesPerSecond, chunks, code, count, duration, fault, operation"},
		{`[503]`, "body: must be a JSON object"},
	} {
		resp := ts.admin(t, "POST", "forced", tt.body)
		if e := resp.apiError(t); resp.StatusCode != 400 || !strings.HasPrefix(e.Message, tt.want) {
			t.Errorf("POST forced %s: %s, want 400 %q", tt.body, resp, tt.want)
		}
	}
	if got := ts.forced(t); len(got) != 0 {
		t.Errorf("refused answers were kept: %+v", got)
	}
}

func TestForcedAnswersAreTakenInTurn(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	force := func(body string) {
		t.Helper()
		if resp := ts.admin(t, "POST", "forced", body); resp.StatusCode != 200 {
			t.Fatalf("POST forced %s: %s", body, resp)
		}
	}
	force(`{"code":503,"count":2,"operation":"listPets"}`)
	force(`{"code":404}`)
	force(`{"code":401,"operation":"createPet"}`)
	if got := ts.forced(t); len(got) != 3 || got[0].Remaining != 2 || got[1].Operation != "" || got[2].Code != 401 {
		t.Fatalf("GET forced = %+v", got)
	}
	before := ts.Items().Store("pets").Len()
	steps := []struct {
		method, path, body string
		headers            []string
		want               int
		wantMessage        string
	}{
		// A request without a key learns nothing, and takes nothing.
		{"GET", "/pets", "", []string{"Authorization", ""}, 401, "authorization: missing"},
		{"GET", "/pets", "", nil, 503, "forced: answer forced by the admin API (POST /__petmock/forced); 1 more to come"},
		// A request's own Prefer wins, and leaves the forced answer.
		{"GET", "/pets", "", []string{"Prefer", "code=400"}, 400, "prefer: answer forced by Prefer: code=400"},
		{"GET", "/pets", "", nil, 503, "forced: answer forced by the admin API (POST /__petmock/forced); the last of them"},
		// 404 is for any operation that documents it: listPets does not.
		{"GET", "/pets", "", nil, 200, ""},
		{"GET", "/pets/1", "", nil, 404, "forced: answer forced by the admin API"},
		{"GET", "/pets/1", "", nil, 200, ""},
		{"POST", "/pets", `{"name":"Rex","categoryId":1}`, nil, 401, "forced: "},
		{"POST", "/pets", `{"name":"Rex","categoryId":1}`, nil, 201, ""},
	}
	for i, st := range steps {
		resp := ts.do(t, st.method, "/"+strings.TrimPrefix(st.path, "/"), st.body, st.headers...)
		if resp.StatusCode != st.want {
			t.Fatalf("step %d: %s /v1%s: %s, want %d", i, st.method, st.path, resp, st.want)
		}
		if st.wantMessage != "" && !strings.HasPrefix(resp.apiError(t).Message, st.wantMessage) {
			t.Errorf("step %d: %s /v1%s: %s, want the message %q", i, st.method, st.path, resp, st.wantMessage)
		}
		if st.want == 401 && st.wantMessage == "forced: " && resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("step %d: a forced 401 without WWW-Authenticate", i)
		}
	}
	if got := ts.forced(t); len(got) != 0 {
		t.Errorf("after every forced answer was taken: %+v left", got)
	}
	if after := ts.Items().Store("pets").Len(); after != before+1 {
		t.Errorf("pets: %d, want %d: a forced answer must not create one", after, before+1)
	}
}

func TestForcedSuccessAnswersAsUsual(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	ts.admin(t, "POST", "forced", `{"code":201,"operation":"createPet"}`)
	ts.admin(t, "POST", "forced", `{"code":503,"count":5}`)
	if resp := ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`); resp.StatusCode != 201 {
		t.Errorf("POST /v1/pets with a forced 201: %s, want it created as usual", resp)
	}
	resp := ts.do(t, "GET", "/pets", "")
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("GET /v1/pets with a forced 503: %s with Retry-After %q", resp, resp.Header.Get("Retry-After"))
	}
	if got := ts.forced(t); len(got) != 1 || got[0].Remaining != 4 {
		t.Errorf("GET forced = %+v, want the 503 with 4 more", got)
	}
	if resp := ts.admin(t, "DELETE", "forced", ""); resp.StatusCode != 200 || string(resp.body) != `{"forced":[]}`+"\n" {
		t.Errorf("DELETE forced: %s", resp)
	}
	if resp := ts.do(t, "GET", "/pets", ""); resp.StatusCode != 200 {
		t.Errorf("GET /v1/pets after DELETE forced: %s", resp)
	}
}

// TestForcedAnswersAreBounded checks that no more than MaxForcedAnswers
// wait at once, since every request looks through them.
func TestForcedAnswersAreBounded(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for i := range steer.MaxForcedAnswers {
		if resp := ts.admin(t, "POST", "forced", `{"code":404,"operation":"getPet"}`); resp.StatusCode != 200 {
			t.Fatalf("POST forced %d: %s", i+1, resp)
		}
	}
	resp := ts.admin(t, "POST", "forced", `{"code":404,"operation":"getPet"}`)
	if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, "forced: ") {
		t.Errorf("POST forced past %d: %s, want a 400 that names forced", steer.MaxForcedAnswers, resp)
	}
	if resp := ts.admin(t, "DELETE", "forced", ""); resp.StatusCode != 200 {
		t.Fatalf("DELETE forced: %s", resp)
	}
	if resp := ts.admin(t, "POST", "forced", `{"code":404,"operation":"getPet"}`); resp.StatusCode != 200 {
		t.Errorf("POST forced once emptied: %s", resp)
	}
}

// TestForcedAnswersStayWithTheirOperation: an answer forced for any
// operation is taken by the next request that fits, and the rest of its
// count is that operation's alone; an operation's own answers come before
// those forced for any; what an operation would take is listed, and
// dropped, by operation, and one forced answer by its id.
func TestForcedAnswersStayWithTheirOperation(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	force := func(body string) {
		t.Helper()
		if resp := ts.admin(t, "POST", "forced", body); resp.StatusCode != 200 {
			t.Fatalf("POST forced %s: %s", body, resp)
		}
	}
	list := func(query string) []steer.ForcedAnswer {
		t.Helper()
		var got struct{ Forced []steer.ForcedAnswer }
		resp := ts.admin(t, "GET", "forced"+query, "")
		if resp.StatusCode != 200 || json.Unmarshal(resp.body, &got) != nil {
			t.Fatalf("GET forced%s: %s", query, resp)
		}
		return got.Forced
	}
	expect := func(method, path, body string, status int) {
		t.Helper()
		if resp := ts.do(t, method, path, body); resp.StatusCode != status {
			t.Errorf("%s /v1%s: %s, want %d", method, path, resp, status)
		}
	}
	// Two 400s for any operation: getPet takes the first, and then the
	// second is getPet's, which neither listPets nor createPet takes.
	force(`{"code":400,"count":2}`)
	expect("GET", "/pets/1", "", 400)
	if got := list(""); len(got) != 1 || got[0].Operation != "getPet" || !got[0].Bound || got[0].Remaining != 1 {
		t.Errorf("GET forced after getPet took one of two forced for any: %+v, want the other getPet's, bound", got)
	}
	expect("GET", "/pets", "", 200)
	expect("POST", "/pets", `{"name":"Rex","categoryId":1}`, 201)
	expect("GET", "/pets/1", "", 400)
	if got := list(""); len(got) != 0 {
		t.Errorf("GET forced once getPet took both: %+v, want none", got)
	}

	// An operation's own answers come first; then those for any.
	force(`{"code":401,"count":1}`)
	force(`{"code":503,"count":1,"operation":"listPets"}`)
	force(`{"code":400,"count":3,"operation":"getPet"}`)
	if got := list("?operation=listPets"); len(got) != 2 || got[0].Code != 503 || got[1].Code != 401 {
		t.Errorf("GET forced?operation=listPets: %+v, want its 503, then the 401 forced for any", got)
	}
	if got := list("?operation=createPet"); len(got) != 1 || got[0].Code != 401 {
		t.Errorf("GET forced?operation=createPet: %+v, want the 401 forced for any alone", got)
	}
	expect("GET", "/pets", "", 503)
	expect("GET", "/pets", "", 401)
	expect("GET", "/pets", "", 200)

	// Dropped by operation: getPet's, and what it took of those for any.
	force(`{"code":401,"count":2}`)
	expect("GET", "/pets/1", "", 400)
	resp := ts.admin(t, "DELETE", "forced?operation=getPet", "")
	if resp.StatusCode != 200 || !strings.Contains(string(resp.body), `"forced":[{"id":`) || !strings.Contains(string(resp.body), `"code":401,"remaining":2`) {
		t.Errorf("DELETE forced?operation=getPet: %s, want the 401 for any left, which getPet would take next", resp)
	}
	expect("GET", "/pets/1", "", 401)
	if got := list(""); len(got) != 1 || got[0].Operation != "getPet" || got[0].Remaining != 1 {
		t.Fatalf("GET forced: %+v, want the 401 getPet took first, bound to it", got)
	}
	id := list("")[0].ID
	if resp := ts.admin(t, "DELETE", "forced/"+strconv.FormatInt(id, 10), ""); resp.StatusCode != 200 || string(resp.body) != `{"forced":[]}`+"\n" {
		t.Errorf("DELETE forced/%d: %s, want none left", id, resp)
	}
	for _, tt := range []struct {
		method, path string
		status       int
		want         string
	}{
		{"DELETE", "forced/99", 404, "id: no forced answer has id 99"},
		{"DELETE", "forced/x", 400, "id: must be an integer (int64)"},
		{"GET", "forced?operation=listPetz", 400, `operation: "listPetz": want the id of an operation of the document: listPets, createPet, getPet`},
		{"DELETE", "forced?operation=listPetz", 400, `operation: "listPetz"`},
	} {
		if resp := ts.admin(t, tt.method, tt.path, ""); resp.StatusCode != tt.status || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("%s %s: %s, want %d %q", tt.method, tt.path, resp, tt.status, tt.want)
		}
	}
}

// TestForcedAnswersRestoredAsSaved: what GET /__petmock/forced lists,
// given back to ForceAnswer as petmock --state does at a start, waits in
// the same queues: one forced for any that an operation took first stays
// that operation's.
func TestForcedAnswersRestoredAsSaved(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	ts.admin(t, "POST", "forced", `{"code":400,"count":3}`)
	ts.admin(t, "POST", "forced", `{"fault":"dribble","chunks":3,"operation":"listPets"}`)
	ts.do(t, "GET", "/pets/1", "")
	saved := ts.forced(t)
	ts.Steering().ClearForced()
	for _, a := range saved {
		if err := ts.Steering().ForceAnswer(a); err != nil {
			t.Fatalf("ForceAnswer %+v: %v", a, err)
		}
	}
	got := ts.forced(t)
	for i := range got {
		got[i].ID = saved[i].ID
	}
	if !reflect.DeepEqual(got, saved) {
		t.Errorf("restored %+v, want %+v", got, saved)
	}
	if len(got) != 2 || !got[0].Bound || got[0].Operation != "getPet" || got[1].Duration != "1s" || got[1].Chunks != 3 {
		t.Errorf("forced %+v, want the 400 bound to getPet, and the dribble of 3 chunks over the default 1s", got)
	}
	if resp := ts.do(t, "GET", "/pets", ""); resp.StatusCode != 200 {
		// listPets's dribble answers in full, slowly.
		t.Errorf("GET /v1/pets with a dribble forced: %s, want 200", resp)
	}
}

// TestForcedFaultsRefusedOverHTTP: how a slow or dribbled body comes goes
// with its fault alone, within bounds.
func TestForcedFaultsRefusedOverHTTP(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, tt := range []struct{ body, want string }{
		{`{"fault":"reset","chunks":3}`, "chunks: goes with the fault dribble only"},
		{`{"code":503,"duration":"2s"}`, "duration: goes with the fault dribble only"},
		{`{"fault":"dribble","chunks":0}`, "chunks: must be at least 1"},
		{`{"fault":"dribble","chunks":1001}`, "chunks: must be at most 1000"},
		{`{"fault":"dribble","duration":"soon"}`, `duration: "soon": want a duration such as 2s, at most 1m0s`},
		{`{"fault":"dribble","duration":"2m"}`, `duration: "2m": want a duration such as 2s, at most 1m0s`},
		{`{"fault":"dribble","duration":"-1s"}`, `duration: "-1s"`},
		{`{"fault":"random-data","bytesPerSecond":5}`, "bytesPerSecond: goes with the fault slow only"},
	} {
		resp := ts.admin(t, "POST", "forced", tt.body)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("POST forced %s: %s, want 400 %q", tt.body, resp, tt.want)
		}
	}
	if got := ts.forced(t); len(got) != 0 {
		t.Errorf("refused faults were kept: %+v", got)
	}
}
