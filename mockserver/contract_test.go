package mockserver_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/conformance"
	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

const key = mockserver.DefaultAPIKey

// testServer is a mock served over a real HTTP connection. Every response
// its client receives is checked against the document first, so that no
// test can forget to, and the mock cannot drift from its own contract.
type testServer struct {
	*mockserver.Server
	URL    string // base URL, ending in /v1
	client *http.Client
}

func newTestServer(tb testing.TB, cfg mockserver.Config) *testServer {
	tb.Helper()
	srv, err := mockserver.New(cfg)
	if err != nil {
		tb.Fatalf("mockserver.New: %v", err)
	}
	hs := httptest.NewServer(srv)
	tb.Cleanup(hs.Close)
	client := hs.Client()
	c := newChecker(tb, cfg.Contract)
	c.outages = cfg.FailRate > 0
	client.Transport = &contractTransport{tb: tb, next: client.Transport, checker: c}
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &testServer{Server: srv, URL: hs.URL + "/v1", client: client}
}

// response is an answer with its body read.
type response struct {
	*http.Response
	body []byte
}

func (r *response) String() string {
	return strconv.Itoa(r.StatusCode) + " " + string(r.body)
}

// do sends a request with the default key. headers are name, value pairs;
// an "Authorization" pair replaces the key, and an empty value removes it.
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

// pets decodes a list body.
func (r *response) pets(tb testing.TB) []Pet {
	tb.Helper()
	var pets []Pet
	if err := json.Unmarshal(r.body, &pets); err != nil {
		tb.Fatalf("decoding %s: %v", r.body, err)
	}
	return pets
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

// apiError decodes an Error body.
func (r *response) apiError(tb testing.TB) edge.Error {
	tb.Helper()
	var e edge.Error
	if err := json.Unmarshal(r.body, &e); err != nil {
		tb.Fatalf("decoding %s: %v", r.body, err)
	}
	return e
}

type contractTransport struct {
	tb      testing.TB
	next    http.RoundTripper
	checker *checker
}

func (t *contractTransport) RoundTrip(req *http.Request) (*http.Response, error) {
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
	if err := t.checker.check(req, resp.StatusCode, resp.Header, body); err != nil {
		t.tb.Errorf("%s %s: answer breaks the contract: %v\n%d %s", req.Method, req.URL, err, resp.StatusCode, body)
	}
	return resp, nil
}

// checker judges answers against the document with the conformance
// suite's AnswerJudge, strict, since petmock's choices are petmock's own
// contract; and holds what petmock adds beside the document to its own
// rules: an outage that was asked for is an Error body.
type checker struct {
	judge *conformance.AnswerJudge
	// outages allows 503 from any operation, for a server with a fail
	// rate. Prefer: code=500 or 503 allows that code for one request, and
	// so do an answer forced from the admin API and a failure injected
	// after a change of the fail rate, which say so in their message.
	outages bool
}

// newChecker returns a checker of the answers of c's document; nil means
// the embedded one.
func newChecker(tb testing.TB, c *spec.Contract) *checker {
	tb.Helper()
	judge, err := conformance.NewAnswerJudge(c, true)
	if err != nil {
		tb.Fatal(err)
	}
	return &checker{judge: judge}
}

// check validates one answer: a documented status, application/json,
// the documented headers and body; and for every error, an Error body
// whose status is the HTTP status. The outage statuses 500 and 503 lie
// outside the contract: they are allowed only when asked for, by Prefer
// or from the admin API, and then only their Error body is checked. The
// served document is no API answer.
func (c *checker) check(req *http.Request, status int, header http.Header, body []byte) error {
	if req.URL.Path == "/openapi.yaml" || req.URL.Path == "/openapi.json" {
		return nil
	}
	if status == http.StatusNoContent || req.Method == http.MethodHead {
		if len(body) != 0 {
			return errors.New("body on an answer that must have none")
		}
		return nil
	}
	if status == http.StatusServiceUnavailable && c.outages ||
		(status == 500 || status == 503) && strings.Contains(req.Header.Get("Prefer"), "code="+strconv.Itoa(status)) ||
		(status == 500 || status == 503) && bytes.Contains(body, []byte(`"message":"forced: `)) ||
		status == 503 && bytes.Contains(body, []byte(`"message":"server: injected failure`)) {
		return c.judge.JudgeError(req, status, header, body)
	}
	err := c.judge.Judge(req, status, header, body)
	if errors.Is(err, conformance.ErrNoOperation) {
		// No operation to judge by: an unknown path or method, which must
		// be answered 404 or 405, with an Error body.
		if status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
			return errors.New("status " + strconv.Itoa(status) + " for a request that matches no operation")
		}
		return c.judge.JudgeError(req, status, header, body)
	}
	return err
}

// TestCheckerCatchesDrift makes sure the checker every test relies on does
// fail on answers that break the contract.
func TestCheckerCatchesDrift(t *testing.T) {
	c := newChecker(t, nil)
	jsonHeader := http.Header{"Content-Type": {"application/json"}}
	tests := []struct {
		name   string
		method string
		path   string
		status int
		header http.Header
		body   string
	}{
		{"undocumented status", "GET", "/v1/pets", 418, jsonHeader, `{"code":"x","message":"y","status":418}`},
		{"text body", "GET", "/v1/pets", 200, http.Header{"Content-Type": {"text/plain"}}, `[]`},
		{"object for a list", "GET", "/v1/pets", 200, jsonHeader, `{}`},
		{"pet without id", "GET", "/v1/pets/1", 200, jsonHeader, `{"name":"a","categoryId":1}`},
		{"pet with a bad status", "POST", "/v1/pets", 201, jsonHeader, `{"id":1,"name":"a","categoryId":1,"status":"lost"}`},
		{"error without code", "GET", "/v1/pets", 401, jsonHeader, `{"message":"y","status":401}`},
		{"error status differs", "GET", "/v1/pets/1", 404, jsonHeader, `{"code":"x","message":"y","status":400}`},
		{"malformed Deprecation", "GET", "/v1/pets/1", 404, http.Header{"Content-Type": {"application/json"}, "Deprecation": {"yes"}}, `{"code":"x","message":"y","status":404}`},
		{"unknown path answered 200", "GET", "/v1/nope", 200, jsonHeader, `{}`},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(tt.method, "http://petmock"+tt.path, nil)
		if err := c.check(req, tt.status, tt.header, []byte(tt.body)); err == nil {
			t.Errorf("%s: checker accepted %d %s", tt.name, tt.status, tt.body)
		}
	}
	ok := httptest.NewRequest("GET", "http://petmock/v1/pets/1", nil)
	if err := c.check(ok, 200, jsonHeader, []byte(`{"id":1,"name":"a","categoryId":1}`)); err != nil {
		t.Errorf("checker refused a valid pet: %v", err)
	}
}

// Pet is a pet of the Petstore, as the tests read and write them.
type Pet struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CategoryID int64  `json:"categoryId"`
	Status     string `json:"status,omitempty"`
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

// generate returns the pets of a generated catalogue of the embedded
// document.
func generate(cat catalogue.Seeded) ([]Pet, error) {
	c, err := spec.Default()
	if err != nil {
		return nil, err
	}
	all, err := catalogue.Generate(c, cat)
	if err != nil {
		return nil, err
	}
	pets := make([]Pet, len(all["pets"]))
	for i, item := range all["pets"] {
		if err := json.Unmarshal(item, &pets[i]); err != nil {
			return nil, err
		}
	}
	return pets, nil
}
