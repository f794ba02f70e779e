package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const wrkOutput = `Running 3s test @ http://127.0.0.1:4020/v1/pets?limit=20
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.02ms    1.33ms  22.76ms   89.50%
    Req/Sec    39.51k     1.73k   41.62k    83.33%
  Latency Distribution
     50%  696.00us
     75%    1.05ms
     90%    2.21ms
     99%    4.65ms
  117944 requests in 3.00s, 179.98MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:  39293.12
Transfer/sec:     59.96MB
`

func TestParseWrk(t *testing.T) {
	l, err := parseWrk(wrkOutput)
	if err != nil {
		t.Fatal(err)
	}
	want := load{rps: 39293.12, p50: 696 * time.Microsecond, p99: 4650 * time.Microsecond, errors: 7}
	if l != want {
		t.Errorf("parseWrk = %+v, want %+v", l, want)
	}
	if _, err := parseWrk("unable to connect to 127.0.0.1:9 Connection refused"); err == nil {
		t.Error("parseWrk accepted output without figures")
	}
	seconds := strings.Replace(wrkOutput, "99%    4.65ms", "99%    1.20s", 1)
	if l, _ := parseWrk(seconds); l.p99 != 1200*time.Millisecond {
		t.Errorf("p99 in seconds = %s, want 1.2s", l.p99)
	}
}

// TestStaticHandlerReplaysAnswers checks that the baseline writes the very
// bytes and headers petmock gave.
func TestStaticHandlerReplaysAnswers(t *testing.T) {
	get := canned{Status: 200, Header: http.Header{"Content-Type": {"application/json"}, "Link": {"<x>; rel=\"next\""}, "Date": {"old"}}, Body: []byte(`[{"id":1}]` + "\n")}
	post := canned{Status: 201, Header: http.Header{"Content-Type": {"application/json"}, "Location": {"/v1/pets/9"}}, Body: []byte(`{"id":9}` + "\n")}
	srv := httptest.NewServer(staticHandler(get, post))
	defer srv.Close()
	for _, tt := range []struct {
		method string
		want   canned
	}{{"GET", get}, {"POST", post}} {
		req, _ := http.NewRequest(tt.method, srv.URL+"/v1/pets", strings.NewReader(`{"name":"x"}`))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want.Status || !bytes.Equal(body, tt.want.Body) {
			t.Errorf("%s: %d %s, want %d %s", tt.method, resp.StatusCode, body, tt.want.Status, tt.want.Body)
		}
		for k := range tt.want.Header {
			if k != "Date" && resp.Header.Get(k) != tt.want.Header.Get(k) {
				t.Errorf("%s: %s = %q, want %q", tt.method, k, resp.Header.Get(k), tt.want.Header.Get(k))
			}
		}
	}
}

func TestPrintTableMarksMisses(t *testing.T) {
	var buf bytes.Buffer
	printTable(&buf, []result{{"a", "1", ">= 2", false}, {"bb", "3", ">= 2", true}})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[1], "MISSED") || !strings.HasSuffix(lines[2], "met") {
		t.Errorf("table:\n%s", buf.String())
	}
}

func TestParseOptions(t *testing.T) {
	o, err := parseOptions([]string{"--quick"}, io.Discard)
	if err != nil || o.wrk.duration != 3*time.Second || o.rounds != 1 {
		t.Errorf("--quick: %+v, %v", o, err)
	}
	if _, err := parseOptions([]string{"--duration", "500ms"}, io.Discard); err == nil {
		t.Error("--duration 500ms accepted; wrk takes whole seconds")
	}
}
