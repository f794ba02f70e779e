package mockserver_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// expectation reads an expectation written as JSON, as PUT
// /__petmock/expectations takes it.
func expectation(tb testing.TB, text string) steer.Expectation {
	tb.Helper()
	var e steer.Expectation
	if err := json.Unmarshal([]byte(text), &e); err != nil {
		tb.Fatalf("expectation %s: %v", text, err)
	}
	return e
}

// expect sets the expectation written as JSON, and fails the test if it
// is refused.
func expect(tb testing.TB, srv *mockserver.Server, text string) steer.Expectation {
	tb.Helper()
	set, err := srv.Steering().Expect(expectation(tb, text))
	if err != nil {
		tb.Fatalf("Expect %s: %v", text, err)
	}
	return set
}

const missing7 = `{"code":"not_found","message":"petId: no pet has id 7","status":404}`

func TestExpectationsAnswerTheRequestsTheyMatch(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	expect(t, ts.Server, `{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":404,"body":`+missing7+`}}`)
	expect(t, ts.Server, `{"when":{"method":"GET","path":"/pets","query":{"status":"sold"}},"answer":{"status":200,"body":[]}}`)
	expect(t, ts.Server, `{"when":{"method":"POST","path":"/v1/pets","body":{"/name":"Rex","/categoryId":2.0}},
		"answer":{"status":201,"headers":{"Location":"/v1/pets/42"},"body":{"status":"pending","id":42,"name":"Rex","categoryId":2}}}`)
	before := ts.Items().Store("pets").Len()
	for _, tt := range []struct {
		method, path, body string
		status             int
		want               string // the body; "" for the usual answer
	}{
		{"GET", "/pets/7", "", 404, missing7 + "\n"},
		{"HEAD", "/pets/7", "", 404, ""},
		{"GET", "/pets/8", "", 200, ""},
		{"GET", "/pets?status=sold", "", 200, "[]\n"},
		{"GET", "/pets?limit=5&status=sold", "", 200, "[]\n"},
		{"GET", "/pets?status=pending&limit=1", "", 200, ""},
		{"GET", "/pets", "", 200, ""},
		// Declared members in the document's order, whatever the order given.
		{"POST", "/pets", `{"name":"Rex","categoryId":2}`, 201, `{"name":"Rex","categoryId":2,"status":"pending","id":42}` + "\n"},
		{"POST", "/pets", `{"categoryId":2,"name":"Rex","status":"sold"}`, 201, `{"name":"Rex","categoryId":2,"status":"pending","id":42}` + "\n"},
		{"POST", "/pets", `{"name":"Rex","categoryId":3}`, 201, ""},
		// A request the edge refuses is refused, expectation or not.
		{"POST", "/pets", `{"name":"Rex","categoryId":"two"}`, 400, ""},
	} {
		resp := ts.do(t, tt.method, tt.path, tt.body)
		what := tt.method + " /v1" + tt.path + " " + tt.body
		if resp.StatusCode != tt.status {
			t.Errorf("%s: %s, want %d", what, resp, tt.status)
			continue
		}
		if tt.want != "" && string(resp.body) != tt.want {
			t.Errorf("%s: %s, want %s", what, resp.body, tt.want)
		}
		if tt.want == "" && tt.method == "GET" && strings.Contains(string(resp.body), "no pet has id 7") {
			t.Errorf("%s: %s, want the usual answer", what, resp.body)
		}
	}
	if got := ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":2}`).Header.Get("Location"); got != "/v1/pets/42" {
		t.Errorf("POST /v1/pets answered by an expectation: Location %q, want the one it gives", got)
	}
	if got := ts.do(t, "GET", "/pets/7", "").Header.Get("Sunset"); got == "" {
		t.Errorf("GET /v1/pets/7 answered by an expectation: no Sunset; the deprecation's headers stay")
	}
	// Of the creates, only the one no expectation matched was made.
	if n := ts.Items().Store("pets").Len(); n != before+1 {
		t.Errorf("%d pets stored, want %d: a request an expectation answers is not processed", n, before+1)
	}
	if j := journaled(t, ts.Server, "GET", "/v1/pets/7"); len(j) != 1 || j[0].Expectation != 1 {
		t.Errorf("journal of a request an expectation answered: %+v, want expectation 1 named", j)
	}
	if resp := ts.do(t, "GET", "/pets/7", "", "Authorization", ""); resp.StatusCode != 401 {
		t.Errorf("GET /v1/pets/7 without a key: %s, want 401 whatever an expectation says", resp)
	}
	var matched []int64
	for _, e := range ts.Steering().Expectations() {
		matched = append(matched, e.Matched)
	}
	if fmt.Sprint(matched) != "[3 2 3]" {
		t.Errorf("matched counts %v, want [3 2 3]", matched)
	}
}

func TestExpectationsTemplatesOrderAndTimes(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	first := expect(t, ts.Server, `{"when":{"method":"GET","path":"/pets/{petId}"},"answer":{"status":404,"body":{"code":"not_found","message":"first","status":404}},"times":2}`)
	expect(t, ts.Server, `{"when":{"method":"GET","path":"/v1/pets/{petId}"},"answer":{"status":404,"body":{"code":"not_found","message":"second","status":404}}}`)
	if first.Operation != "getPet" || first.Remaining != 2 {
		t.Errorf("Expect: %+v, want the operation getPet found and 2 remaining", first)
	}
	var got []string
	for _, path := range []string{"/pets/1", "/pets/2", "/pets/3", "/pets/4"} {
		got = append(got, ts.do(t, "GET", path, "").apiError(t).Message)
	}
	if strings.Join(got, " ") != "first first second second" {
		t.Errorf("messages %v, want the first expectation twice, then the second", got)
	}
	if all := ts.Steering().Expectations(); len(all) != 1 || all[0].When.Path != "/v1/pets/{petId}" {
		t.Errorf("expectations %+v, want the second alone, the first dropped once it answered its times", all)
	}
	if err := ts.Steering().RemoveExpectation(first.ID); !isStatus(err, 404) {
		t.Errorf("RemoveExpectation of a dropped one: %v, want a 404", err)
	}
	ts.Steering().ClearExpectations()
	if resp := ts.do(t, "GET", "/pets/1", ""); resp.StatusCode != 200 {
		t.Errorf("GET /v1/pets/1 after ClearExpectations: %s, want 200", resp)
	}
}

func isStatus(err error, status int) bool {
	var e *edge.Error
	return errors.As(err, &e) && e.Status == status
}

// TestPreferAndForcedAnswersWinOverExpectations: a request's own Prefer
// and the answers forced from the admin API come first.
func TestPreferAndForcedAnswersWinOverExpectations(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	expect(t, ts.Server, `{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":404,"body":`+missing7+`}}`)
	if resp := ts.do(t, "GET", "/pets/7", "", "Prefer", "code=400"); resp.StatusCode != 400 {
		t.Errorf("GET /v1/pets/7 with Prefer: code=400: %s, want 400", resp)
	}
	if err := ts.Steering().Force(401, 1, "getPet"); err != nil {
		t.Fatal(err)
	}
	if resp := ts.do(t, "GET", "/pets/7", ""); resp.StatusCode != 401 {
		t.Errorf("GET /v1/pets/7 with a 401 forced: %s, want 401", resp)
	}
	if resp := ts.do(t, "GET", "/pets/7", ""); resp.StatusCode != 404 {
		t.Errorf("GET /v1/pets/7 once the forced answer was taken: %s, want the expectation's 404", resp)
	}
}

// TestExpectationsThatBreakTheDocument: an expectation whose answer the
// document does not allow, or that could never match, is refused with a
// 400 that names the member at fault, and nothing is set.
func TestExpectationsThatBreakTheDocument(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	const pet = `{"id":1,"name":"Rex","categoryId":1}`
	for _, tt := range []struct{ text, want string }{
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":201,"body":` + pet + `}}`,
			"answer.status: 201 is not documented for getPet; use one of 200, 400, 401, 404, 410, or 500 or 503 to rehearse an outage"},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":99}}`, "answer.status: 99: want an HTTP status"},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":200,"body":{"id":1,"categoryId":1}}}`, "answer.body.name: is required"},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":200,"body":{"id":1,"name":"Rex","categoryId":1,"status":"lost"}}}`,
			"answer.body.status: must be one of available, pending, sold"},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":200,"body":{"id":1.5,"name":"Rex","categoryId":1}}}`, "answer.body.id: must be an integer"},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":200,"body":{"id":9223372036854775808,"name":"Rex","categoryId":1}}}`, "answer.body.id: "},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":200}}`, "answer.body: is required: the 200 answer of getPet has a body of application/json"},
		{`{"when":{"method":"GET","path":"/v1/pets"},"answer":{"status":200,"body":{}}}`, "answer.body: must be an array"},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":404,"body":{"code":"not_found","message":"gone","status":400}}}`,
			"answer.body.status: 400, but the answer's status is 404"},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":200,"headers":{"Content-Type":"text/html"},"body":` + pet + `}}`,
			"answer.headers.Content-Type: petmock sets it itself"},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":200,"headers":{"Deprecation":"soon"},"body":` + pet + `}}`,
			"answer.headers.Deprecation: "},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":200,"headers":{"X-Bad":"a\nb"},"body":` + pet + `}}`,
			"answer.headers.X-Bad: the value holds a character HTTP does not allow"},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":200,"headers":{"X Bad":"a"},"body":` + pet + `}}`,
			"answer.headers.X Bad: the name is not a valid HTTP token"},
		{`{"when":{"method":"GET","path":"/v1/cats/1"},"answer":{"status":200,"body":` + pet + `}}`, "when.path: GET /v1/cats/1 is no operation of the document"},
		{`{"when":{"method":"DELETE","path":"/v1/pets/1"},"answer":{"status":204}}`, "when.path: DELETE /v1/pets/1 is no operation of the document"},
		{`{"when":{"method":"GET","path":"/pets/{id}"},"answer":{"status":200,"body":` + pet + `}}`, "when.path: GET /pets/{id} is no operation of the document"},
		{`{"when":{"method":"GET","path":"pets/1"},"answer":{"status":200,"body":` + pet + `}}`, `when.path: "pets/1": want a path such as /v1/pets/7`},
		{`{"when":{"method":"GET","path":"/v1/pets?limit=1"},"answer":{"status":200,"body":[]}}`, "when.path: /v1/pets?limit=1 holds a query or a fragment; give the query parameters in when.query"},
		{`{"when":{"method":"GET","path":"/v1/pets/abc"},"answer":{"status":200,"body":` + pet + `}}`, "when.path: petId: must be an integer"},
		{`{"when":{"method":"G T","path":"/v1/pets/1"},"answer":{"status":200,"body":` + pet + `}}`, `when.method: "G T": want an HTTP method such as GET`},
		{`{"when":{"method":"GET","path":"/v1/pets","query":{"colour":"red"}},"answer":{"status":200,"body":[]}}`,
			"when.query.colour: not a query parameter of listPets; its query parameters are limit, status, cursor"},
		{`{"when":{"method":"GET","path":"/v1/pets","query":{"limit":"0"}},"answer":{"status":200,"body":[]}}`, "when.query.limit: limit: must be at least 1"},
		{`{"when":{"method":"GET","path":"/v1/pets/1","query":{"limit":"1"}},"answer":{"status":200,"body":` + pet + `}}`,
			"when.query.limit: not a query parameter of getPet; it declares none"},
		{`{"when":{"method":"GET","path":"/v1/pets","body":{"/name":"Rex"}},"answer":{"status":200,"body":[]}}`, "when.body: listPets takes no JSON body"},
		{`{"when":{"method":"POST","path":"/v1/pets","body":{"name":"Rex"}},"answer":{"status":201,"body":` + pet + `}}`, "when.body.name: not a JSON pointer"},
		{`{"when":{"method":"GET","path":"/v1/pets/1"},"answer":{"status":200,"body":` + pet + `},"times":-1}`, "times: -1: want a number of requests"},
	} {
		_, err := ts.Steering().Expect(expectation(t, tt.text))
		var e *edge.Error
		if !errors.As(err, &e) || e.Status != 400 || !strings.HasPrefix(e.Message, tt.want) {
			t.Errorf("Expect %s: %v, want 400 %q", tt.text, err, tt.want)
		}
	}
	if n := len(ts.Steering().Expectations()); n != 0 {
		t.Errorf("%d expectations set, want none", n)
	}
}

// TestExpectationsOfARequiredHeader: the headers a response requires
// must be in the answer, with values of their schemas; a text answer is a
// JSON string.
func TestExpectationsOfARequiredHeader(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Contract: exampleDocument(t)})
	for _, tt := range []struct{ text, want string }{
		{`{"when":{"method":"GET","path":"/v1/pets"},"answer":{"status":200,"body":[]}}`,
			"answer.headers.X-Total-Count: is required: the document requires it on the 200 answer of listPets"},
		{`{"when":{"method":"GET","path":"/v1/pets"},"answer":{"status":200,"headers":{"x-total-count":"many"},"body":[]}}`,
			"answer.headers.x-total-count: must be an integer"},
		{`{"when":{"method":"GET","path":"/v1/pets"},"answer":{"status":200,"headers":{"X-Total-Count":"-1"},"body":[]}}`,
			"answer.headers.X-Total-Count: must be at least 0"},
		{`{"when":{"method":"GET","path":"/v1/motd"},"answer":{"status":200,"body":{"text":"hi"}}}`,
			"answer.body: must be a string"},
	} {
		if _, err := ts.Steering().Expect(expectation(t, tt.text)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Expect %s: %v, want 400 %q", tt.text, err, tt.want)
		}
	}
	expect(t, ts.Server, `{"when":{"method":"GET","path":"/v1/pets"},"answer":{"status":200,"headers":{"x-total-count":"0"},"body":[]}}`)
	expect(t, ts.Server, `{"when":{"method":"GET","path":"/v1/motd"},"answer":{"status":200,"body":"hi there"}}`)
	if resp := ts.do(t, "GET", "/pets", ""); string(resp.body) != "[]\n" || resp.Header.Get("X-Total-Count") != "0" {
		t.Errorf("GET /v1/pets: %s with X-Total-Count %q, want [] and 0", resp, resp.Header.Get("X-Total-Count"))
	}
	if resp := ts.do(t, "GET", "/motd", ""); string(resp.body) != "hi there" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Errorf("GET /v1/motd: %s (%s), want the text", resp, resp.Header.Get("Content-Type"))
	}
}

// TestExpectationsAreBounded: past MaxExpectations, or past
// MaxExpectationBytes together, one more is refused.
func TestExpectationsAreBounded(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for i := range steer.MaxExpectations {
		expect(t, ts.Server, fmt.Sprintf(`{"when":{"method":"GET","path":"/v1/pets/%d"},"answer":{"status":404,"body":%s}}`, i+1, missing7))
	}
	one := fmt.Sprintf(`{"when":{"method":"GET","path":"/v1/pets/1000"},"answer":{"status":404,"body":%s}}`, missing7)
	if _, err := ts.Steering().Expect(expectation(t, one)); !isStatus(err, 400) || !strings.Contains(err.Error(), "expectations: 100 are set already") {
		t.Errorf("Expect past %d: %v, want a 400 that says so", steer.MaxExpectations, err)
	}
	ts.Steering().ClearExpectations()

	var pets []string
	for i := range 1000 {
		pets = append(pets, fmt.Sprintf(`{"id":%d,"name":"%s","categoryId":1}`, i+1, strings.Repeat("n", 100)))
	}
	large := `{"when":{"method":"GET","path":"/v1/pets"},"answer":{"status":200,"body":[` + strings.Join(pets, ",") + `]}}`
	set := 0
	var err error
	for ; err == nil && set <= steer.MaxExpectations; set++ {
		_, err = ts.Steering().Expect(expectation(t, large))
	}
	if !isStatus(err, 400) || !strings.Contains(err.Error(), "past the 4194304 the expectations may hold together") {
		t.Errorf("Expect of %d large expectations: %v, want a 400 of the bytes they hold", set, err)
	}
	if held := len(ts.Steering().Expectations()) * len(large); held > steer.MaxExpectationBytes+len(large) {
		t.Errorf("the expectations hold about %d bytes, past the bound", held)
	}
}

// TestExpectationsHideTheKey: the view of the expectations, and the log,
// hide a key petmock accepts wherever it stands; the expectations as set
// keep it, for a command that saves them.
func TestExpectationsHideTheKey(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	pet := `{"id":1,"name":"` + key + `","categoryId":1}`
	expect(t, ts.Server, `{"when":{"method":"POST","path":"/v1/pets","body":{"/name":"`+key+`"}},
		"answer":{"status":201,"headers":{"Location":"/v1/pets/1?k=`+key+`","Authorization":"x"},"body":`+pet+`}}`)
	view, err := json.Marshal(ts.Steering().Expectations())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(view), key) || !strings.Contains(string(view), "[redacted]") || !json.Valid(view) {
		t.Errorf("Expectations: %s, want the key hidden", view)
	}
	kept, _ := json.Marshal(ts.Steering().ExpectationsAsSet())
	if strings.Count(string(kept), key) != 3 {
		t.Errorf("ExpectationsAsSet: %s, want the key kept where it was set", kept)
	}
}

// TestExpectationsUnderLoad sets, matches and drops expectations at once
// from many goroutines, for the race detector, and checks that an
// expectation of N times answers N requests, not one more.
func TestExpectationsUnderLoad(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	expect(t, ts.Server, `{"when":{"method":"GET","path":"/v1/pets/{petId}"},"answer":{"status":404,"body":`+missing7+`},"times":40}`)
	done := make(chan int)
	for range 4 {
		go func() {
			canned := 0
			for range 20 {
				req, _ := http.NewRequest("GET", ts.URL+"/pets/1", nil)
				req.Header.Set("Authorization", "Bearer "+key)
				resp, err := ts.client.Do(req)
				if err != nil {
					t.Error(err)
					break
				}
				resp.Body.Close()
				if resp.StatusCode == 404 {
					canned++
				}
			}
			done <- canned
		}()
	}
	go func() {
		for i := range 20 {
			var e steer.Expectation
			json.Unmarshal(fmt.Appendf(nil, `{"when":{"method":"GET","path":"/v1/pets","query":{"limit":"%d"}},"answer":{"status":200,"body":[]}}`, i+1), &e)
			if set, err := ts.Steering().Expect(e); err == nil {
				ts.Steering().RemoveExpectation(set.ID)
			}
			ts.Steering().Expectations()
		}
		done <- 0
	}()
	canned := 0
	for range 5 {
		canned += <-done
	}
	if canned != 40 {
		t.Errorf("an expectation of 40 times answered %d of 80 requests", canned)
	}
}

// TestExpectationsOfAnotherDocument: an expectation is checked against, and
// answered in, what petmock answers the document with itself: the JSON
// type of a response of */*, application/json; and, for an outage the
// operation does not document, the error body its document's errors share.
func TestExpectationsOfAnotherDocument(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Contract: document(t, `
  /motd:
    get:
      operationId: getMotd
      security: []
      responses:
        '200': {description: ok, content: {'*/*': {schema: {type: object, required: [text], properties: {text: {type: string}}}}}}
`)})
	expect(t, ts.Server, `{"when":{"method":"GET","path":"/v1/motd"},"answer":{"status":200,"body":{"text":"hi"}}}`)
	if resp := ts.do(t, "GET", "/motd", ""); !strings.Contains(string(resp.body), `"text":"hi"`) || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("GET /v1/motd: %s (%s), want the expectation's, as application/json", resp, resp.Header.Get("Content-Type"))
	}

	const failure = `{description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Failure'}}}}`
	ts = newTestServer(t, mockserver.Config{Contract: errorDocument(t, "        '404': "+failure+"\n", `    Failure:
      type: object
      required: [code, reason]
      properties:
        code: {type: integer}
        reason: {type: string}
`)})
	// A 503 getThing does not document is judged as an outage is: in the
	// document's error body.
	ts.client.Transport.(*contractTransport).checker.outages = true
	if _, err := ts.Steering().Expect(expectation(t, `{"when":{"method":"GET","path":"/v1/things/7"},"answer":{"status":503,"body":{"oops":1}}}`)); err == nil || !strings.Contains(err.Error(), "answer.body") {
		t.Errorf("an outage that is not the document's Failure: %v, want a 400 naming answer.body", err)
	}
	expect(t, ts.Server, `{"when":{"method":"GET","path":"/v1/things/7"},"answer":{"status":503,"body":{"code":503,"reason":"down"}}}`)
	if resp := ts.do(t, "GET", "/things/7", "", "X-API-Key", key); resp.StatusCode != 503 || !strings.Contains(string(resp.body), `"reason":"down"`) {
		t.Errorf("GET /v1/things/7: %s, want the expectation's outage", resp)
	}
}

// TestExpectationsOfOpenAPI31: the answer of an expectation of an OpenAPI
// 3.1 document is checked by the JSON Schema 2020-12 validator, as its
// requests are: a value its const refuses is refused.
func TestExpectationsOfOpenAPI31(t *testing.T) {
	c, err := spec.ReadOptions{}.Read([]byte(`openapi: 3.1.0
info: {title: Small, version: 1.0.0}
paths:
  /version:
    get:
      operationId: getVersion
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, required: [major], properties: {major: {const: 3}}}}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := plainServer(t, mockserver.Config{Contract: c})
	if _, err := srv.Steering().Expect(expectation(t, `{"when":{"method":"GET","path":"/version"},"answer":{"status":200,"body":{"major":4}}}`)); err == nil || !strings.Contains(err.Error(), "answer.body") {
		t.Errorf("major 4 where the schema's const is 3: %v, want a 400 naming answer.body", err)
	}
	expect(t, srv, `{"when":{"method":"GET","path":"/version"},"answer":{"status":200,"body":{"major":3}}}`)
}
