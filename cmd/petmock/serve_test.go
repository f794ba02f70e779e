package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/proxy"
)

func env(vars ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(vars); i += 2 {
		m[vars[i]] = vars[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestParseOptions(t *testing.T) {
	defaults := options{
		addr:        "127.0.0.1:4010",
		seed:        catalogue.DefaultSeed,
		pets:        catalogue.DefaultCount,
		logFormat:   "text",
		onSaveError: refuseWrites,
		journal:     journal.DefaultJournalSize,
		secrets:     steer.SecretsHidden,
		maxPets:     catalogue.DefaultMaxItems,
		maxStoreMB:  catalogue.DefaultMaxStoreBytes >> 20,
		slowRate:    steer.DefaultSlowBytesPerSecond,
	}
	defaults.proxyTimeout = proxy.DefaultTimeout
	with := func(edit func(*options)) options {
		o := defaults
		edit(&o)
		return o
	}
	now := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		args []string
		env  func(string) string
		want options
	}{
		{"defaults", nil, env(), defaults},
		{"every flag", []string{
			"--spec", "evolved.yaml", "--addr", ":0", "--api-key", "a", "--api-key", "b", "--seed", "7", "--pets", "0",
			"--fixtures", "f.json", "--state", "s.json", "--save-interval", "1m", "--latency", "10ms-20ms", "--fail-rate", "0.5",
			"--now", "2031-01-01", "--journal", "5", "--max-pets", "9", "--max-store-mb", "3", "--log-format", "json",
			"--on-save-error", "serve", "--admin-key", "k", "--admin-origin", "http://localhost:5173", "--admin-origin", "*",
			"--allow-host", "petmock.test", "--allow-host", "*", "--journal-secrets", "shown",
			"--proxy", "https://staging.example/v1", "--proxy-key", "staging-key", "--proxy-timeout", "3s",
			"--proxy-strict", "--violations-header", "--record", "--max-conns", "100", "--max-idle-conns", "20",
			"--fault", "slow", "--fault-rate", "0.25", "--slow-bytes-per-second", "10", "--watch",
		}, env(), options{
			spec: "evolved.yaml", addr: ":0", apiKeys: []string{"a", "b"}, seed: 7, pets: 0, fixtures: "f.json", state: "s.json",
			saveInterval: time.Minute, onSaveError: keepServing, latency: steer.Latency{Min: 10 * time.Millisecond, Max: 20 * time.Millisecond},
			failRate: 0.5, now: now, journal: 5, maxPets: 9, maxStoreMB: 3, logFormat: "json",
			secrets: steer.SecretsShown, adminKey: "k", adminOrigins: []string{"http://localhost:5173", "*"}, allowHosts: []string{"petmock.test", "*"},
			proxy: "https://staging.example/v1", proxyKey: "staging-key", proxyTimeout: 3 * time.Second,
			proxyStrict: true, violations: true, record: true, maxConns: 100, maxIdleConns: 20,
			fault: steer.FaultSlow, faultRate: 0.25, slowRate: 10, watch: true,
			given: given("watch", "spec", "addr", "api-key", "seed", "pets", "fixtures", "state", "save-interval", "latency", "fail-rate",
				"now", "journal", "max-pets", "max-store-mb", "log-format", "on-save-error", "admin-key", "admin-origin", "allow-host", "journal-secrets",
				"proxy", "proxy-key", "proxy-timeout", "fault", "fault-rate", "slow-bytes-per-second",
				"proxy-strict", "violations-header", "record", "max-conns", "max-idle-conns"),
		}},
		{"environment", nil, env("PETMOCK_ADDR", ":9", "PETMOCK_API_KEYS", "x, y", "PETMOCK_SEED", "3", "PETMOCK_PETS", "5",
			"PETMOCK_LOG_FORMAT", "json", "PETMOCK_SPEC", "other.yaml", "PETMOCK_NOW", "2031-01-01", "PETMOCK_LATENCY", "5ms"),
			with(func(o *options) {
				o.addr, o.apiKeys, o.seed, o.pets, o.logFormat, o.spec, o.now = ":9", []string{"x", "y"}, 3, 5, "json", "other.yaml", now
				o.latency = steer.Latency{Min: 5 * time.Millisecond, Max: 5 * time.Millisecond}
				o.given = given("addr", "api-key", "seed", "pets", "log-format", "spec", "now", "latency")
			})},
		{"control plane in the environment", nil, env("PETMOCK_ADMIN_KEY", "ak", "PETMOCK_ADMIN_ORIGIN", "http://a.test, https://b.test:8443",
			"PETMOCK_ALLOW_HOST", "petmock.test,box.lan"),
			with(func(o *options) {
				o.adminKey, o.adminOrigins, o.allowHosts = "ak", []string{"http://a.test", "https://b.test:8443"}, []string{"petmock.test", "box.lan"}
				o.given = given("admin-key", "admin-origin", "allow-host")
			})},
		{"proxy in the environment", nil, env("PETMOCK_PROXY", "http://127.0.0.1:8080/api/v1", "PETMOCK_PROXY_KEY", "sk", "PETMOCK_PROXY_TIMEOUT", "2s"),
			with(func(o *options) {
				o.proxy, o.proxyKey, o.proxyTimeout = "http://127.0.0.1:8080/api/v1", "sk", 2*time.Second
				o.given = given("proxy", "proxy-key", "proxy-timeout")
			})},
		{"watch in the environment", nil, env("PETMOCK_SPEC", "pets.yaml", "PETMOCK_WATCH", "1"),
			with(func(o *options) {
				o.spec, o.watch = "pets.yaml", true
				o.given = given("spec", "watch")
			})},
		{"flags over environment", []string{"--seed", "4", "--api-key", "f", "--spec", "flag.yaml"}, env("PETMOCK_SEED", "3", "PETMOCK_API_KEYS", "e", "PETMOCK_SPEC", "env.yaml"),
			with(func(o *options) {
				o.seed, o.apiKeys, o.spec = 4, []string{"f"}, "flag.yaml"
				o.given = given("seed", "api-key", "spec")
			})},
	}
	for _, tt := range tests {
		got, err := parseOptions(tt.args, tt.env, io.Discard)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: options =\n  %+v\nwant\n  %+v", tt.name, got, tt.want)
		}
	}
}

// given returns the set of the flags named.
func given(names ...string) map[string]bool {
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return set
}

// TestConnCaps: by default petmock holds half the connections it may
// open, at most defaultMaxConns, and half of those idle; the flags win.
func TestConnCaps(t *testing.T) {
	limit := func(n uint64, known bool) func() (uint64, bool) { return func() (uint64, bool) { return n, known } }
	for _, tt := range []struct {
		o     options
		limit func() (uint64, bool)
		want  connLimits
	}{
		{options{}, limit(4096, true), connLimits{2048, 1024}},
		{options{}, limit(1<<20, true), connLimits{defaultMaxConns, defaultMaxConns / 2}},
		{options{}, limit(0, false), connLimits{defaultMaxConns, defaultMaxConns / 2}},
		{options{}, limit(3, true), connLimits{2, 1}},
		{options{maxConns: 50}, limit(4096, true), connLimits{50, 25}},
		{options{maxConns: 50, maxIdleConns: 50}, limit(4096, true), connLimits{50, 50}},
	} {
		if got := connCaps(tt.o, tt.limit); got != tt.want {
			n, _ := tt.limit()
			t.Errorf("--max-conns %d --max-idle-conns %d at %d descriptors: %+v, want %+v", tt.o.maxConns, tt.o.maxIdleConns, n, got, tt.want)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		env  func(string) string
		want string
	}{
		{[]string{"--pets", "-1"}, env(), "--pets -1: must not be negative"},
		{[]string{"--log-format", "xml"}, env(), `--log-format "xml": must be text or json`},
		{[]string{"--on-save-error", "ignore"}, env(), `--on-save-error "ignore": must be refuse or serve`},
		{[]string{"--save-interval", "0s"}, env(), "--save-interval 0s: must be positive; leave it out to save every write before it is answered"},
		{nil, env("PETMOCK_SAVE_INTERVAL", "-1s"), "--save-interval -1s: must be positive"},
		{[]string{"--seed", "x"}, env(), `--seed "x": parse error`},
		{[]string{"--zebra"}, env(), "unknown flag --zebra; --help lists the flags"},
		{[]string{"extra"}, env(), `unexpected argument "extra"`},
		{nil, env("PETMOCK_PETS", "many"), `PETMOCK_PETS="many"`},
		{[]string{"--api-key", ""}, env(), "api key 1: must be non-empty"},
		{[]string{"--journal-secrets", "visible"}, env(), `--journal-secrets "visible": must be hidden or shown`},
		{[]string{"--fault", "boom"}, env(), `--fault "boom": want one of reset, empty, malformed-chunk, random-data, slow, dribble`},
		{[]string{"--fault", "reset", "--fault-rate", "2"}, env(), "--fault-rate 2: must be from 0 to 1"},
		{[]string{"--fault-rate", "0.5"}, env(), "--fault-rate 0.5: says how often --fault comes; give --fault too"},
		{nil, env("PETMOCK_SLOW_BYTES_PER_SECOND", "0"), "--slow-bytes-per-second 0: must be from 1 to 1048576"},
		{[]string{"--admin-key", "a b"}, env(), "admin api key 1: must be non-empty and contain no white space"},
		{[]string{"--admin-origin", "localhost:5173"}, env(), `--admin-origin "localhost:5173": origin "localhost:5173": want scheme://host[:port]`},
		{[]string{"--admin-origin", "http://localhost:5173/app"}, env(), `want scheme://host[:port]`},
		{nil, env("PETMOCK_ALLOW_HOST", "evil.example/x"), `PETMOCK_ALLOW_HOST="evil.example/x": host "evil.example/x": want a name`},
		{[]string{"--spec", "/does/not/exist.yaml"}, env(), "--spec: open /does/not/exist.yaml"},
		{[]string{"--spec", writeFile(t, "report.yaml", unservable), "--strict-document"}, env(), "paths./report.get.responses.200: no value made from the schema matches it"},
		{nil, env("PETMOCK_SPEC", writeFile(t, "broken.yaml", "openapi: 3.0.3\ninfo: {}\n")), "--spec: "},
		{[]string{"--proxy", "staging.example/v1"}, env(), `want the backend's base URL, http or https`},
		{nil, env("PETMOCK_PROXY", "https://user:secret@staging.example/v1"), `no credentials in the URL`},
		{[]string{"--proxy-key", "k"}, env(), "--proxy-key: there is no --proxy backend to send it to"},
		{[]string{"--watch"}, env(), "--watch: there is no document file to watch; give --spec FILE too"},
		{nil, env("PETMOCK_WATCH", "true"), "--watch: there is no document file to watch"},
		{[]string{"--spec", "x.yaml"}, env("PETMOCK_WATCH", "often"), `PETMOCK_WATCH="often"`},
		{[]string{"--proxy", "http://127.0.0.1:9/v1", "--proxy-timeout", "0s"}, env(), "--proxy-timeout 0s: must be positive"},
		{[]string{"--proxy-strict"}, env(), "--proxy-strict: there is no --proxy backend"},
		{nil, env("PETMOCK_VIOLATIONS_HEADER", "true"), "--violations-header: there is no --proxy backend"},
		{[]string{"--record", "--state", "s.json"}, env(), "--record: there is no --proxy backend to record"},
		{[]string{"--record", "--proxy", "http://127.0.0.1:9/v1"}, env(), "--record: the recording is kept with the expectations of --state"},
		{[]string{"--max-conns", "-1"}, env(), "--max-conns -1: must not be negative"},
		{[]string{"--max-conns", "10", "--max-idle-conns", "11"}, env(), "--max-idle-conns 11: more than --max-conns 10"},
	}
	for _, tt := range tests {
		err := run(context.Background(), append(tt.args, "--addr", "127.0.0.1:0"), tt.env, io.Discard, io.Discard)
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("petmock %v: err = %v, want a usage error containing %q", tt.args, err, tt.want)
		}
	}
	if err := run(context.Background(), []string{"-h"}, env(), io.Discard, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("petmock -h: err = %v, want flag.ErrHelp", err)
	}
}

// unservable is a valid document with an answer petmock cannot make: no
// string of three characters matches a pattern of one.
const unservable = `openapi: 3.0.3
info: {title: Reports, version: 1.0.0}
paths:
  /report:
    get:
      responses:
        '200': {description: A report., content: {application/json: {schema: {type: string, pattern: '^[a-c]$', minLength: 3}}}}
`

// writeFile writes a file of the test's and returns its path.
func writeFile(tb testing.TB, name, content string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestServeAnotherDocument: --spec serves a later version of the document,
// its new operations included.
func TestServeAnotherDocument(t *testing.T) {
	s := start(t, "--spec", filepath.Join("..", "..", "testdata", "evolved-ops.yaml"), "--pets", "3")
	if status, body := get(t, "GET", s.url+"/store/orders", ""); status != 200 || strings.Count(body, `"petId"`) != 3 {
		t.Errorf("GET /v1/store/orders: %d %s, want 200 with 3 orders", status, body)
	}
	if status, body := get(t, "POST", s.url+"/store/orders", `{"petId":1,"quantity":1}`); status != 201 || !strings.Contains(body, `"id":4,`) {
		t.Errorf("POST /v1/store/orders: %d %s, want 201 with id 4", status, body)
	}
	if status, _ := get(t, "GET", s.url+"/store/inventory", ""); status != 200 {
		t.Errorf("GET /v1/store/inventory: %d, want 200", status)
	}
}

// started is a running petmock.
type started struct {
	url    string // base URL, ending in /v1
	line   string // the start line
	done   chan error
	cancel context.CancelFunc
}

// start runs petmock in-process on a free port and waits for its start
// line.
func start(t *testing.T, args ...string) *started {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	s := &started{done: make(chan error, 1), cancel: cancel}
	go func() {
		s.done <- run(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), env(), outW, io.Discard)
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no start line: %v (run: %v)", err, <-s.done)
	}
	go io.Copy(io.Discard, outR)
	s.line = strings.TrimSpace(line)
	fields := strings.Fields(s.line)
	s.url = fields[2]
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			t.Error("petmock did not stop")
		}
	})
	return s
}

func TestRunServesAndPrintsKey(t *testing.T) {
	s := start(t)
	if want := "/v1 with API key " + mockserver.DefaultAPIKey + "; the admin API takes " + mockserver.DefaultAPIKey + ", the published default key"; !strings.HasPrefix(s.line, "petmock serving http://127.0.0.1:") || !strings.Contains(s.line, want) {
		t.Errorf("start line = %q, want the URL and %q", s.line, want)
	}
	req, _ := http.NewRequest("GET", s.url+"/pets?limit=100", nil)
	req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || strings.Count(string(body), `"id"`) != catalogue.DefaultCount {
		t.Errorf("GET /v1/pets?limit=100: %d with %d pets, want 200 with %d", resp.StatusCode, strings.Count(string(body), `"id"`), catalogue.DefaultCount)
	}
}

func TestRunDoesNotPrintChosenKeys(t *testing.T) {
	s := start(t, "--api-key", "my-secret-key", "--pets", "3")
	if strings.Contains(s.line, "my-secret-key") || strings.Contains(s.line, mockserver.DefaultAPIKey) {
		t.Errorf("start line = %q, want neither the chosen key nor the default one", s.line)
	}
}

// TestShutdownLetsRequestsFinish starts a request whose body is still
// arriving, shuts petmock down, then finishes the body: the request must
// be answered, and run must return without error.
func TestShutdownLetsRequestsFinish(t *testing.T) {
	s := start(t, "--pets", "0")
	// The request must be in the handler, reading its body, when the
	// shutdown begins; a connection the server has not accepted yet would
	// just be refused. Go's server answers Expect: 100-continue when the
	// handler first reads the body, so the interim answer says that the
	// request is there.
	host := strings.TrimPrefix(strings.TrimSuffix(s.url, "/v1"), "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const body = `{"name":"In flight","categoryId":1}`
	fmt.Fprintf(conn, "POST /v1/pets HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n",
		host, mockserver.DefaultAPIKey, len(body))
	answers := bufio.NewReader(conn)
	if line, err := answers.ReadString('\n'); err != nil || !strings.HasPrefix(line, "HTTP/1.1 100") {
		t.Fatalf("the request did not reach the handler: %q, %v", line, err)
	}
	answers.ReadString('\n') // the blank line after the interim answer
	s.cancel()
	// The shutdown has begun once the listener refuses new connections.
	deadline := time.Now().Add(10 * time.Second)
	for {
		probe, err := net.Dial("tcp", host)
		if err != nil {
			break
		}
		probe.Close()
		if time.Now().After(deadline) {
			t.Fatal("petmock still accepts connections after its shutdown began")
		}
		time.Sleep(5 * time.Millisecond)
	}
	fmt.Fprint(conn, body)
	resp, err := http.ReadResponse(answers, nil)
	if err != nil {
		t.Fatalf("request in flight: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Errorf("request in flight: status = %d, want 201", resp.StatusCode)
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
		s.done <- err
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after shutdown")
	}
}

// get sends a request with the default key and returns its status and
// body.
func get(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// stop cancels a started petmock and waits for run to return.
func (s *started) stop(t *testing.T) error {
	t.Helper()
	s.cancel()
	select {
	case err := <-s.done:
		s.done <- err
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("petmock did not stop")
		return nil
	}
}

func TestStateSurvivesRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "petmock-state.json")
	first := start(t, "--state", path, "--pets", "5")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the state file was not created at start: %v", err)
	}
	if status, body := get(t, "POST", first.url+"/pets", `{"name":"Kept","categoryId":4}`); status != 201 {
		t.Fatalf("POST: %d %s", status, body)
	}
	if err := first.stop(t); err != nil {
		t.Fatalf("run: %v", err)
	}
	second := start(t, "--state", path, "--pets", "5")
	if status, body := get(t, "GET", second.url+"/pets/6", ""); status != 200 || !strings.Contains(body, `"name":"Kept"`) {
		t.Errorf("after a restart, GET /v1/pets/6: %d %s, want the pet created before", status, body)
	}
	// Reset goes back to the seeded catalogue, not to the state file.
	root := strings.TrimSuffix(second.url, "/v1")
	if status, body := get(t, "POST", root+"/__petmock/reset", ""); status != 200 || body != `{"pets":5}`+"\n" {
		t.Errorf("POST reset: %d %s, want the 5 seeded pets", status, body)
	}
}

func TestStateIsSavedAtAnInterval(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s := start(t, "--state", path, "--pets", "0", "--save-interval", "50ms")
	get(t, "POST", s.url+"/pets", `{"name":"Periodic","categoryId":1}`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), "Periodic") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the state file never got the new pet while petmock ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestCorruptStateIsRefusedAndKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	torn := []byte(`[{"id":1,"name":"Half","categoryId":1},{"id":2,"na`)
	os.WriteFile(path, torn, 0o644)
	err := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--state", path}, env(), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "corrupt") || !strings.Contains(err.Error(), path) {
		t.Errorf("start with a torn state file: err = %v, want it refused by name", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, torn) {
		t.Errorf("the torn state file was changed")
	}
}

func TestStartFromFixtures(t *testing.T) {
	s := start(t, "--fixtures", filepath.Join("..", "..", "testdata", "catalogue-small.json"))
	status, body := get(t, "GET", s.url+"/pets?limit=100", "")
	want, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "catalogue-small.json"))
	pets, _ := readPets(want)
	if status != 200 || strings.Count(body, `"id"`) != len(pets) || !strings.Contains(body, pets[0].Name) {
		t.Errorf("GET /v1/pets with --fixtures: %d %s", status, body)
	}
	err := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--fixtures", "/does/not/exist.json"}, env(), io.Discard, io.Discard)
	if !errors.As(err, new(usageError)) {
		t.Errorf("--fixtures of a missing file: %v, want a usage error", err)
	}
}

func TestNowFlagRemovesGetPet(t *testing.T) {
	after := start(t, "--now", "2031-01-01")
	if status, body := get(t, "GET", after.url+"/pets/1", ""); status != 410 || !strings.Contains(body, `"code":"gone"`) {
		t.Errorf("--now 2031-01-01: GET /v1/pets/1 = %d %s, want 410 gone", status, body)
	}
	before := start(t, "--now", "2030-12-04T00:00:00Z")
	if status, _ := get(t, "GET", before.url+"/pets/1", ""); status != 200 {
		t.Errorf("--now 2030-12-04: GET /v1/pets/1 = %d, want 200", status)
	}
}

func TestChaosFlags(t *testing.T) {
	s := start(t, "--fail-rate", "1", "--latency", "1ms-2ms")
	if status, body := get(t, "GET", s.url+"/pets", ""); status != 503 || !strings.Contains(body, `"code":"unavailable"`) {
		t.Errorf("--fail-rate 1: %d %s, want 503", status, body)
	}
	for _, args := range [][]string{
		{"--fail-rate", "1.5"},
		{"--latency", "slow"},
		{"--latency", "1m"},
		{"--now", "someday"},
		{"--save-interval", "0s"},
		{"--journal", "-1"},
	} {
		err := run(context.Background(), append(args, "--addr", "127.0.0.1:0"), env(), io.Discard, io.Discard)
		if !errors.As(err, new(usageError)) {
			t.Errorf("petmock %v: err = %v, want a usage error", args, err)
		}
	}
}
