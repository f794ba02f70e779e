package admin_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// TestExpectationAnswersWithTheRequestsValues: an answer that uses a path
// parameter, a query parameter, a header or a body member takes each
// request's own, typed as its schema says.
func TestExpectationAnswersWithTheRequestsValues(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	ts.expect(t, `{"when":{"method":"GET","path":"/pets/{petId}"},
		"answer":{"status":200,"body":{"id":"{{path.petId}}","name":"Pet {{ path.petId }}","categoryId":1}}}`)
	ts.expect(t, `{"when":{"method":"POST","path":"/v1/pets","body":{"/status":"pending"}},
		"answer":{"status":201,"headers":{"Location":"/v1/pets/{{body/categoryId}}0"},"body":{"id":1000,"name":"{{body/name}}","categoryId":"{{body/categoryId}}","status":"{{body/status}}"}}}`)
	ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets","query":{"status":{"contains":"l"}},"headers":{"X-Trace":{"matches":"^[a-z]+$"}}},
		"answer":{"status":200,"body":[{"id":1,"name":"traced {{header.X-Trace}}","categoryId":1,"status":"{{query.status}}"}]}}`)
	for _, tt := range []struct {
		method, path, body string
		headers            []string
		want               string
	}{
		{"GET", "/pets/12", "", nil, `{"name":"Pet 12","categoryId":1,"id":12}`},
		{"GET", "/pets/9007199254740993", "", nil, `{"name":"Pet 9007199254740993","categoryId":1,"id":9007199254740993}`},
		{"POST", "/pets", `{"name":"Rex \"the dog\"","categoryId":3,"status":"pending"}`, nil, `{"name":"Rex \"the dog\"","categoryId":3,"status":"pending","id":1000}`},
		{"GET", "/pets?status=sold", "", []string{"X-Trace", "abc"}, `[{"name":"traced abc","categoryId":1,"status":"sold","id":1}]`},
		{"GET", "/pets?status=available", "", []string{"X-Trace", "xyz"}, `[{"name":"traced xyz","categoryId":1,"status":"available","id":1}]`},
	} {
		resp := ts.do(t, tt.method, tt.path, tt.body, tt.headers...)
		if strings.TrimSpace(string(resp.body)) != tt.want {
			t.Errorf("%s /v1%s %s: %s, want %s", tt.method, tt.path, tt.body, resp, tt.want)
		}
	}
	if got := ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":4,"status":"pending"}`).Header.Get("Location"); got != "/v1/pets/40" {
		t.Errorf("Location %q, want the one made of the body, /v1/pets/40", got)
	}
}

// TestExpectationTemplatesRefused: an answer that would use a value a
// request may not give, or one of which some value breaks the answer's
// schema where it goes, is refused when it is set, saying why.
func TestExpectationTemplatesRefused(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	pet := func(id, name string) string {
		return `{"status":200,"body":{"id":` + id + `,"name":` + name + `,"categoryId":1}}`
	}
	for _, tt := range []struct{ when, answer, want string }{
		{`"method":"GET","path":"/pets/{petId}"`, pet(`1`, `"{{path.petId}}"`),
			"answer.body.name: {{path.petId}} may take a value the answer's schema refuses there: it is an integer (int64), and the answer's schema there is a string"},
		{`"method":"GET","path":"/pets/{petId}"`, pet(`"x{{path.petId}}"`, `"a"`),
			"answer.body.id: {{path.petId}} makes text the answer's schema may refuse there: it is integer, not text"},
		{`"method":"GET","path":"/pets/{petId}"`, pet(`1`, `"{{path.id}}"`),
			"answer.body.name: {{path.id}}: not a path parameter of getPet; its path parameters are petId"},
		{`"method":"GET","path":"/pets/{petId}"`, pet(`1`, `"{{paht.petId}}"`),
			"answer.body.name: {{paht.petId}}: want {{path.NAME}}, {{query.NAME}}, {{header.NAME}} or {{body/POINTER}}"},
		{`"method":"GET","path":"/pets/{petId}"`, pet(`1`, `"{{path.petId!}}"`),
			`answer.body.name: "{{path.petId!}}": a value of the request is written {{path.NAME}}`},
		{`"method":"GET","path":"/pets/{petId}"`, pet(`1`, `"{{body/name}}"`),
			"answer.body.name: {{body/name}}: getPet takes no JSON body"},
		{`"method":"GET","path":"/pets"`, `{"status":200,"body":[{"id":"{{query.limit}}","name":"a","categoryId":1}]}`,
			"answer.body.0.id: {{query.limit}}: the query parameter limit may be absent: listPets does not require it; match it in when.query"},
		{`"method":"GET","path":"/pets","query":{"limit":{"absent":true}}`, `{"status":200,"body":[{"id":"{{query.limit}}","name":"a","categoryId":1}]}`,
			"answer.body.0.id: {{query.limit}}: the query parameter limit may be absent"},
		{`"method":"GET","path":"/pets","query":{"status":"sold"}`, `{"status":200,"body":[{"id":1,"name":"a","categoryId":"{{query.status}}"}]}`,
			"answer.body.0.categoryId: {{query.status}} may take a value the answer's schema refuses there: it may be available, which the answer's schema refuses"},
		{`"method":"GET","path":"/pets"`, `{"status":200,"body":[{"id":1,"name":"{{header.X-Trace}}","categoryId":1}]}`,
			"answer.body.0.name: {{header.X-Trace}}: the header X-Trace may be absent: match it in when.headers"},
		{`"method":"POST","path":"/pets"`, `{"status":201,"headers":{"Location":"/v1/pets/1"},"body":{"id":1,"name":"a","categoryId":1,"status":"{{body/status}}"}}`,
			"answer.body.status: {{body/status}}: /status may be absent: the schema of the body does not require it; match it in when.body"},
		{`"method":"POST","path":"/pets"`, `{"status":201,"headers":{"Location":"/v1/pets/1"},"body":{"id":1,"name":"{{body/nmae}}","categoryId":1}}`,
			"answer.body.name: {{body/nmae}}: /nmae is not in the schema"},
		{`"method":"POST","path":"/pets"`, `{"status":201,"headers":{"Location":"/v1/pets/1"},"body":{"id":1,"name":"{{body}}","categoryId":1}}`,
			"answer.body.name: {{body}} may take a value the answer's schema refuses there: it is an object, and the answer's schema there is a string"},
		{`"method":"POST","path":"/pets"`, `{"status":201,"headers":{"Location":"/v1/pets/1"},"body":{"id":1,"name":"a {{body}}","categoryId":1}}`,
			"answer.body.name: {{body}} is an object or an array, which text cannot hold"},
	} {
		resp := ts.admin(t, "PUT", "expectations", `{"when":{`+tt.when+`},"answer":`+tt.answer+`}`)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("when {%s} answer %s: %s, want 400 %q", tt.when, tt.answer, resp, tt.want)
		}
	}
	if list := ts.admin(t, "GET", "expectations", "").expectationList(t); len(list) != 0 {
		t.Errorf("expectations after refusals: %+v, want none", list)
	}
}

// TestExpectationDelay: an expectation's answer waits its delay, a lower
// bound no slow machine breaks, on top of the settings' latency.
func TestExpectationDelay(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets"},"answer":`+canned+`,"delay":"300ms"}`)
	ts.expect(t, `{"when":{"method":"GET","path":"/pets/{petId}"},"answer":{"status":404,"body":`+missing7+`},"delay":"100ms-200ms"}`)
	for _, tt := range []struct {
		path  string
		least time.Duration
	}{{"/pets", 300 * time.Millisecond}, {"/pets/7", 100 * time.Millisecond}} {
		start := time.Now()
		resp := ts.do(t, "GET", tt.path, "")
		if took := time.Since(start); took < tt.least {
			t.Errorf("GET /v1%s with a delay: answered after %s, under %s", tt.path, took, tt.least)
		}
		if resp.StatusCode == 200 && !resp.answeredByExpectation() {
			t.Errorf("GET /v1%s: %s, want the expectation's answer", tt.path, resp)
		}
	}
	for _, tt := range []struct{ delay, want string }{
		{`"fast"`, `delay: "fast": want a duration such as 800ms or a range such as 50ms-300ms, of at most 30s`},
		{`"31s"`, `delay: "31s"`},
		{`"300ms-100ms"`, `delay: "300ms-100ms"`},
	} {
		resp := ts.admin(t, "PUT", "expectations", `{"when":{"method":"GET","path":"/v1/pets"},"answer":`+canned+`,"delay":`+tt.delay+`}`)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("delay %s: %s, want 400 %q", tt.delay, resp, tt.want)
		}
	}
}

// TestExpectationFault: the requests an expectation matches meet its
// fault, and others do not; a failure needs no answer, a slow or
// dribbled body does; the journal names both the fault and the
// expectation.
func TestExpectationFault(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	reset := ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets/7"},"fault":"reset"}`)
	ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets/8"},"answer":{"status":404,"body":{"code":"not_found","message":"eight","status":404}},"fault":"dribble","chunks":3,"duration":"300ms"}`)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	get := func(path string) (*http.Response, []byte, error) {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := client.Do(req)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp, body, err
	}
	if _, _, err := get("/pets/7"); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("GET /v1/pets/7, whose expectation resets: %v, want ECONNRESET", err)
	}
	start := time.Now()
	resp, body, err := get("/pets/8")
	if err != nil || resp.StatusCode != 404 || !strings.Contains(string(body), `"message":"eight"`) || resp.ContentLength != -1 {
		t.Errorf("GET /v1/pets/8, whose expectation dribbles: %v %s, %v; want the whole 404, chunked", resp, body, err)
	}
	if took := time.Since(start); took < 200*time.Millisecond {
		t.Errorf("GET /v1/pets/8 dribbled in 3 chunks over 300ms came in %s", took)
	}
	if resp, _, err := get("/pets/9"); err != nil || resp.StatusCode != 200 {
		t.Errorf("GET /v1/pets/9, of no expectation: %v %v, want 200", resp, err)
	}
	var j []struct {
		Path, Fault string
		Expectation int64
	}
	for _, x := range ts.journal(t) {
		j = append(j, struct {
			Path, Fault string
			Expectation int64
		}{x.Path, x.Fault, x.Expectation})
	}
	if len(j) < 3 || j[2].Path != "/v1/pets/7" || j[2].Fault != "reset" || j[2].Expectation != reset.ID || j[1].Fault != "dribble" {
		t.Errorf("journal %+v, want the reset and the dribble named, with their expectations", j)
	}
	for _, tt := range []struct{ body, want string }{
		{`{"when":{"method":"GET","path":"/v1/pets"},"fault":"slow"}`, "answer: is required, but with a fault that answers nothing: reset, empty, malformed-chunk, random-data"},
		{`{"when":{"method":"GET","path":"/v1/pets"}}`, "answer: is required"},
		{`{"when":{"method":"GET","path":"/v1/pets"},"fault":"boom"}`, "fault: must be one of reset, empty, malformed-chunk, random-data, slow, dribble"},
		{`{"when":{"method":"GET","path":"/v1/pets"},"answer":` + canned + `,"chunks":3}`, "chunks: goes with the fault dribble only"},
		{`{"when":{"method":"GET","path":"/v1/pets"},"answer":` + canned + `,"fault":"reset","bytesPerSecond":3}`, "bytesPerSecond: goes with the fault slow only"},
	} {
		resp := ts.admin(t, "PUT", "expectations", tt.body)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("PUT expectations %s: %s, want 400 %q", tt.body, resp, tt.want)
		}
	}
}

// TestExpectationTemplateOfAValueHTTPRefuses: a value of the request that
// the answer cannot take after all, such as a body member with a line
// break put in a header, makes no answer of the expectation: the request
// is answered as if none matched, and no header is split.
func TestExpectationTemplateOfAValueHTTPRefuses(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	ts.expect(t, `{"when":{"method":"POST","path":"/v1/pets"},
		"answer":{"status":201,"headers":{"Location":"/v1/pets/{{body/name}}"},"body":{"id":1,"name":"{{body/name}}","categoryId":1}}}`)
	if resp := ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`); resp.Header.Get("Location") != "/v1/pets/Rex" {
		t.Errorf("POST /v1/pets: %s with Location %q, want the expectation's", resp, resp.Header.Get("Location"))
	}
	resp := ts.do(t, "POST", "/pets", `{"name":"Rex\r\nX-Injected: yes","categoryId":1}`)
	if resp.StatusCode != 201 || resp.Header.Get("X-Injected") != "" || resp.pet(t).ID == 1 {
		t.Errorf("POST /v1/pets with a line break in the name: %s, headers %v; want the pet created by petmock, no header split", resp, resp.Header)
	}
}
