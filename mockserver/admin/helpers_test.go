package admin_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/conformance"
	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
	"github.com/petstore/contract/spec"
)

const key = mockserver.DefaultAPIKey

// testServer is petmock, its admin API and its API, served over a real
// HTTP connection. Every answer its client receives is checked first: the
// admin API's against the admin API's document, the API's against the
// document it serves, so that no test can forget to, and neither can
// drift from its document.
type testServer struct {
	*mockserver.Server
	URL    string // the API's base URL, ending in /v1
	root   string // the origin, such as http://127.0.0.1:4010
	client *http.Client
	// checks are the checks of the answers, which a test may loosen for
	// the outages it causes.
	checks *checks
}

func newTestServer(tb testing.TB, cfg mockserver.Config, adminCfg ...admin.Config) *testServer {
	tb.Helper()
	srv, err := mockserver.New(cfg)
	if err != nil {
		tb.Fatalf("mockserver.New: %v", err)
	}
	var ac admin.Config
	if len(adminCfg) > 0 {
		ac = adminCfg[0]
	}
	h, err := admin.New(srv, ac)
	if err != nil {
		tb.Fatalf("admin.New: %v", err)
	}
	hs := httptest.NewServer(h)
	tb.Cleanup(hs.Close)
	client := hs.Client()
	ch := &checks{admin: newJudge(tb, adminDocument(tb)), api: newJudge(tb, cfg.Contract)}
	ch.outages = cfg.FailRate > 0
	client.Transport = &checkingTransport{tb: tb, next: client.Transport, checks: ch}
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &testServer{Server: srv, URL: hs.URL + "/v1", root: hs.URL, client: client, checks: ch}
}

// adminDocument is the admin API's document, as served.
func adminDocument(tb testing.TB) *spec.Contract {
	tb.Helper()
	c, err := spec.Read(admin.Document())
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// response is an answer with its body read.
type response struct {
	*http.Response
	body []byte
}

func (r *response) String() string {
	return strconv.Itoa(r.StatusCode) + " " + string(r.body)
}

// apiError decodes an Error body.
func (r *response) apiError(tb testing.TB) edge.Error {
	tb.Helper()
	var e edge.Error
	if err := json.Unmarshal(r.body, &e); err != nil {
		tb.Fatalf("decoding %s: %v", r.body, err)
	}
	return e
}

// do sends a request to the API with the default key. headers are name,
// value pairs; an "Authorization" pair replaces the key, and an empty
// value removes it.
func (ts *testServer) do(tb testing.TB, method, path, body string, headers ...string) *response {
	tb.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
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
	return ts.send(tb, req)
}

// admin sends a request to the admin API with the default key, or with
// the given Authorization ("" for none).
func (ts *testServer) admin(tb testing.TB, method, name, body string, authorization ...string) *response {
	tb.Helper()
	req, _ := http.NewRequest(method, ts.root+admin.Prefix+name, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	if len(authorization) > 0 {
		req.Header.Set("Authorization", authorization[0])
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return ts.send(tb, req)
}

func (ts *testServer) send(tb testing.TB, req *http.Request) *response {
	tb.Helper()
	resp, err := ts.client.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("%s %s: reading body: %v", req.Method, req.URL, err)
	}
	return &response{Response: resp, body: body}
}

// Pet is a pet of the Petstore, as the tests read and write them.
type Pet struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CategoryID int64  `json:"categoryId"`
	Status     string `json:"status,omitempty"`
}

// pet decodes a Pet body.
func (r *response) pet(tb testing.TB) Pet {
	tb.Helper()
	var p Pet
	if err := json.Unmarshal(r.body, &p); err != nil {
		tb.Fatalf("decoding %s: %v", r.body, err)
	}
	return p
}

// pets decodes a list body.
func (r *response) pets(tb testing.TB) []Pet {
	tb.Helper()
	var pets []Pet
	if err := json.Unmarshal(r.body, &pets); err != nil {
		tb.Fatalf("decoding %s: %v", r.body, err)
	}
	return pets
}

// items returns pets as the items of a Config.
func items(pets []Pet) catalogue.Items {
	out := catalogue.Items{"pets": []json.RawMessage{}}
	for _, p := range pets {
		b, err := json.Marshal(p)
		if err != nil {
			panic(err)
		}
		out["pets"] = append(out["pets"], b)
	}
	return out
}

// readContract reads a document of testdata.
func readContract(tb testing.TB, name string) *spec.Contract {
	tb.Helper()
	c, err := spec.ReadFile("../../testdata/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// defaultOnlyPaths are the paths of a document of no resource, whose one
// operation has only a default answer.
const defaultOnlyPaths = `
  /ping:
    get:
      operationId: ping
      responses:
        default: {description: Whatever it answers., content: {application/json: {schema: {type: object, properties: {ok: {type: boolean}}}}}}`

// document returns a small document with the given paths, below a server
// at /v1, whose operations need an API key in the X-API-Key header.
func document(tb testing.TB, paths string) *spec.Contract {
	tb.Helper()
	src := `openapi: 3.0.3
info: {title: Small, version: 1.0.0}
servers: [{url: 'http://small.example/v1'}]
security: [{apiKey: []}]
paths:
` + paths + `
components:
  securitySchemes:
    apiKey: {type: apiKey, in: header, name: X-API-Key}
  schemas:
    Error:
      type: object
      required: [code, message, status]
      properties:
        code: {type: string}
        message: {type: string}
        status: {type: integer}
`
	c, err := spec.Read([]byte(src))
	if err != nil {
		tb.Fatalf("document: %v\n%s", err, src)
	}
	return c
}

// serve answers one request of the whole handler of srv, without a
// connection.
func serve(tb testing.TB, srv *mockserver.Server, method, path string) *httptest.ResponseRecorder {
	tb.Helper()
	h, err := admin.New(srv, admin.Config{})
	if err != nil {
		tb.Fatal(err)
	}
	req := httptest.NewRequest(method, "http://petmock.localhost"+path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// syncBuffer is a log that handlers write to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// checkingTransport checks every answer it receives.
type checkingTransport struct {
	tb     testing.TB
	next   http.RoundTripper
	checks *checks
}

func (t *checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err := t.checks.check(req, resp.StatusCode, resp.Header, body); err != nil {
		t.tb.Errorf("%s %s: answer breaks its document: %v\n%d %s", req.Method, req.URL, err, resp.StatusCode, body)
	}
	return resp, nil
}

// checks judges the answers of the admin API against its document, and
// those of the API against the document it serves, with the conformance
// suite's AnswerJudge, strict, as mockserver's tests judge the API's.
type checks struct {
	admin, api *conformance.AnswerJudge
	// outages allows 503 from any operation of the API, for a server
	// with a fail rate. Prefer: code=500 or 503 allows that code for one
	// request, and so do an answer forced from the admin API and a
	// failure injected after a change of the fail rate, which say so in
	// their message.
	outages bool
}

// newJudge returns a strict AnswerJudge of c's document; nil means the
// embedded one.
func newJudge(tb testing.TB, c *spec.Contract) *conformance.AnswerJudge {
	tb.Helper()
	j, err := conformance.NewAnswerJudge(c, true)
	if err != nil {
		tb.Fatal(err)
	}
	return j
}

func (c *checks) check(req *http.Request, status int, header http.Header, body []byte) error {
	switch {
	case req.Method == http.MethodOptions:
		return nil // CORS, answered alike for every path
	case req.Method == http.MethodHead:
		if len(body) != 0 {
			return errors.New("body on an answer to HEAD")
		}
		return nil
	case strings.HasPrefix(req.URL.Path, admin.Prefix):
		return judge(c.admin, req, status, header, body)
	case req.URL.Path == "/" || req.URL.Path == "/openapi.yaml" || req.URL.Path == "/openapi.json":
		return nil // the console, and the document: not operations
	case status == http.StatusServiceUnavailable && c.outages,
		(status == 500 || status == 503) && strings.Contains(req.Header.Get("Prefer"), "code="+strconv.Itoa(status)),
		(status == 500 || status == 503) && bytes.Contains(body, []byte(`"message":"forced: `)),
		status == 503 && bytes.Contains(body, []byte(`"message":"server: injected failure`)):
		return c.api.JudgeError(req, status, header, body)
	}
	return judge(c.api, req, status, header, body)
}

// judge judges one answer by its document. A request of no operation, or
// of a template that matched what is no path of petmock's, such as
// /__petmock/reset for GET /__petmock/{resource}, must be answered 404 or
// 405, with an Error body.
func judge(j *conformance.AnswerJudge, req *http.Request, status int, header http.Header, body []byte) error {
	if status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
		return j.JudgeError(req, status, header, body)
	}
	err := j.Judge(req, status, header, body)
	if errors.Is(err, conformance.ErrNoOperation) {
		return errors.New("status " + strconv.Itoa(status) + " for a request that matches no operation")
	}
	return err
}

// TestCheckerCatchesDrift makes sure the checks every test relies on do
// fail on answers of the admin API that break its document.
func TestCheckerCatchesDrift(t *testing.T) {
	c := &checks{admin: newJudge(t, adminDocument(t)), api: newJudge(t, nil)}
	jsonHeader := http.Header{"Content-Type": {"application/json"}}
	for _, tt := range []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
	}{
		{"undocumented status", "GET", "/__petmock/settings", 418, jsonHeader, `{"code":"x","message":"y","status":418}`},
		{"text body", "GET", "/__petmock/settings", 200, http.Header{"Content-Type": {"text/plain"}}, `{}`},
		{"settings without changes", "GET", "/__petmock/settings", 200, jsonHeader, `{"latency":"0s","failRate":0,"now":"2031-01-01T00:00:00Z","clock":"real","journal":100}`},
		{"a fail rate of 2", "GET", "/__petmock/settings", 200, jsonHeader, `{"latency":"0s","failRate":2,"now":"2031-01-01T00:00:00Z","clock":"real","journal":100,"changes":[]}`},
		{"health without status", "GET", "/__petmock/health", 200, jsonHeader, `{"pets":50}`},
		{"a count that is no number", "POST", "/__petmock/reset", 200, jsonHeader, `{"pets":"50"}`},
		{"a journal of objects", "GET", "/__petmock/requests", 200, jsonHeader, `{"requests":{}}`},
		{"a forced answer without remaining", "GET", "/__petmock/forced", 200, jsonHeader, `{"forced":[{"id":1,"code":503}]}`},
		{"a forced fault of no kind", "GET", "/__petmock/forced", 200, jsonHeader, `{"forced":[{"id":1,"fault":"boom","remaining":1}]}`},
		{"an expectation without its when", "GET", "/__petmock/expectations", 200, jsonHeader, `{"expectations":[{"id":1,"operation":"listPets","answer":{"status":200},"matched":0}]}`},
		{"a verification without its counts", "GET", "/__petmock/verification", 200, jsonHeader, `{"since":"2031-01-01T00:00:00Z","expectations":[],"unmatchedRequests":[]}`},
		{"a page without total", "GET", "/__petmock/catalogue/pets", 200, jsonHeader, `{"items":[]}`},
		{"error without code", "GET", "/__petmock/settings", 401, jsonHeader, `{"message":"y","status":401}`},
		{"error status differs", "POST", "/__petmock/reset", 503, jsonHeader, `{"code":"x","message":"y","status":500}`},
		{"unknown path answered 200", "GET", "/__petmock/nope/nope", 200, jsonHeader, `{}`},
	} {
		req := httptest.NewRequest(tt.method, "http://petmock"+tt.path, nil)
		if err := c.check(req, tt.status, tt.header, []byte(tt.body)); err == nil {
			t.Errorf("%s: checker accepted %d %s", tt.name, tt.status, tt.body)
		}
	}
	ok := httptest.NewRequest("GET", "http://petmock/__petmock/health", nil)
	if err := c.check(ok, 200, jsonHeader, []byte(`{"pets":50,"status":"ok"}`)); err != nil {
		t.Errorf("checker refused a valid health: %v", err)
	}
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// plainCollectionPaths is a collection that looks like a resource, a GET
// and a POST of things, but has no item path, so petmock serves it as
// plain operations and says why in a start-up note.
const plainCollectionPaths = `
  /things:
    get:
      operationId: listThings
      responses:
        '200': {description: The things., content: {application/json: {schema: {type: array, items: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}}}
    post:
      operationId: createThing
      requestBody: {content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses:
        '201': {description: The thing made., content: {application/json: {schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}}`
