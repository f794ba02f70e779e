package mockserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// The answers of a backend of the Petstore.
const (
	backendPets   = `[{"id":1,"name":"Backend Rex","categoryId":1,"status":"available"}]`
	backendPet    = `{"id":7,"name":"Backend Rex","categoryId":1,"status":"available"}`
	backendError  = `{"code":"not_found","message":"no pet 7","status":404}`
	backendOrigin = "https://app.example"
)

// proxied is a petmock in front of a backend, both served over real
// connections. Its client is a plain one: what the backend answers is
// what the test gets, broken or not.
type proxied struct {
	*mockserver.Server
	url     string // petmock's base URL, ending in /v1
	backend *httptest.Server
	hits    atomic.Int32 // requests the backend got
	// last is the last request the backend got.
	mu   sync.Mutex
	last *http.Request
	log  *syncBuffer
}

// newProxied starts a backend that answers with answer, and petmock in
// front of it with cfg, whose Proxy.URL is the backend's unless set.
func newProxied(tb testing.TB, answer http.HandlerFunc, cfg mockserver.Config) *proxied {
	tb.Helper()
	return newProxiedLogging(tb, answer, cfg, true)
}

// newProxiedLogging is newProxied, which logs to p.log only with logs.
func newProxiedLogging(tb testing.TB, answer http.HandlerFunc, cfg mockserver.Config, logs bool) *proxied {
	tb.Helper()
	p := &proxied{log: &syncBuffer{}}
	p.backend = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.hits.Add(1)
		p.mu.Lock()
		p.last = r.Clone(r.Context())
		p.mu.Unlock()
		answer(w, r)
	}))
	tb.Cleanup(p.backend.Close)
	if cfg.Proxy.URL == "" {
		cfg.Proxy.URL = p.backend.URL + "/v1"
	}
	if logs {
		cfg.Logger = slog.New(slog.NewTextHandler(p.log, nil))
	}
	srv, err := mockserver.New(cfg)
	if err != nil {
		tb.Fatalf("mockserver.New: %v", err)
	}
	hs := httptest.NewServer(srv)
	tb.Cleanup(hs.Close)
	p.Server, p.url = srv, hs.URL+"/v1"
	return p
}

// lastHeader returns a header of the last request the backend got.
func (p *proxied) lastHeader(name string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last == nil {
		return ""
	}
	return p.last.Header.Get(name)
}

// do sends a request to petmock with the default key; headers are name,
// value pairs, an empty value removing the header.
func (p *proxied) do(tb testing.TB, method, path, body string, headers ...string) *response {
	tb.Helper()
	req, err := http.NewRequest(method, p.url+path, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return &response{Response: resp, body: b}
}

// answerWith answers with a status, a JSON body and headers as name, value
// pairs.
func answerWith(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func violationRules(x journal.Exchange) []string {
	var out []string
	for _, v := range x.Violations {
		out = append(out, v.Rule)
	}
	return out
}

// TestProxyRelaysTheBackend: an answer of the backend that the document
// describes is relayed as it came, saying so, and breaks nothing; the
// browser still gets petmock's CORS, and a URL that leads to the backend
// leads to petmock.
func TestProxyRelaysTheBackend(t *testing.T) {
	var backendURL string
	p := newProxied(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			body, _ := io.ReadAll(r.Body)
			if string(body) != `{"name":"Rex","categoryId":2}` {
				http.Error(w, "unexpected body "+string(body), 500)
				return
			}
			answerWith(201, `{"id":51,"name":"Rex","categoryId":2,"status":"available"}`, "Location", backendURL+"/v1/pets/51")(w, r)
		default:
			answerWith(200, backendPets, "Access-Control-Allow-Origin", "*", "Vary", "Accept-Encoding", "X-Backend", "staging")(w, r)
		}
	}, mockserver.Config{})
	backendURL = p.backend.URL

	list := p.do(t, "GET", "/pets?limit=1", "", "Origin", backendOrigin)
	if list.StatusCode != 200 || string(list.body) != backendPets {
		t.Fatalf("GET /v1/pets?limit=1: %s, want the backend's 200 %s", list, backendPets)
	}
	for name, want := range map[string]string{
		mockserver.SourceHeader:       mockserver.SourceBackend,
		"X-Backend":                   "staging",
		"Access-Control-Allow-Origin": backendOrigin,
	} {
		if got := list.Header.Get(name); got != want {
			t.Errorf("GET /v1/pets: %s = %q, want %q", name, got, want)
		}
	}
	if vary := list.Header.Values("Vary"); !slices.Contains(vary, "Origin") || !slices.Contains(vary, "Accept-Encoding") {
		t.Errorf("GET /v1/pets: Vary = %q, want petmock's Origin and the backend's Accept-Encoding", vary)
	}
	if !strings.Contains(list.Header.Get("Access-Control-Expose-Headers"), mockserver.SourceHeader) {
		t.Errorf("a browser app cannot read %s: Access-Control-Expose-Headers = %q", mockserver.SourceHeader, list.Header.Get("Access-Control-Expose-Headers"))
	}

	created := p.do(t, "POST", "/pets", `{"name":"Rex","categoryId":2}`)
	if created.StatusCode != 201 || created.Header.Get("Location") != p.url+"/pets/51" {
		t.Errorf("POST /v1/pets: %s, Location %q; want 201 and Location %s", created, created.Header.Get("Location"), p.url+"/pets/51")
	}
	if got := p.Violations().Recent(0); len(got) != 0 {
		t.Errorf("answers the document describes broke %+v", got)
	}
	if p.Items().Store("pets").Len() != 50 {
		t.Errorf("the mock's store holds %d pets after a create the backend answered, want the 50 it started with", p.Items().Store("pets").Len())
	}
	journal := p.Journal().Recent(0)
	if len(journal) != 2 || journal[0].Source != mockserver.SourceBackend || journal[0].Request.Body != `{"name":"Rex","categoryId":2}` || len(journal[0].Violations) != 0 {
		t.Errorf("journal = %+v, want the two requests, by the backend, the create's body kept, and no violation", journal)
	}
	p.FlushLog()
	if !strings.Contains(p.log.String(), "source=backend") {
		t.Errorf("the request log does not say who answered:\n%s", p.log)
	}
}

// TestProxyRelaysWhatPetmockWouldAdd: the backend's answer to a deprecated
// operation has the backend's headers, not the ones petmock would send.
func TestProxyRelaysWhatPetmockWouldAdd(t *testing.T) {
	p := newProxied(t, answerWith(200, backendPet), mockserver.Config{})
	got := p.do(t, "GET", "/pets/7", "")
	if got.StatusCode != 200 || string(got.body) != backendPet {
		t.Fatalf("GET /v1/pets/7: %s, want the backend's", got)
	}
	for _, name := range []string{"Deprecation", "Sunset", "Link"} {
		if v := got.Header.Get(name); v != "" {
			t.Errorf("GET /v1/pets/7: %s: %q, which the backend did not send", name, v)
		}
	}
}

// TestProxyRecordsViolations: each answer of the backend that breaks the
// document is relayed as it came, and recorded with every rule it breaks:
// in the journal, in the violations view, newest first, and in the log,
// a line a rule.
func TestProxyRecordsViolations(t *testing.T) {
	c, err := spec.Read(withRequiredHeader(t, spec.YAML()))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		answer http.HandlerFunc
		path   string
		rules  []string
		says   string
	}{
		{"a pet without categoryId", answerWith(200, `[{"id":1,"name":"Rex"}]`, "X-Request-Id", "r1"), "/pets",
			[]string{answercheck.RuleBody}, `property "categoryId" is missing`},
		{"an undocumented status", answerWith(418, `{"code":"teapot","message":"short and stout","status":418}`), "/pets",
			[]string{answercheck.RuleStatus}, "status 418 is not documented for listPets"},
		{"a missing required header", answerWith(200, backendPets), "/pets",
			[]string{answercheck.RuleHeader}, `response header "X-Request-Id" missing`},
		{"an Error of another status", answerWith(401, `{"code":"unauthorized","message":"no key","status":403}`, "X-Request-Id", "r1"), "/pets",
			[]string{answercheck.RuleErrorShape}, "status is 403, but the HTTP status is 401"},
		{"text for JSON, without the header", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "pets")
		}, "/pets", []string{answercheck.RuleHeader, answercheck.RuleMediaType}, "X-Request-Id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProxied(t, tc.answer, mockserver.Config{Contract: c})
			got := p.do(t, "GET", tc.path, "")
			if got.Header.Get(mockserver.SourceHeader) != mockserver.SourceBackend {
				t.Fatalf("GET /v1%s: %s from %q, want the backend's answer relayed", tc.path, got, got.Header.Get(mockserver.SourceHeader))
			}
			violations := p.Violations().Recent(0)
			if len(violations) != 1 || !slices.Equal(violationRules(violations[0]), tc.rules) {
				t.Fatalf("violations = %+v, want one answer breaking %v", violations, tc.rules)
			}
			v := violations[0]
			if v.Method != "GET" || v.Path != "/v1"+tc.path || v.Status != got.StatusCode || v.Response.Body != string(got.body) || v.Source != mockserver.SourceBackend {
				t.Errorf("violation %+v: want the request GET /v1%s and the answer %s", v, tc.path, got)
			}
			if !strings.Contains(v.Violations[0].Message, tc.says) {
				t.Errorf("the message %q does not say %q", v.Violations[0].Message, tc.says)
			}
			if journal := p.Journal().Recent(0); len(journal) != 1 || !slices.Equal(violationRules(journal[0]), tc.rules) {
				t.Errorf("journal = %+v, want the exchange marked with %v", journal, tc.rules)
			}
			lines := strings.Count(p.log.String(), "the backend's answer breaks the document")
			if lines != len(tc.rules) {
				t.Errorf("the log has %d lines of violations, want %d:\n%s", lines, len(tc.rules), p.log)
			}
			for _, rule := range tc.rules {
				if !strings.Contains(p.log.String(), "rule="+rule) {
					t.Errorf("the log does not name the rule %s:\n%s", rule, p.log)
				}
			}
		})
	}
}

// withRequiredHeader returns the Petstore's document, whose listPets
// answers 200 with a required X-Request-Id.
func withRequiredHeader(tb testing.TB, doc []byte) []byte {
	tb.Helper()
	text := string(doc)
	anchor := "          description: A page of animals.\n          headers:\n"
	if !strings.Contains(text, anchor) {
		tb.Fatalf("the Petstore's listPets no longer reads %q", anchor)
	}
	return []byte(strings.Replace(text, anchor, anchor+
		"            X-Request-Id:\n              required: true\n              schema:\n                type: string\n", 1))
}

// TestProxyViolationsNewestFirst: the view lists the newest first, keeps
// as many as it may and as many bytes, and forgets them when cleared.
func TestProxyViolationsNewestFirst(t *testing.T) {
	var n atomic.Int32
	p := newProxied(t, func(w http.ResponseWriter, r *http.Request) {
		answerWith(200, `[{"id":`+strings.Repeat("1", int(n.Add(1)))+`}]`)(w, r)
	}, mockserver.Config{Proxy: mockserver.Proxy{MaxViolations: 3}})
	for range 5 {
		p.do(t, "GET", "/pets", "")
	}
	got := p.Violations().Recent(0)
	var bodies []string
	for _, x := range got {
		bodies = append(bodies, x.Response.Body)
	}
	want := []string{`[{"id":11111}]`, `[{"id":1111}]`, `[{"id":111}]`}
	if !slices.Equal(bodies, want) {
		t.Errorf("violations kept %q, want the last three, newest first: %q", bodies, want)
	}
	if got := p.Violations().Recent(1); len(got) != 1 {
		t.Errorf("Violations(1) = %d answers", len(got))
	}
	p.Violations().Clear()
	if got := p.Violations().Recent(0); len(got) != 0 {
		t.Errorf("after ClearViolations: %d answers", len(got))
	}

	large := strings.Repeat("x", 10_000)
	p = newProxied(t, answerWith(200, `[{"name":"`+large+`"}]`), mockserver.Config{Proxy: mockserver.Proxy{MaxViolationBytes: 30_000}})
	for range 10 {
		p.do(t, "GET", "/pets", "")
	}
	if got := len(p.Violations().Recent(0)); got == 0 || got > 6 {
		t.Errorf("a view of 30,000 bytes keeps %d answers whose bodies it keeps 4 KiB of, want a few and no more", got)
	}
}

// TestProxyFallsBackToTheMock: where the backend has nothing to say, the
// mock answers, saying so and why: a backend that cannot be reached or
// answers too late, a 501, and a 404 that is not the operation's own. A
// 404 the operation documents is the backend's to give.
func TestProxyFallsBackToTheMock(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	release := make(chan struct{})
	defer close(release)
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}
	notFoundPage := func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }
	for _, tc := range []struct {
		name       string
		answer     http.HandlerFunc
		proxy      mockserver.Proxy
		method     string
		path, body string
		source     string
		status     int
		because    string
	}{
		{"unreachable", answerWith(200, backendPets), mockserver.Proxy{URL: closed}, "GET", "/pets?limit=2", "", mockserver.SourceMock, 200, "connect"},
		{"too slow", slow, mockserver.Proxy{Timeout: 100 * time.Millisecond}, "GET", "/pets?limit=2", "", mockserver.SourceMock, 200, "timeout"},
		{"501", answerWith(501, `{"code":"not_implemented","message":"later","status":501}`), mockserver.Proxy{}, "GET", "/pets?limit=2", "", mockserver.SourceMock, 200, "501"},
		{"a framework's 404", notFoundPage, mockserver.Proxy{}, "GET", "/pets/7", "", mockserver.SourceMock, 200, "not the one getPet documents"},
		{"a 404 the operation does not document", answerWith(404, backendError), mockserver.Proxy{}, "GET", "/pets?limit=2", "", mockserver.SourceMock, 200, "does not document"},
		{"a create not built", notFoundPage, mockserver.Proxy{}, "POST", "/pets", `{"name":"Mocked","categoryId":1}`, mockserver.SourceMock, 201, "404"},
		{"a documented 404", answerWith(404, backendError), mockserver.Proxy{}, "GET", "/pets/7", "", mockserver.SourceBackend, 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProxied(t, tc.answer, mockserver.Config{Proxy: tc.proxy})
			got := p.do(t, tc.method, tc.path, tc.body)
			if src := got.Header.Get(mockserver.SourceHeader); src != tc.source || got.StatusCode != tc.status {
				t.Fatalf("%s /v1%s: %s from %q, want %d from %s", tc.method, tc.path, got, src, tc.status, tc.source)
			}
			x := p.Journal().Recent(1)[0]
			if x.Source != tc.source || !strings.Contains(x.Fallback, tc.because) || (tc.because == "") != (x.Fallback == "") {
				t.Errorf("journal: source %q, fallback %q; want %s, because %q", x.Source, x.Fallback, tc.source, tc.because)
			}
			if tc.source == mockserver.SourceBackend {
				return
			}
			if len(p.Violations().Recent(0)) != 0 {
				t.Errorf("the mock's answer is recorded as a violation: %+v", p.Violations().Recent(0))
			}
			if tc.method == "POST" && !strings.Contains(string(got.body), `"name":"Mocked"`) {
				t.Errorf("the mock created %s, want the pet the client sent", got.body)
			}
			if tc.method == "GET" && strings.Contains(string(got.body), "Backend Rex") {
				t.Errorf("the mock answered %s, the backend's", got.body)
			}
		})
	}
}

// TestProxyOfAnotherErrorBody: in front of a backend of a document whose
// Error is an integer code and a message, the backend's errors are held
// to that body: one that matches it is relayed as the backend's, breaking
// nothing; a 404 in the Petstore's Error instead is not the operation's
// own, and the mock answers; and an empty message still breaks the rule
// of an error's shape.
func TestProxyOfAnotherErrorBody(t *testing.T) {
	const errorRef = `{description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`
	c := errorDocument(t, "        '401': "+errorRef+"\n        '404': "+errorRef+"\n", `    Error:
      type: object
      required: [code, message]
      properties:
        code: {type: integer}
        message: {type: string}
`)
	for _, tc := range []struct {
		name    string
		answer  http.HandlerFunc
		source  string
		status  int
		because string
		rules   []string
	}{
		{"a documented 404", answerWith(404, `{"code":404,"message":"no thing 7"}`), mockserver.SourceBackend, 404, "", nil},
		{"a 404 in the Petstore's Error", answerWith(404, backendError), mockserver.SourceMock, 0, "not the one getThing documents", nil},
		{"a 401 of an empty message", answerWith(401, `{"code":401,"message":""}`), mockserver.SourceBackend, 401, "", []string{answercheck.RuleErrorShape}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProxied(t, tc.answer, mockserver.Config{Contract: c})
			got := p.do(t, "GET", "/things/7", "", "X-API-Key", key)
			if src := got.Header.Get(mockserver.SourceHeader); src != tc.source || tc.status != 0 && got.StatusCode != tc.status {
				t.Fatalf("GET /v1/things/7: %s from %q, want %d from %s", got, src, tc.status, tc.source)
			}
			x := p.Journal().Recent(1)[0]
			if !strings.Contains(x.Fallback, tc.because) || (tc.because == "") != (x.Fallback == "") {
				t.Errorf("journal: fallback %q, want %q", x.Fallback, tc.because)
			}
			if rules := violationRules(x); !slices.Equal(rules, tc.rules) {
				t.Errorf("journal: broke %v (%+v), want %v", rules, x.Violations, tc.rules)
			}
		})
	}
}

// TestProxyKeepsPetmocksStages: what petmock does before a handler runs
// still holds in front of the backend: a wrong key, Prefer: code=, a
// forced answer and a failure never reach it; Prefer: delay= and the
// latency delay its answer.
func TestProxyKeepsPetmocksStages(t *testing.T) {
	p := newProxied(t, answerWith(200, backendPets), mockserver.Config{})
	for _, tc := range []struct {
		name    string
		prepare func()
		headers []string
		status  int
	}{
		{"a wrong key", nil, []string{"Authorization", "Bearer nope"}, 401},
		{"Prefer: code=401", nil, []string{"Prefer", "code=401"}, 401},
		{"an answer forced", func() { p.Steering().Force(503, 1, spec.ListPets) }, nil, 503},
		{"a fail rate of 1", func() { p.Steering().ChangeSettings(map[string]any{"failRate": 1}) }, nil, 503},
	} {
		if tc.prepare != nil {
			tc.prepare()
		}
		before := p.hits.Load()
		got := p.do(t, "GET", "/pets", "", tc.headers...)
		if got.StatusCode != tc.status || got.Header.Get(mockserver.SourceHeader) != mockserver.SourceMock {
			t.Errorf("%s: %s from %q, want %d from the mock", tc.name, got, got.Header.Get(mockserver.SourceHeader), tc.status)
		}
		if p.hits.Load() != before {
			t.Errorf("%s: the backend got the request", tc.name)
		}
		p.Steering().ChangeSettings(map[string]any{"failRate": nil})
	}

	const delay = 120 * time.Millisecond
	start := time.Now()
	got := p.do(t, "GET", "/pets", "", "Prefer", "delay=120")
	if elapsed := time.Since(start); got.StatusCode != 200 || elapsed < delay || got.Header.Get("Preference-Applied") != "delay=120" {
		t.Errorf("Prefer: delay=120: %s after %s, Preference-Applied %q; want the backend's 200 after at least %s, saying so",
			got, elapsed, got.Header.Get("Preference-Applied"), delay)
	}
	p.Steering().ChangeSettings(map[string]any{"latency": "120ms"})
	start = time.Now()
	if got := p.do(t, "GET", "/pets", ""); got.StatusCode != 200 || time.Since(start) < delay {
		t.Errorf("latency 120ms: %s after %s", got, time.Since(start))
	}
}

// TestProxyKey: without a key of its own, the backend gets no
// credential at all, petmock's key going no further than petmock; with
// one, it gets that key, as the operation's scheme asks, and never the
// client's.
func TestProxyKey(t *testing.T) {
	p := newProxied(t, answerWith(200, backendPets), mockserver.Config{})
	p.do(t, "GET", "/pets", "")
	if got := p.lastHeader("Authorization"); got != "" {
		t.Errorf("without a proxy key, the backend got Authorization %q, want none: the client's key is petmock's", got)
	}
	p = newProxied(t, answerWith(200, backendPets), mockserver.Config{Proxy: mockserver.Proxy{Key: "staging-secret-key"}})
	p.do(t, "GET", "/pets", "")
	if got := p.lastHeader("Authorization"); got != "Bearer staging-secret-key" {
		t.Errorf("with a proxy key, the backend got Authorization %q, want the proxy key", got)
	}

	const apiKeyDoc = `openapi: 3.0.3
info: {title: Keys, version: 1.0.0}
servers: [{url: /v1}]
security: [{headerKey: []}]
paths:
  /reports:
    get:
      operationId: listReports
      responses:
        '200':
          description: Reports.
          content:
            application/json:
              schema: {type: array, items: {type: string}}
components:
  securitySchemes:
    headerKey: {type: apiKey, in: header, name: X-Api-Key}
    queryKey: {type: apiKey, in: query, name: api_key}
`
	c, err := spec.Read([]byte(apiKeyDoc))
	if err != nil {
		t.Fatal(err)
	}
	var query string
	p = newProxied(t, func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.RawQuery
		answerWith(200, `["r"]`)(w, r)
	}, mockserver.Config{Contract: c, Proxy: mockserver.Proxy{Key: "staging-secret-key"}})
	got := p.do(t, "GET", "/reports?api_key="+key+"&page=2", "", "Authorization", "", "X-Api-Key", key)
	if got.StatusCode != 200 || p.lastHeader("X-Api-Key") != "staging-secret-key" || query != "page=2" {
		t.Errorf("an apiKey document: %s; the backend got X-Api-Key %q and the query %q, want the proxy key and page=2 alone",
			got, p.lastHeader("X-Api-Key"), query)
	}
}

// TestProxyHidesKeys: a backend that echoes what it got hands the client
// neither petmock's key nor the backend's, in the body or the headers, in
// any form; nor do the journal, the violations view or the log show them.
func TestProxyHidesKeys(t *testing.T) {
	const backendKey = "staging-secret-key"
	p := newProxied(t, func(w http.ResponseWriter, r *http.Request) {
		seen := r.Header.Get("Authorization")
		key := strings.TrimPrefix(seen, "Bearer ")
		body, _ := json.Marshal([]map[string]string{{"id": "x", "seen": seen, "asked": r.URL.RawQuery,
			"encoded": url.QueryEscape(seen), "escaped": `\u00` + fmt.Sprintf("%x", key[0]) + key[1:]}})
		answerWith(200, strings.ReplaceAll(string(body), `\\u00`, `\u00`), "X-Seen", seen, "X-Seen-"+key, "1",
			"Location", "/v1/pets?key="+url.QueryEscape(key))(w, r)
	}, mockserver.Config{APIKeys: []string{"petmock-secret-key"}, Proxy: mockserver.Proxy{Key: backendKey}})
	got := p.do(t, "GET", "/pets?note=petmock-secret-key", "", "Authorization", "Bearer petmock-secret-key")
	if got.StatusCode != 200 || !strings.Contains(string(got.body), `"seen":"Bearer ******************"`) {
		t.Fatalf("the backend answered %s; want it to have repeated its key, hidden, for the test", got)
	}
	headers, _ := json.Marshal(got.Header)
	for _, k := range []string{"petmock-secret-key", backendKey} {
		// A header's name is in any case.
		for what, text := range map[string]string{"the answer's body": string(got.body), "the answer's headers": strings.ToLower(string(headers))} {
			if holdsKey(text, k) {
				t.Errorf("%s shows the key %s:\n%s", what, k, text)
			}
		}
	}
	views, _ := json.Marshal(map[string]any{"journal": p.Journal().Recent(0), "violations": p.Violations().Recent(0)})
	p.FlushLog()
	for _, k := range []string{"petmock-secret-key", backendKey} {
		for what, text := range map[string]string{"the journal and the violations": string(views), "the log": p.log.String()} {
			if strings.Contains(text, k) {
				t.Errorf("%s show the key %s:\n%s", what, k, text)
			}
		}
	}
	if len(p.Violations().Recent(0)) != 1 {
		t.Errorf("the violation is not recorded: %s", views)
	}
}

// TestProxyCredentialsNeverCross: the client's key, petmock's, reaches
// the backend nowhere, wherever the client put it (the scheme's header, a
// query parameter, an API key header, a cookie, a header of its own, in
// any form), with or without a proxy key; what holds no key goes as it
// came.
func TestProxyCredentialsNeverCross(t *testing.T) {
	for _, proxyKey := range []string{"", "staging-secret-key"} {
		var raw string
		p := newProxied(t, func(w http.ResponseWriter, r *http.Request) {
			dump, _ := json.Marshal(map[string]any{"url": r.URL.String(), "header": r.Header})
			raw = string(dump)
			answerWith(200, backendPets)(w, r)
		}, mockserver.Config{Proxy: mockserver.Proxy{Key: proxyKey}})
		got := p.do(t, "GET", "/pets?limit=1&access_token="+key+"&api_key=%70"+key[1:]+"&status=available", "",
			"X-Api-Key", key, "Cookie", "theme=dark; token="+key, "X-My-Token", "Bearer "+key, "X-Kept", "kept", "X-"+key, "1")
		if got.StatusCode != 200 {
			t.Fatalf("proxy key %q: %s", proxyKey, got)
		}
		if holdsKey(strings.ToLower(raw), key) {
			t.Errorf("proxy key %q: the backend got petmock's key: %s", proxyKey, raw)
		}
		for _, kept := range []string{"limit=1", "status=available", "theme=dark", `"X-Kept":["kept"]`} {
			if !strings.Contains(raw, kept) {
				t.Errorf("proxy key %q: the backend did not get %s: %s", proxyKey, kept, raw)
			}
		}
		if proxyKey != "" && !strings.Contains(raw, `"Authorization":["Bearer `+proxyKey+`"]`) {
			t.Errorf("the backend did not get the proxy key: %s", raw)
		}
	}
}

// TestProxyHidesKeysOfAnUnreachableBackend: where the backend cannot be
// reached, the reason the mock answered names the backend's URL without
// its query, so that a key the document sends in the query, the client's
// or the proxy's own, shows neither in the log nor in the journal.
func TestProxyHidesKeysOfAnUnreachableBackend(t *testing.T) {
	const backendKey = "staging-secret-key"
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Keys, version: 1.0.0}
servers: [{url: /v1}]
security: [{queryKey: []}]
paths:
  /reports:
    get:
      operationId: listReports
      responses:
        '200':
          description: Reports.
          content:
            application/json:
              schema: {type: array, items: {type: string}}
components:
  securitySchemes:
    queryKey: {type: apiKey, in: query, name: api_key}
`))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	for _, proxyKey := range []string{"", backendKey} {
		p := newProxied(t, answerWith(200, `["r"]`), mockserver.Config{Contract: c, Proxy: mockserver.Proxy{URL: closed, Key: proxyKey}})
		got := p.do(t, "GET", "/reports?api_key="+key, "", "Authorization", "")
		if got.StatusCode != 200 || got.Header.Get(mockserver.SourceHeader) != mockserver.SourceMock {
			t.Fatalf("proxy key %q: %s, want the mock's answer", proxyKey, got)
		}
		journal, _ := json.Marshal(p.Journal().Recent(0))
		p.FlushLog()
		if !strings.Contains(p.log.String(), "fallback=") {
			t.Fatalf("the log does not say why the mock answered:\n%s", p.log)
		}
		for _, k := range []string{key, backendKey} {
			for what, text := range map[string]string{"the journal": string(journal), "the log": p.log.String()} {
				if strings.Contains(text, k) {
					t.Errorf("proxy key %q: %s shows the key %s:\n%s", proxyKey, what, k, text)
				}
			}
		}
	}
}

// TestProxyStaysBelowItsBase: a path that climbs out of the base path
// with a dot segment is refused, and never sent; the control plane and
// the document are petmock's alone.
func TestProxyStaysBelowItsBase(t *testing.T) {
	p := newProxied(t, answerWith(200, backendPet), mockserver.Config{})
	for _, path := range []string{"/pets/..", "/pets/%2E%2E"} {
		if got := p.do(t, "GET", path, ""); got.StatusCode != 400 {
			t.Errorf("GET /v1%s: %s, want 400", path, got)
		}
	}
	for _, path := range []string{"/openapi.json", "/__petmock/requests"} {
		req, _ := http.NewRequest("GET", strings.TrimSuffix(p.url, "/v1")+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if n := p.hits.Load(); n != 0 {
		t.Errorf("the backend got %d requests", n)
	}
}

// TestProxyWithoutJournalOrLog: with no journal and no log, the
// violations are still kept.
func TestProxyWithoutJournalOrLog(t *testing.T) {
	p := newProxiedLogging(t, answerWith(418, `{"code":"x","message":"y","status":418}`), mockserver.Config{JournalSize: -1}, false)
	p.do(t, "GET", "/pets", "")
	if len(p.Violations().Recent(0)) != 1 {
		t.Errorf("violations = %+v, want the answer of 418", p.Violations().Recent(0))
	}
}

// TestProxyBoundsWhatItReads: of an answer larger than the proxy reads,
// the status and the headers are checked, and the body is relayed whole,
// unchecked; the violations keep only its start.
func TestProxyBoundsWhatItReads(t *testing.T) {
	large := `[{"name":"` + strings.Repeat("x", 20_000) + `"}]`
	for _, tc := range []struct {
		status int
		rules  []string
	}{
		{200, nil},
		{418, []string{answercheck.RuleStatus}},
	} {
		p := newProxied(t, answerWith(tc.status, large), mockserver.Config{Proxy: mockserver.Proxy{MaxAnswerBytes: 1000}})
		got := p.do(t, "GET", "/pets", "")
		if got.StatusCode != tc.status || string(got.body) != large || got.Header.Get(mockserver.SourceHeader) != mockserver.SourceBackend {
			t.Errorf("an answer of %d bytes, %d: %d, %d bytes from %q; want it relayed whole", len(large), tc.status, got.StatusCode, len(got.body), got.Header.Get(mockserver.SourceHeader))
		}
		var rules []string
		for _, x := range p.Violations().Recent(0) {
			rules = append(rules, violationRules(x)...)
			if len(x.Response.Body) > 5000 || !x.Response.Truncated {
				t.Errorf("the violation keeps %d bytes of the body, truncated %v", len(x.Response.Body), x.Response.Truncated)
			}
		}
		if !slices.Equal(rules, tc.rules) {
			t.Errorf("%d: broke %v, want %v: the body, unread, is not checked", tc.status, rules, tc.rules)
		}
	}
}

// TestProxyAnswersExpectationsAhead: an expectation answers ahead of the
// backend, as a fault does: neither reaches it. A request that matches no
// expectation, or that the mock's checks refuse, goes to the backend, its
// body as the client sent it.
func TestProxyAnswersExpectationsAhead(t *testing.T) {
	var mu sync.Mutex
	var got []byte // the last body the backend was sent
	p := newProxied(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = body
		mu.Unlock()
		if r.Method == "POST" {
			answerWith(201, `{"id":90,"name":"Backend Rex","categoryId":1}`)(w, r)
			return
		}
		answerWith(404, backendError)(w, r)
	}, mockserver.Config{})
	for _, e := range []steer.Expectation{
		{When: steer.RequestMatch{Method: "GET", Path: "/v1/pets/7"},
			Answer: steer.CannedAnswer{Status: 200, Body: json.RawMessage(`{"id":7,"name":"Expected Rex","categoryId":1}`)}},
		{When: steer.RequestMatch{Method: "POST", Path: "/v1/pets", Body: map[string]json.RawMessage{"/name": json.RawMessage(`"Canned"`)}},
			Answer: steer.CannedAnswer{Status: 201, Body: json.RawMessage(`{"id":80,"name":"Canned","categoryId":1}`)}},
	} {
		if _, err := p.Steering().Expect(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		source                   string
		says                     string // in the answer's body
	}{
		{"an expected GET", "GET", "/pets/7", "", 200, mockserver.SourceMock, "Expected Rex"},
		{"a GET of another pet", "GET", "/pets/8", "", 404, mockserver.SourceBackend, "no pet 7"},
		{"an expected POST", "POST", "/pets", `{"name":"Canned","categoryId":1}`, 201, mockserver.SourceMock, `"id":80`},
		{"a POST of another name", "POST", "/pets", `{"name":"Other","categoryId":1}`, 201, mockserver.SourceBackend, "Backend Rex"},
		{"a POST the mock refuses", "POST", "/pets", `{"name":"Canned","categoryId":"one"}`, 201, mockserver.SourceBackend, "Backend Rex"},
	} {
		mu.Lock()
		got = nil
		mu.Unlock()
		before := p.hits.Load()
		resp := p.do(t, tc.method, tc.path, tc.body)
		if resp.StatusCode != tc.status || resp.Header.Get(mockserver.SourceHeader) != tc.source || !strings.Contains(string(resp.body), tc.says) {
			t.Errorf("%s: %s from %q, want %d from %s saying %s", tc.name, resp, resp.Header.Get(mockserver.SourceHeader), tc.status, tc.source, tc.says)
		}
		asked := p.hits.Load() != before
		if asked != (tc.source == mockserver.SourceBackend) {
			t.Errorf("%s: the backend was asked: %v, want %v", tc.name, asked, !asked)
		}
		mu.Lock()
		sent := string(got)
		mu.Unlock()
		if asked && sent != tc.body {
			t.Errorf("%s: the backend was sent %q, want %q", tc.name, sent, tc.body)
		}
		if x := p.Journal().Recent(1)[0]; (x.Expectation != 0) != (tc.source == mockserver.SourceMock) {
			t.Errorf("%s: the journal names expectation %d", tc.name, x.Expectation)
		}
	}

	if err := p.Steering().ForceAnswer(steer.ForcedAnswer{Fault: steer.FaultReset, Remaining: 1, Operation: spec.GetPet}); err != nil {
		t.Fatal(err)
	}
	before := p.hits.Load()
	req, _ := http.NewRequest("GET", p.url+"/pets/8", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("a forced reset: %d, want the connection reset", resp.StatusCode)
	}
	if p.hits.Load() != before {
		t.Error("a forced reset: the backend got the request")
	}
}

// TestProxyAnswersExamples: Prefer: example= asks petmock, not the
// backend, for a named example of the document.
func TestProxyAnswersExamples(t *testing.T) {
	p := newProxied(t, answerWith(200, `[]`, "X-Total-Count", "0"), mockserver.Config{Contract: exampleDocument(t)})
	before := p.hits.Load()
	got := p.do(t, "GET", "/pets", "", "Prefer", "example=two")
	if got.StatusCode != 200 || got.Header.Get(mockserver.SourceHeader) != mockserver.SourceMock || !strings.Contains(string(got.body), "Toto") {
		t.Errorf("Prefer: example=two: %s from %q, want the example from the mock", got, got.Header.Get(mockserver.SourceHeader))
	}
	if p.hits.Load() != before {
		t.Error("Prefer: example=two: the backend got the request")
	}
	if got := p.do(t, "GET", "/pets", ""); got.Header.Get(mockserver.SourceHeader) != mockserver.SourceBackend {
		t.Errorf("without Prefer: %s from %q, want the backend's", got, got.Header.Get(mockserver.SourceHeader))
	}
}
