package admin_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/steer"
)

// expect sets an expectation over HTTP, failing the test if it is
// refused, and returns it as set.
func (ts *testServer) expect(tb testing.TB, body string) steer.Expectation {
	tb.Helper()
	resp := ts.admin(tb, "PUT", "expectations", body)
	if resp.StatusCode != 201 {
		tb.Fatalf("PUT expectations %s: %s", body, resp)
	}
	var e steer.Expectation
	if err := json.Unmarshal(resp.body, &e); err != nil {
		tb.Fatal(err)
	}
	return e
}

// canned is an answer of listPets no handler gives: it tells an
// expectation's answer from petmock's own.
const canned = `{"status":200,"body":[{"id":777,"name":"Canned","categoryId":1,"status":"sold"}]}`

// answeredByExpectation reports whether an answer of listPets is canned's.
func (r *response) answeredByExpectation() bool {
	return r.StatusCode == 200 && strings.Contains(string(r.body), `"id":777`)
}

// TestEachMatcher sends, for each kind of matcher, a request that meets it
// and one that does not, over HTTP: the first gets the expectation's
// answer, the second petmock's own.
func TestEachMatcher(t *testing.T) {
	for _, tt := range []struct {
		name string
		when string // the members of when beside method and path
		// hit and miss are requests to /v1/pets: a query, and header
		// name, value pairs.
		hitQuery, missQuery     string
		hitHeaders, missHeaders []string
	}{
		{"query equals, as a string", `"query":{"status":"sold"}`, "?status=sold", "?status=pending", nil, nil},
		{"query equals", `"query":{"status":{"equals":"sold"}}`, "?status=sold", "?status=pending", nil, nil},
		{"query contains", `"query":{"status":{"contains":"ol"}}`, "?status=sold", "?status=available", nil, nil},
		{"query matches", `"query":{"limit":{"matches":"^[0-9]$"}}`, "?limit=5", "?limit=50", nil, nil},
		{"query absent", `"query":{"limit":{"absent":true}}`, "", "?limit=5", nil, nil},
		{"header equals", `"headers":{"X-Trace":"abc"}`, "", "", []string{"X-Trace", "abc"}, []string{"X-Trace", "abd"}},
		{"header of another case", `"headers":{"x-trace":{"equals":"abc"}}`, "", "", []string{"X-TRACE", "abc"}, nil},
		{"header contains", `"headers":{"User-Agent":{"contains":"Firefox"}}`, "", "", []string{"User-Agent", "Mozilla/5.0 Firefox/130"}, []string{"User-Agent", "curl/8"}},
		{"header matches", `"headers":{"X-Request-Id":{"matches":"^[0-9a-f-]{36}$"}}`, "", "",
			[]string{"X-Request-Id", "9b2e2f4e-5d1c-4b8a-9f3e-2a6d7c1e0b44"}, []string{"X-Request-Id", "42"}},
		{"header absent", `"headers":{"X-Trace":{"absent":true}}`, "", "", nil, []string{"X-Trace", "abc"}},
		{"cookie equals", `"cookies":{"session":"s1"}`, "", "", []string{"Cookie", "session=s1; theme=dark"}, []string{"Cookie", "session=s2"}},
		{"cookie contains", `"cookies":{"theme":{"contains":"dar"}}`, "", "", []string{"Cookie", "theme=dark"}, []string{"Cookie", "theme=light"}},
		{"cookie matches", `"cookies":{"theme":{"matches":"^(dark|light)$"}}`, "", "", []string{"Cookie", "theme=light"}, []string{"Cookie", "theme=blue"}},
		{"cookie absent", `"cookies":{"session":{"absent":true}}`, "", "", []string{"Cookie", "theme=dark"}, []string{"Cookie", "session=s1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, mockserver.Config{})
			ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets",`+tt.when+`},"answer":`+canned+`}`)
			if resp := ts.do(t, "GET", "/pets"+tt.hitQuery, "", tt.hitHeaders...); !resp.answeredByExpectation() {
				t.Errorf("GET /v1/pets%s %q, which meets %s: %s, want the expectation's answer", tt.hitQuery, tt.hitHeaders, tt.when, resp)
			}
			if tt.missQuery == "" && tt.missHeaders == nil {
				return
			}
			if resp := ts.do(t, "GET", "/pets"+tt.missQuery, "", tt.missHeaders...); resp.StatusCode != 200 || resp.answeredByExpectation() {
				t.Errorf("GET /v1/pets%s %q, which does not meet %s: %s, want petmock's own answer", tt.missQuery, tt.missHeaders, tt.when, resp)
			}
		})
	}
}

// TestPathPatternNarrowsATemplate: a pattern matches the path as clients
// send it, base path included, of the template's operation only.
func TestPathPatternNarrowsATemplate(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	ts.expect(t, `{"when":{"method":"GET","path":"/pets/{petId}","pathPattern":"^/v1/pets/[1-3]$"},
		"answer":{"status":404,"body":{"code":"not_found","message":"the first three are gone","status":404}}}`)
	for _, tt := range []struct {
		path   string
		status int
	}{{"/pets/1", 404}, {"/pets/3", 404}, {"/pets/4", 200}, {"/pets/13", 200}, {"/pets/31", 200}} {
		if resp := ts.do(t, "GET", tt.path, ""); resp.StatusCode != tt.status {
			t.Errorf("GET /v1%s: %s, want %d", tt.path, resp, tt.status)
		}
	}
}

// TestBodyMatchers: the body's text, and the values a JSON path selects
// of it, each matcher with a create that meets it and one that does not.
func TestBodyMatchers(t *testing.T) {
	const created = `{"status":201,"headers":{"Location":"/v1/pets/900"},"body":{"id":900,"name":"Canned","categoryId":1}}`
	for _, tt := range []struct {
		name      string
		match     string
		hit, miss string
	}{
		{"text equals", `{"equals":"{\"name\":\"Rex\",\"categoryId\":1}"}`, `{"name":"Rex","categoryId":1}`, `{"categoryId":1,"name":"Rex"}`},
		{"text contains", `{"contains":"Rex"}`, `{"name":"T-Rex","categoryId":1}`, `{"name":"Toto","categoryId":1}`},
		{"text matches", `{"matches":"\"categoryId\":\\s*[12]\\b"}`, `{"name":"a","categoryId": 2}`, `{"name":"a","categoryId":3}`},
		{"JSON equal, members in any order", `{"equalsJson":{"categoryId":1.0,"name":"Rex"}}`, `{"name":"Rex","categoryId":1}`, `{"name":"Rex","categoryId":1,"status":"sold"}`},
		{"JSON path equals", `{"jsonPath":"$.name","equals":"Rex"}`, `{"name":"Rex","categoryId":1}`, `{"name":"Rexy","categoryId":1}`},
		{"JSON path equals a number", `{"jsonPath":"$.categoryId","equals":"2"}`, `{"name":"a","categoryId":2}`, `{"name":"a","categoryId":1}`},
		{"JSON path equalsJson", `{"jsonPath":"$.categoryId","equalsJson":2}`, `{"name":"a","categoryId":2.0}`, `{"name":"a","categoryId":3}`},
		{"JSON path contains", `{"jsonPath":"$.name","contains":"ex"}`, `{"name":"Rex","categoryId":1}`, `{"name":"Toto","categoryId":1}`},
		{"JSON path matches", `{"jsonPath":"$['name']","matches":"^[A-Z]"}`, `{"name":"Rex","categoryId":1}`, `{"name":"rex","categoryId":1}`},
		{"JSON path absent", `{"jsonPath":"$.status","absent":true}`, `{"name":"Rex","categoryId":1}`, `{"name":"Rex","categoryId":1,"status":"sold"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, mockserver.Config{})
			ts.expect(t, `{"when":{"method":"POST","path":"/v1/pets","bodyMatches":[`+tt.match+`]},"answer":`+created+`}`)
			if resp := ts.do(t, "POST", "/pets", tt.hit); resp.StatusCode != 201 || resp.pet(t).ID != 900 {
				t.Errorf("POST /v1/pets %s, which meets %s: %s, want the expectation's answer", tt.hit, tt.match, resp)
			}
			if resp := ts.do(t, "POST", "/pets", tt.miss); resp.StatusCode != 201 || resp.pet(t).ID == 900 {
				t.Errorf("POST /v1/pets %s, which does not meet %s: %s, want a pet created", tt.miss, tt.match, resp)
			}
		})
	}
}

// TestBodyMatchersWithoutTheJournal: with no journal and no log, the
// pipeline keeps the body of a request for the expectations that await
// its operation all the same.
func TestBodyMatchersWithoutTheJournal(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{JournalSize: -1})
	if ts.Steering().JournalSize() != 0 {
		t.Fatalf("journal of %d, want none", ts.Steering().JournalSize())
	}
	ts.expect(t, `{"when":{"method":"POST","path":"/v1/pets","bodyMatches":[{"contains":"Rex"}]},
		"answer":{"status":201,"headers":{"Location":"/v1/pets/900"},"body":{"id":900,"name":"Canned","categoryId":1}}}`)
	if resp := ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`); resp.pet(t).ID != 900 {
		t.Errorf("POST /v1/pets without a journal: %s, want the expectation's answer", resp)
	}
}

// TestMatchersRefused: a matcher that no request the document allows
// could meet, or that says nothing, or several things, is refused with a
// 400 that names it; nothing is set.
func TestMatchersRefused(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, tt := range []struct{ when, want string }{
		{`"path":"/v1/pets","query":{"limit":1}`, "when.query.limit: must be a string, the value to equal, or a matcher"},
		{`"path":"/v1/pets","query":{"limit":{"equals":"0"}}`, "when.query.limit: limit: must be at least 1"},
		{`"path":"/v1/pets","query":{"limit":"0"}`, "when.query.limit: limit: must be at least 1"},
		{`"path":"/v1/pets","query":{"colour":{"contains":"r"}}`, "when.query.colour: not a query parameter of listPets"},
		{`"path":"/v1/pets","query":{"status":{"contains":"o","matches":"x"}}`, "when.query.status: give one of equals, contains, matches or absent, not several"},
		{`"path":"/v1/pets","query":{"status":{}}`, "when.query.status: says nothing: give one of equals, contains, matches or absent"},
		{`"path":"/v1/pets","query":{"status":{"like":"o"}}`, "when.query.status.like: is not a member; the members are absent, contains, equals, matches"},
		{`"path":"/v1/pets","query":{"status":{"absent":false}}`, "when.query.status.absent: must be true"},
		{`"path":"/v1/pets","query":{"status":{"matches":"(sold"}}`, "when.query.status.matches: missing closing ): `(sold`"},
		{`"path":"/v1/pets","headers":{"X Trace":"a"}`, `when.headers.X Trace: "X Trace" is not a name of a header`},
		{`"path":"/v1/pets","headers":{"X-Trace":{"matches":"["}}`, "when.headers.X-Trace.matches: missing closing ]"},
		{`"path":"/v1/pets/7","pathPattern":"^/v1"`, "when.pathPattern: goes with a template in when.path"},
		{`"path":"/pets/{petId}","pathPattern":"*"`, "when.pathPattern: missing argument to repetition operator"},
		{`"path":"/v1/pets","bodyMatches":[{"contains":"x"}]`, "when.bodyMatches[0]: listPets takes no body"},
	} {
		resp := ts.admin(t, "PUT", "expectations", `{"when":{"method":"GET",`+tt.when+`},"answer":`+canned+`}`)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("when {%s}: %s, want 400 %q", tt.when, resp, tt.want)
		}
	}
	for _, tt := range []struct{ match, want string }{
		{`{"jsonPath":"$.nmae","equals":"Rex"}`, `when.bodyMatches[0].jsonPath: $.nmae can select nothing in the body of createPet: "nmae" is not in the schema`},
		{`{"jsonPath":"$.tags[?(@.x)]","equals":"Rex"}`, "when.bodyMatches[0].jsonPath: $.tags[?(@.x)]: [?(@.x)]: petmock takes a name in quotes, an index, or *"},
		{`{"jsonPath":"$.name"}`, "when.bodyMatches[0]: says nothing"},
		{`{"contains":"a","equalsJson":{}}`, "when.bodyMatches[0]: give one of equals, contains, matches, absent or equalsJson, not several"},
		{`{"matches":"+"}`, "when.bodyMatches[0].matches: missing argument to repetition operator"},
		{`{"jsonPath":"$.name","colour":"red"}`, "when.bodyMatches.0.colour: is not a member"},
	} {
		resp := ts.admin(t, "PUT", "expectations", `{"when":{"method":"POST","path":"/v1/pets","bodyMatches":[`+tt.match+`]},
			"answer":{"status":201,"headers":{"Location":"/v1/pets/1"},"body":{"id":1,"name":"a","categoryId":1}}}`)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("bodyMatches [%s]: %s, want 400 %q", tt.match, resp, tt.want)
		}
	}
	if list := ts.admin(t, "GET", "expectations", "").expectationList(t); len(list) != 0 {
		t.Errorf("expectations after refusals: %+v, want none", list)
	}
}

// TestMatchersShownAsSet: GET lists the matchers as they were set, a
// value to equal as a string, and a header that carries a key hidden
// whole.
func TestMatchersShownAsSet(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets","query":{"status":"sold","limit":{"matches":"^[0-9]+$"}},
		"headers":{"Authorization":{"contains":"`+key+`"},"X-Trace":{"absent":true}},"cookies":{"theme":{"equals":"dark"}}},"answer":`+canned+`}`)
	body := string(ts.admin(t, "GET", "expectations", "").body)
	for _, want := range []string{
		`"query":{"limit":{"matches":"^[0-9]+$"},"status":"sold"}`,
		`"headers":{"Authorization":{"contains":"[redacted]"},"X-Trace":{"absent":true}}`,
		`"cookies":{"theme":"dark"}`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("GET expectations: %s, want it to hold %s", body, want)
		}
	}
	if strings.Contains(body, key) {
		t.Errorf("GET expectations shows the key: %s", body)
	}
	if resp := ts.do(t, "GET", "/pets?status=sold&limit=3", "", "Cookie", "theme=dark"); !resp.answeredByExpectation() {
		t.Errorf("GET /v1/pets?status=sold&limit=3 with the key in Authorization: %s, want the expectation's answer", resp)
	}
}

// TestPriority: a request looks at the expectations of priority 1 first,
// then 2, and those of a priority in the order set, whatever the order in
// which the priorities were set.
func TestPriority(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	answer := func(message string) string {
		return `{"status":404,"body":{"code":"not_found","message":"` + message + `","status":404}}`
	}
	ts.expect(t, `{"when":{"method":"GET","path":"/pets/{petId}"},"answer":`+answer("any, default")+`}`)
	ts.expect(t, `{"when":{"method":"GET","path":"/pets/{petId}"},"answer":`+answer("any, low")+`,"priority":9}`)
	ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets/7"},"answer":`+answer("seven, first")+`,"priority":1,"times":1}`)
	ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets/7"},"answer":`+answer("seven, second")+`,"priority":1}`)
	var ids []int64
	for _, e := range ts.admin(t, "GET", "expectations", "").expectationList(t) {
		ids = append(ids, e.ID)
	}
	if fmt.Sprint(ids) != "[3 4 1 2]" {
		t.Errorf("GET expectations lists ids %v, want [3 4 1 2]: by priority, then in the order set", ids)
	}
	var got []string
	for _, path := range []string{"/pets/7", "/pets/7", "/pets/8"} {
		got = append(got, ts.do(t, "GET", path, "").apiError(t).Message)
	}
	if want := []string{"seven, first", "seven, second", "any, default"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("answers %q, want %q", got, want)
	}
	for _, body := range []string{`"priority":-1`, `"priority":1001`} {
		resp := ts.admin(t, "PUT", "expectations", `{"when":{"method":"GET","path":"/v1/pets"},"answer":`+canned+`,`+body+`}`)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, "priority: must be") {
			t.Errorf("PUT expectations with %s: %s, want 400 naming priority", body, resp)
		}
	}
}

// TestQueryOfAnEarlierPetmock: an expectation written as an earlier
// petmock wrote them, as a settings file of --state holds it, reads into
// the same Go values, and is written back the same.
func TestQueryOfAnEarlierPetmock(t *testing.T) {
	const saved = `{"id":3,"operation":"listPets","when":{"method":"GET","path":"/v1/pets","query":{"status":"sold"},"body":{"/name":"Rex"}},"answer":{"status":200,"body":[]},"times":2,"remaining":1,"matched":1}`
	var e steer.Expectation
	dec := json.NewDecoder(strings.NewReader(saved))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		t.Fatal(err)
	}
	if e.When.Query["status"] != "sold" || len(e.When.QueryMatches) != 0 || e.Remaining != 1 || string(e.When.Body["/name"]) != `"Rex"` {
		t.Errorf("read %+v", e)
	}
	again, _ := json.Marshal(e)
	if string(again) != saved {
		t.Errorf("written back as\n%s\nwant\n%s", again, saved)
	}
}
