package mockserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

func TestPreferForcesDocumentedAnswers(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	tests := []struct {
		method, path, body string
		prefer             string
		wantStatus         int
		wantCode           string
		wantMessage        string
	}{
		{"GET", "/pets", "", "code=401", 401, "unauthorized", "prefer: answer forced by Prefer: code=401"},
		{"GET", "/pets", "", "code=400", 400, "bad_request", "prefer: answer forced by Prefer: code=400"},
		{"GET", "/pets/1", "", "code=404", 404, "not_found", "prefer: answer forced by Prefer: code=404"},
		{"GET", "/pets/1", "", "code=401", 401, "unauthorized", ""},
		{"GET", "/pets/1", "", "code=410", 410, "gone", ""},
		{"POST", "/pets", `{"name":"Rex","categoryId":1}`, "code=400", 400, "bad_request", ""},
		{"POST", "/pets", `{"name":"Rex","categoryId":1}`, "code=415", 415, "unsupported_media_type", ""},
		{"POST", "/pets", `{"name":"Rex","categoryId":1}`, "code=507", 507, "store_full", ""},
		{"GET", "/pets", "", "code=500", 500, "internal", ""},
		{"GET", "/pets/1", "", "code=503", 503, "unavailable", ""},
		{"POST", "/pets", `{"name":"Rex","categoryId":1}`, "code=503", 503, "unavailable", ""},
		{"GET", "/pets", "", "code=404", 400, "bad_request", "prefer: code=404 is not documented for listPets; use one of 200, 400, 401, or 500 or 503 to rehearse an outage"},
		{"POST", "/pets", `{"name":"Rex","categoryId":1}`, "code=404", 400, "bad_request", "prefer: code=404 is not documented for createPet; use one of 201, 400, 401, 413, 415, 507"},
		{"GET", "/pets", "", "code=abc", 400, "bad_request", "prefer: code=abc: want an HTTP status"},
		{"GET", "/pets", "", "delay=-1", 400, "bad_request", "prefer: delay=-1: want milliseconds from 0 to 30000"},
		{"GET", "/pets", "", "delay=30001", 400, "bad_request", "prefer: delay=30001"},
		{"GET", "/pets", "", "now=tomorrow", 400, "bad_request", "prefer: now=tomorrow: want a date"},
		// A forced answer still needs a key; without one, nothing else is said.
		{"GET", "/pets/1", "", "code=404", 401, "unauthorized", "authorization: missing"},
	}
	before := ts.Items().Store("pets").Len()
	for i, tt := range tests {
		headers := []string{"Prefer", tt.prefer}
		if i == len(tests)-1 {
			headers = append(headers, "Authorization", "")
		}
		resp := ts.do(t, tt.method, tt.path, tt.body, headers...)
		what := tt.method + " /v1" + tt.path + " with Prefer: " + tt.prefer
		if resp.StatusCode != tt.wantStatus {
			t.Errorf("%s: status = %d, want %d: %s", what, resp.StatusCode, tt.wantStatus, resp.body)
			continue
		}
		e := resp.apiError(t)
		if e.Code != tt.wantCode || !strings.HasPrefix(e.Message, tt.wantMessage) {
			t.Errorf("%s: error = %+v, want code %s and a message starting %q", what, e, tt.wantCode, tt.wantMessage)
		}
	}
	if after := ts.Items().Store("pets").Len(); after != before {
		t.Errorf("forced answers changed the store: %d pets, want %d", after, before)
	}
}

func TestPreferAppliedAndHeaders(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	resp := ts.do(t, "GET", "/pets/1", "", "Prefer", "code=404, delay=1")
	if got := resp.Header.Get("Preference-Applied"); got != "delay=1, code=404" {
		t.Errorf("Preference-Applied = %q, want %q", got, "delay=1, code=404")
	}
	if resp.Header.Get("Sunset") == "" {
		t.Errorf("a forced getPet answer lost its deprecation headers")
	}
	if got := ts.do(t, "GET", "/pets", "", "Prefer", "code=503").Header.Get("Retry-After"); got != "1" {
		t.Errorf("forced 503: Retry-After = %q, want 1", got)
	}
	if got := ts.do(t, "GET", "/pets", "", "Prefer", "code=401").Header.Get("WWW-Authenticate"); got == "" {
		t.Errorf("forced 401: no WWW-Authenticate")
	}
	if got := ts.do(t, "GET", "/pets", "", "Prefer", "return=minimal, respond-async").StatusCode; got != 200 {
		t.Errorf("unknown preferences: status = %d, want them ignored and 200", got)
	}
}

// TestPreferSuccessCodeAnswersAsUsual checks that forcing the success
// status of an operation changes nothing: the request is handled, and
// validated, as without it.
// TestKeyBeforeChaos checks that a request without a key gets its 401 at
// once, whatever the latency, the fail rate or its Prefer header say.
func TestKeyBeforeChaos(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{FailRate: 1, Latency: steer.Latency{Min: time.Second, Max: time.Second}})
	start := time.Now()
	resp := ts.do(t, "GET", "/pets", "", "Authorization", "", "Prefer", "delay=3000")
	if resp.StatusCode != 401 {
		t.Errorf("no key, fail rate 1: status = %d, want 401", resp.StatusCode)
	}
	if elapsed := time.Since(start); elapsed >= time.Second {
		t.Errorf("no key: answered after %s; the latency must not apply before the key check", elapsed)
	}
}

func TestPreferNowIsReported(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	resp := ts.do(t, "GET", "/pets/1", "", "Prefer", "now=2031-01-01")
	if resp.StatusCode != 410 || resp.Header.Get("Preference-Applied") != "now=2031-01-01" {
		t.Errorf("Prefer: now=2031-01-01: %d with Preference-Applied %q", resp.StatusCode, resp.Header.Get("Preference-Applied"))
	}
}

func TestPreferSuccessCodeAnswersAsUsual(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Items: items([]Pet{})})
	if resp := ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`, "Prefer", "code=201"); resp.StatusCode != 201 || ts.Items().Store("pets").Len() != 1 {
		t.Errorf("POST with Prefer: code=201: %s with %d pets stored, want 201 and 1", resp, ts.Items().Store("pets").Len())
	}
	if resp := ts.do(t, "POST", "/pets", `{"name":"Rex"}`, "Prefer", "code=201"); resp.StatusCode != 400 {
		t.Errorf("invalid POST with Prefer: code=201: status = %d, want 400", resp.StatusCode)
	}
	if resp := ts.do(t, "GET", "/pets/99", "", "Prefer", "code=200"); resp.StatusCode != 404 {
		t.Errorf("GET a missing pet with Prefer: code=200: status = %d, want 404", resp.StatusCode)
	}
}

// TestDelays checks the lower bound of a delay only: a delay may be
// longer on a busy machine, never shorter.
func TestDelays(t *testing.T) {
	const d = 120 * time.Millisecond
	t.Run("Prefer", func(t *testing.T) {
		ts := newTestServer(t, mockserver.Config{})
		start := time.Now()
		resp := ts.do(t, "GET", "/pets", "", "Prefer", "delay=120")
		if elapsed := time.Since(start); resp.StatusCode != 200 || elapsed < d {
			t.Errorf("Prefer: delay=120: %d after %s, want 200 after at least %s", resp.StatusCode, elapsed, d)
		}
	})
	t.Run("latency", func(t *testing.T) {
		ts := newTestServer(t, mockserver.Config{Latency: steer.Latency{Min: d, Max: d + time.Millisecond}})
		for _, path := range []string{"/pets", "/pets/1"} {
			start := time.Now()
			if resp := ts.do(t, "GET", path, ""); resp.StatusCode != 200 || time.Since(start) < d {
				t.Errorf("GET /v1%s with latency %s: %d after %s", path, d, resp.StatusCode, time.Since(start))
			}
		}
	})
}

func TestParseLatency(t *testing.T) {
	tests := []struct {
		in      string
		want    steer.Latency
		wantErr bool
	}{
		{"100ms", steer.Latency{Min: 100 * time.Millisecond, Max: 100 * time.Millisecond}, false},
		{"50ms-300ms", steer.Latency{Min: 50 * time.Millisecond, Max: 300 * time.Millisecond}, false},
		{"0s-1s", steer.Latency{Max: time.Second}, false},
		{"300ms-50ms", steer.Latency{}, true},
		{"1m", steer.Latency{}, true},
		{"fast", steer.Latency{}, true},
		{"50ms-", steer.Latency{}, true},
	}
	for _, tt := range tests {
		got, err := steer.ParseLatency(tt.in)
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("ParseLatency(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestFailRateRepeatsForASeed(t *testing.T) {
	statuses := func(seed uint64) []int {
		ts := newTestServer(t, mockserver.Config{FailRate: 0.5, ChaosSeed: seed})
		var out []int
		for range 40 {
			resp := ts.do(t, "GET", "/pets?limit=1", "")
			if resp.StatusCode == 503 {
				if e := resp.apiError(t); e.Code != "unavailable" || e.Status != 503 {
					t.Errorf("injected failure: %+v, want an unavailable Error", e)
				}
			}
			out = append(out, resp.StatusCode)
		}
		return out
	}
	a, b, c := statuses(7), statuses(7), statuses(8)
	failures := 0
	for _, s := range a {
		if s == 503 {
			failures++
		}
	}
	if failures < 5 || failures > 35 {
		t.Errorf("fail rate 0.5 failed %d of 40 requests", failures)
	}
	if stringsOf(a) != stringsOf(b) {
		t.Errorf("the same seed gave different failures:\n%v\n%v", a, b)
	}
	if stringsOf(a) == stringsOf(c) {
		t.Errorf("seeds 7 and 8 gave the same failures: %v", a)
	}
	all := newTestServer(t, mockserver.Config{FailRate: 1, Items: items(nil)})
	if resp := all.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`); resp.StatusCode != 503 || all.Items().Store("pets").Len() != 0 {
		t.Errorf("fail rate 1: POST answered %d with %d pets stored, want 503 and nothing stored", resp.StatusCode, all.Items().Store("pets").Len())
	}
}

func stringsOf(v []int) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestTimeTravel(t *testing.T) {
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	d := c.Operation(spec.GetPet).Deprecation
	after := d.Sunset.Add(time.Hour)
	before := d.Sunset.Add(-time.Second)
	tests := []struct {
		name   string
		now    time.Time
		prefer string
		want   int
	}{
		{"today", time.Time{}, "", 200},
		{"a second before the sunset", before, "", 200},
		{"at the sunset", d.Sunset, "", 410},
		{"after the sunset", after, "", 410},
		{"Prefer: now= after", time.Time{}, "now=2031-01-01", 410},
		{"Prefer: now= before", after, "now=2030-12-04T23:59:59Z", 200},
	}
	for _, tt := range tests {
		cfg := mockserver.Config{}
		if !tt.now.IsZero() {
			cfg.Now = func() time.Time { return tt.now }
		}
		ts := newTestServer(t, cfg)
		resp := ts.do(t, "GET", "/pets/1", "", "Prefer", tt.prefer)
		if resp.StatusCode != tt.want {
			t.Errorf("%s: getPet status = %d, want %d: %s", tt.name, resp.StatusCode, tt.want, resp.body)
			continue
		}
		if tt.want == 410 {
			e := resp.apiError(t)
			if e.Code != "gone" || !strings.Contains(e.Message, "removed on 2030-12-05; use GET /v1/pets with the status filter") {
				t.Errorf("%s: error = %+v, want gone pointing to GET /v1/pets", tt.name, e)
			}
			if !strings.Contains(resp.Header.Get("Link"), `/v1/pets>; rel="successor-version"`) {
				t.Errorf("%s: Link = %q, want the replacement", tt.name, resp.Header.Get("Link"))
			}
		}
		if got := ts.do(t, "GET", "/pets", "", "Prefer", tt.prefer).StatusCode; got != 200 {
			t.Errorf("%s: listPets status = %d, want 200", tt.name, got)
		}
	}
}

func TestServedDocument(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	root := strings.TrimSuffix(ts.URL, "/v1")
	for _, path := range []string{"/openapi.yaml", "/openapi.json"} {
		req, _ := http.NewRequest("GET", root+path, nil)
		resp := ts.send(t, req)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s without a key: %d", path, resp.StatusCode)
		}
		c, err := spec.Read(resp.body)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		if len(c.Doc.Servers) != 1 || c.Doc.Servers[0].URL != ts.URL {
			t.Errorf("GET %s: servers = %v, want only %s", path, c.Doc.Servers, ts.URL)
		}
		if op := c.Operation(spec.GetPet); op == nil || op.Deprecation == nil {
			t.Errorf("GET %s: getPet missing or not deprecated", path)
		}
	}
	req, _ := http.NewRequest("GET", root+"/openapi.yaml", nil)
	req.Host = `evil"host`
	if resp := ts.send(t, req); !bytes.Contains(resp.body, []byte("url: http://localhost/v1")) {
		t.Errorf("a Host with a quote was written into the document")
	}
}
