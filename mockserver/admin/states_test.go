package admin_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/steer"
)

// states reads GET /__petmock/states.
func (ts *testServer) states(tb testing.TB) map[string]string {
	tb.Helper()
	var got struct{ States []steer.ScenarioState }
	resp := ts.admin(tb, "GET", "states", "")
	if resp.StatusCode != 200 || json.Unmarshal(resp.body, &got) != nil {
		tb.Fatalf("GET states: %s", resp)
	}
	out := map[string]string{}
	for _, s := range got.States {
		out[s.Name] = s.State
	}
	return out
}

// TestScenarioStateMachine: "the list is empty, until a pet is
// created": a list answers [] in Started, a create answers the pet and
// moves the scenario to created, where the list answers the pet; the
// states are listed, set and reset over HTTP.
func TestScenarioStateMachine(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	const rex = `{"id":7,"name":"Rex","categoryId":1,"status":"available"}`
	ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets"},"answer":{"status":200,"body":[]},
		"scenario":{"name":"first pet","requiredState":"Started"}}`)
	ts.expect(t, `{"when":{"method":"POST","path":"/v1/pets"},"answer":{"status":201,"headers":{"Location":"/v1/pets/7"},"body":`+rex+`},
		"scenario":{"name":"first pet","requiredState":"Started","newState":"created"}}`)
	ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets"},"answer":{"status":200,"body":[`+rex+`]},
		"scenario":{"name":"first pet","requiredState":"created"}}`)
	if got := ts.states(t); got["first pet"] != "Started" || len(got) != 1 {
		t.Errorf("GET states: %v, want first pet in Started", got)
	}
	before := ts.Items().Store("pets").Len()
	steps := []struct {
		method, body string
		want         string // the body's start
		state        string
	}{
		{"GET", "", "[]", "Started"},
		{"GET", "", "[]", "Started"},
		{"POST", `{"name":"Rex","categoryId":1}`, `{"name":"Rex"`, "created"},
		{"GET", "", `[{"name":"Rex"`, "created"},
		// In created, no expectation of POST matches: petmock creates.
		{"POST", `{"name":"Toto","categoryId":1}`, `{"id":51,"name":"Toto"`, "created"},
	}
	for i, st := range steps {
		resp := ts.do(t, st.method, "/pets", st.body)
		if !strings.HasPrefix(string(resp.body), st.want) {
			t.Errorf("step %d: %s /v1/pets: %s, want %s...", i, st.method, resp, st.want)
		}
		if got := ts.states(t)["first pet"]; got != st.state {
			t.Errorf("step %d: the scenario is in %q, want %q", i, got, st.state)
		}
	}
	if n := ts.Items().Store("pets").Len(); n != before+1 {
		t.Errorf("%d pets, want %d: only the create no expectation answered is made", n, before+1)
	}

	// Set by a test, to start from a step; reset, to start again.
	if resp := ts.admin(t, "PUT", "states/first%20pet", `{"state":"Started"}`); resp.StatusCode != 200 || !strings.Contains(string(resp.body), `{"name":"first pet","state":"Started"}`) {
		t.Errorf("PUT states/first pet: %s", resp)
	}
	if resp := ts.do(t, "GET", "/pets", ""); string(resp.body) != "[]\n" {
		t.Errorf("GET /v1/pets once set back: %s, want []", resp)
	}
	ts.admin(t, "PUT", "states/first%20pet", `{"state":"created"}`)
	if resp := ts.admin(t, "DELETE", "states", ""); resp.StatusCode != 200 || !strings.Contains(string(resp.body), `{"name":"first pet","state":"Started"}`) {
		t.Errorf("DELETE states: %s", resp)
	}
	for _, tt := range []struct {
		path, body string
		status     int
		want       string
	}{
		{"states/nope", `{"state":"x"}`, 404, `name: no expectation names the scenario "nope"`},
		{"states/first%20pet", `{"state":""}`, 400, "state: minimum string length is 1"},
		{"states/first%20pet", `{}`, 400, "state: is required"},
	} {
		if resp := ts.admin(t, "PUT", tt.path, tt.body); resp.StatusCode != tt.status || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("PUT %s %s: %s, want %d %q", tt.path, tt.body, resp, tt.status, tt.want)
		}
	}
	// Dropping the expectations forgets the states.
	ts.admin(t, "PUT", "states/first%20pet", `{"state":"created"}`)
	ts.admin(t, "DELETE", "expectations", "")
	if got := ts.states(t); len(got) != 0 {
		t.Errorf("GET states once the expectations are dropped: %v, want none", got)
	}
}

// TestScenariosRefused: a scenario is named, and says when the
// expectation matches or what it moves the scenario to.
func TestScenariosRefused(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, tt := range []struct{ scenario, want string }{
		{`{"name":"s"}`, "scenario: give requiredState, newState, or both"},
		{`{"requiredState":"a"}`, "scenario.name: is required"},
		{`{"name":"","newState":"a"}`, "scenario.name: minimum string length is 1"},
		{`{"name":"s","next":"a"}`, "scenario.next: is not a member"},
	} {
		resp := ts.admin(t, "PUT", "expectations", `{"when":{"method":"GET","path":"/v1/pets"},"answer":`+canned+`,"scenario":`+tt.scenario+`}`)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("scenario %s: %s, want 400 %q", tt.scenario, resp, tt.want)
		}
	}
}
