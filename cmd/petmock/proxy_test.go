package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// The proxy's tests run petmock --proxy, built, in front of a backend
// process: this test binary, run again with backendEnv set, which serves a
// Petstore whose answers break the document in the way each request asks
// for in answerHeader.

// backendEnv, when set, makes the test binary serve the test backend
// instead of running tests.
const backendEnv = "PETMOCK_TEST_BACKEND"

// answerHeader names what the test backend answers a request with.
const answerHeader = "X-Test-Answer"

// The test backend's pets.
const backendPets = `[{"id":1,"name":"Backend Rex","categoryId":1,"status":"available"}]`

// serveTestBackend serves the test backend on a free port until it is
// sent SIGTERM, and prints its base URL on one line once it listens. It
// returns the status to exit with.
func serveTestBackend() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var hits atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /hits", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, hits.Load())
	})
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("X-Request-Id", "r-"+strconv.FormatInt(hits.Load(), 10))
		switch r.Header.Get(answerHeader) {
		case "wrong-body":
			io.WriteString(w, `[{"id":"one","name":1}]`)
		case "undocumented-status":
			w.WriteHeader(http.StatusTeapot)
			io.WriteString(w, `{"code":"teapot","message":"short and stout","status":418}`)
		case "no-header":
			h.Del("X-Request-Id")
			io.WriteString(w, backendPets)
		case "not-built":
			http.NotFound(w, r)
		case "not-implemented":
			w.WriteHeader(http.StatusNotImplemented)
			io.WriteString(w, `{"code":"not_implemented","message":"later","status":501}`)
		case "echo-key":
			seen := r.Header.Get("Authorization")
			h.Set("X-Seen", seen)
			body, _ := json.Marshal([]map[string]string{{"id": "x", "seen": seen}})
			w.Write(body)
		case "endless":
			chunk := []byte(strings.Repeat(`{"id":1,"name":"Endless Rex","categoryId":1},`, 1000))
			io.WriteString(w, "[")
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case "slow":
			select {
			case <-time.After(time.Minute):
			case <-r.Context().Done():
			}
		default:
			io.WriteString(w, backendPets)
		}
	})
	fmt.Printf("backend serving http://%s/v1\n", ln.Addr())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	<-ctx.Done()
	hs.Close()
	return 0
}

// testBackend is a running test backend.
type testBackend struct {
	url  string // its base URL, ending in /v1
	root string
	cmd  *exec.Cmd
}

// stop stops the backend, and waits for it.
func (b *testBackend) stop() {
	b.cmd.Process.Signal(syscall.SIGTERM)
	b.cmd.Wait()
}

// startTestBackend runs this test binary as the test backend.
func startTestBackend(t *testing.T) *testBackend {
	t.Helper()
	if testing.Short() {
		t.Skip("runs processes")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), backendEnv+"=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the test backend printed no start line: %v", err)
	}
	url := strings.TrimSpace(strings.TrimPrefix(line, "backend serving "))
	return &testBackend{url: url, root: strings.TrimSuffix(url, "/v1"), cmd: cmd}
}

// hits returns how many requests of the API the backend got.
func (b *testBackend) hits(t *testing.T) int {
	t.Helper()
	resp, err := http.Get(b.root + "/hits")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	n, _ := strconv.Atoi(string(body))
	return n
}

// withRequestID writes the Petstore's document with a required
// X-Request-Id on the 200 of listPets, and returns its file.
func withRequestID(t *testing.T) string {
	t.Helper()
	anchor := "          description: A page of animals.\n          headers:\n"
	doc := string(spec.YAML())
	if !strings.Contains(doc, anchor) {
		t.Fatalf("the Petstore's listPets no longer reads %q", anchor)
	}
	doc = strings.Replace(doc, anchor, anchor+
		"            X-Request-Id:\n              required: true\n              schema:\n                type: string\n", 1)
	path := filepath.Join(t.TempDir(), "petstore-request-id.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// answer is an answer petmock gave, read.
type answer struct {
	status int
	header http.Header
	body   string
}

// call sends a request to a petmock's base URL with a key; headers are
// name, value pairs.
func call(t *testing.T, method, url, key, body string, headers ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// violationsOf returns the violations a petmock lists.
func violationsOf(t *testing.T, p *binary, key string) (string, []journal.Exchange) {
	t.Helper()
	got := call(t, "GET", strings.TrimSuffix(p.url, "/v1")+"/__petmock/violations", key, "")
	var view struct {
		Backend    string
		Violations []journal.Exchange
	}
	if err := json.Unmarshal([]byte(got.body), &view); err != nil || got.status != 200 {
		t.Fatalf("GET /__petmock/violations: %d %s", got.status, got.body)
	}
	return got.body, view.Violations
}

// TestProxyEndToEnd runs petmock --proxy in front of a backend process: a
// correct answer passes through; an answer with a wrong body, an
// undocumented status or without a required header is relayed and
// recorded with its rule, in the violations view and the log; an
// operation the backend has not built is answered by the mock; forced
// answers and latency still hold.
func TestProxyEndToEnd(t *testing.T) {
	backend := startTestBackend(t)
	p := startBinary(t, "--spec", withRequestID(t), "--proxy", backend.url, "--log-format", "json")
	key := mockserver.DefaultAPIKey

	good := call(t, "GET", p.url+"/pets?limit=1", key, "")
	if good.status != 200 || good.body != backendPets || good.header.Get(mockserver.SourceHeader) != mockserver.SourceBackend {
		t.Fatalf("a correct answer: %d %s from %q, want the backend's 200 %s", good.status, good.body, good.header.Get(mockserver.SourceHeader), backendPets)
	}
	if _, got := violationsOf(t, p, key); len(got) != 0 {
		t.Fatalf("a correct answer broke %+v", got)
	}

	for _, tc := range []struct{ answer, rule string }{
		{"wrong-body", "response.body"},
		{"undocumented-status", "response.status"},
		{"no-header", "response.header"},
	} {
		got := call(t, "GET", p.url+"/pets", key, "", answerHeader, tc.answer)
		if got.header.Get(mockserver.SourceHeader) != mockserver.SourceBackend {
			t.Errorf("%s: %d %s from %q, want the backend's answer relayed", tc.answer, got.status, got.body, got.header.Get(mockserver.SourceHeader))
		}
	}
	_, listed := violationsOf(t, p, key)
	var rules []string
	for _, x := range listed {
		for _, v := range x.Violations {
			rules = append(rules, v.Rule)
		}
	}
	if want := []string{"response.header", "response.status", "response.body"}; !slices.Equal(rules, want) {
		t.Errorf("the violations view lists %q, want %q, newest first", rules, want)
	}
	if len(listed) == 3 && (listed[1].Status != 418 || listed[1].Request.Header.Get("Authorization") != "[redacted]" || !strings.Contains(listed[1].Response.Body, "teapot")) {
		t.Errorf("the undocumented status is listed as %+v, want its request, key hidden, and its answer", listed[1])
	}

	for _, tc := range []struct{ answer, path string }{
		{"not-built", "/pets/3"},
		{"not-implemented", "/pets?limit=2"},
	} {
		got := call(t, "GET", p.url+tc.path, key, "", answerHeader, tc.answer)
		if got.status != 200 || got.header.Get(mockserver.SourceHeader) != mockserver.SourceMock || strings.Contains(got.body, "Backend Rex") {
			t.Errorf("%s: %d %s from %q, want the mock's 200", tc.answer, got.status, got.body, got.header.Get(mockserver.SourceHeader))
		}
	}

	admin := strings.TrimSuffix(p.url, "/v1") + "/__petmock/"
	if got := call(t, "POST", admin+"forced", key, `{"code":503,"operation":"listPets"}`); got.status != 200 {
		t.Fatalf("POST /__petmock/forced: %d %s", got.status, got.body)
	}
	before := backend.hits(t)
	if got := call(t, "GET", p.url+"/pets", key, ""); got.status != 503 || got.header.Get(mockserver.SourceHeader) != mockserver.SourceMock {
		t.Errorf("a forced 503: %d %s from %q", got.status, got.body, got.header.Get(mockserver.SourceHeader))
	}
	if after := backend.hits(t); after != before {
		t.Errorf("the forced answer reached the backend: %d requests, then %d", before, after)
	}
	const latency = 200 * time.Millisecond
	if got := call(t, "PATCH", admin+"settings", key, `{"latency":"200ms"}`); got.status != 200 {
		t.Fatalf("PATCH /__petmock/settings: %d %s", got.status, got.body)
	}
	start := time.Now()
	if got := call(t, "GET", p.url+"/pets", key, ""); got.status != 200 || time.Since(start) < latency || got.header.Get(mockserver.SourceHeader) != mockserver.SourceBackend {
		t.Errorf("with a latency of %s: %d from %q after %s, want the backend's 200 after at least the latency", latency, got.status, got.header.Get(mockserver.SourceHeader), time.Since(start))
	}

	stopBinary(t, p)
	logged := p.stderr.String()
	for _, rule := range []string{"response.body", "response.status", "response.header"} {
		if !strings.Contains(logged, `"rule":"`+rule+`"`) {
			t.Errorf("the log has no line for %s:\n%s", rule, logged)
		}
	}
	if n := strings.Count(logged, "the backend's answer breaks the document"); n != 3 {
		t.Errorf("the log has %d lines of violations, want 3:\n%s", n, logged)
	}
	if strings.Contains(logged, key) {
		t.Errorf("the log holds the key:\n%s", logged)
	}
}

// TestProxyUnreachableEndToEnd: a backend that is down, or answers later
// than --proxy-timeout, is answered for by the mock.
func TestProxyUnreachableEndToEnd(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	p := startBinary(t, "--proxy", down)
	got := call(t, "GET", p.url+"/pets?limit=2", mockserver.DefaultAPIKey, "")
	if got.status != 200 || got.header.Get(mockserver.SourceHeader) != mockserver.SourceMock {
		t.Errorf("a backend that is down: %d %s from %q, want the mock's 200", got.status, got.body, got.header.Get(mockserver.SourceHeader))
	}

	backend := startTestBackend(t)
	p = startBinary(t, "--proxy", backend.url, "--proxy-timeout", "300ms")
	got = call(t, "POST", p.url+"/pets", mockserver.DefaultAPIKey, `{"name":"Mocked","categoryId":1}`, answerHeader, "slow")
	if got.status != 201 || got.header.Get(mockserver.SourceHeader) != mockserver.SourceMock || !strings.Contains(got.body, `"name":"Mocked"`) {
		t.Errorf("a backend too slow: %d %s from %q, want the mock's 201 of the pet sent", got.status, got.body, got.header.Get(mockserver.SourceHeader))
	}
}

// TestProxyKeyEndToEnd: with --proxy-key, the backend gets that key and
// never the client's, and neither key shows in the answer relayed, body
// or headers, in the journal, the violations view or the log, though the
// backend's answer repeats its own.
func TestProxyKeyEndToEnd(t *testing.T) {
	const frontKey, backendKey = "front-secret-6c1d", "backend-secret-92fa"
	backend := startTestBackend(t)
	p := startBinary(t, "--api-key", frontKey, "--proxy", backend.url, "--proxy-key", backendKey)
	got := call(t, "GET", p.url+"/pets", frontKey, "", answerHeader, "echo-key")
	if !strings.Contains(got.body, "Bearer "+strings.Repeat("*", len(backendKey))) {
		t.Fatalf("the backend saw %s, want the proxy key, hidden in the answer", got.body)
	}
	headers, _ := json.Marshal(got.header)
	for _, k := range []string{frontKey, backendKey} {
		if strings.Contains(got.body, k) || strings.Contains(strings.ToLower(string(headers)), k) {
			t.Errorf("the answer relayed shows the key %s: %s %s", k, headers, got.body)
		}
	}
	views, _ := violationsOf(t, p, frontKey)
	if !strings.Contains(views, "response.body") {
		t.Errorf("the answer that repeats the key is not recorded: %s", views)
	}
	journal := call(t, "GET", strings.TrimSuffix(p.url, "/v1")+"/__petmock/requests", frontKey, "").body
	stopBinary(t, p)
	for what, text := range map[string]string{"the violations": views, "the journal": journal, "the log": p.stderr.String()} {
		for _, k := range []string{frontKey, backendKey} {
			if strings.Contains(text, k) {
				t.Errorf("%s show the key %s:\n%s", what, k, text)
			}
		}
	}
}

// stopBinary stops a petmock with SIGTERM and waits for it, so that its
// log is whole.
func stopBinary(t *testing.T, p *binary) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("petmock did not exit after SIGTERM")
	}
}

// TestRecordEndToEnd records the answers of a backend with petmock
// --proxy --record --state, stops both, and plays them back with petmock
// --state alone: each valid answer comes back as the backend gave it, and
// the one that broke the document was not kept, as the log said.
func TestRecordEndToEnd(t *testing.T) {
	backend := startTestBackend(t)
	state := filepath.Join(t.TempDir(), "recorded.json")
	key := mockserver.DefaultAPIKey
	p := startBinary(t, "--proxy", backend.url, "--record", "--state", state)
	for _, path := range []string{"/pets?limit=1", "/pets?limit=5&status=available"} {
		if got := call(t, "GET", p.url+path, key, ""); got.status != 200 || got.body != backendPets {
			t.Fatalf("GET %s while recording: %d %s", path, got.status, got.body)
		}
	}
	call(t, "GET", p.url+"/pets?limit=2", key, "", answerHeader, "wrong-body")
	stopBinary(t, p)
	backend.stop()
	if !strings.Contains(p.stderr.String(), `msg="not recorded"`) || !strings.Contains(p.stderr.String(), `reason="response.body: listPets answered 200`) {
		t.Errorf("the log does not say why the answer that breaks the document was not recorded:\n%s", p.stderr)
	}

	q := startBinary(t, "--state", state)
	for _, path := range []string{"/pets?limit=1", "/pets?limit=5&status=available"} {
		got := call(t, "GET", q.url+path, key, "")
		var played, recorded any
		json.Unmarshal([]byte(got.body), &played)
		json.Unmarshal([]byte(backendPets), &recorded)
		if got.status != 200 || !reflect.DeepEqual(played, recorded) {
			t.Errorf("GET %s played back: %d %s, want the backend's %s", path, got.status, got.body, backendPets)
		}
	}
	if got := call(t, "GET", q.url+"/pets?limit=2", key, ""); strings.Contains(got.body, `"id":"one"`) || strings.Contains(got.body, "Backend Rex") {
		t.Errorf("the answer that broke the document plays back: %s", got.body)
	}
}

// TestProxyVerdictsEndToEnd: --violations-header lists what the request
// and the answer broke on the answer, and --proxy-strict answers them
// with 502.
func TestProxyVerdictsEndToEnd(t *testing.T) {
	backend := startTestBackend(t)
	key := mockserver.DefaultAPIKey
	p := startBinary(t, "--proxy", backend.url, "--violations-header")
	got := call(t, "GET", p.url+"/pets?limit=0", key, "", answerHeader, "wrong-body")
	listed := got.header.Get(mockserver.ViolationsHeader)
	if got.status != 200 || !strings.Contains(listed, `"rule":"request"`) || !strings.Contains(listed, `"rule":"response.body"`) {
		t.Errorf("--violations-header: %d, %s: %q, want the request's and the answer's", got.status, mockserver.ViolationsHeader, listed)
	}
	strict := startBinary(t, "--proxy", backend.url, "--proxy-strict")
	got = call(t, "GET", strict.url+"/pets", key, "", answerHeader, "wrong-body")
	if got.status != 502 || !strings.Contains(got.body, `"code":"bad_gateway"`) || !strings.Contains(got.body, "response.body") {
		t.Errorf("--proxy-strict: %d %s, want a 502 naming response.body", got.status, got.body)
	}
	if got := call(t, "GET", strict.url+"/pets", key, ""); got.status != 200 {
		t.Errorf("--proxy-strict, a valid answer: %d %s", got.status, got.body)
	}
}
