package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
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

// TestBareCreateKeepsWhatItIsSent checks that the bare create petbench
// reads the static handler by does a create's work: each body decoded,
// given an id of its own, answered with it and a Location of it, and a body
// that is no object refused; a GET is the canned answer.
func TestBareCreateKeepsWhatItIsSent(t *testing.T) {
	get := canned{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`[]`)}
	post := canned{Status: 201, Header: http.Header{"Content-Type": {"application/json"}, "Location": {"/v1/pets/9"}, "Vary": {"Origin"}}, Body: []byte(`{"id":9}`)}
	srv := httptest.NewServer(bareCreateHandler(get, post))
	defer srv.Close()
	send := func(method, body string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+"/v1/pets", strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(data)
	}
	for i, name := range []string{"Rex", "Tom"} {
		resp, body := send("POST", `{"name":"`+name+`"}`)
		id := strconv.Itoa(i + 1)
		want := `{"id":` + id + `,"name":"` + name + `"}`
		if resp.StatusCode != 201 || body != want || resp.Header.Get("Location") != "/v1/pets/"+id || resp.Header.Get("Vary") != "Origin" {
			t.Errorf("create %d: %d %s (Location %q, Vary %q), want 201 %s at /v1/pets/%s", i, resp.StatusCode, body, resp.Header.Get("Location"), resp.Header.Get("Vary"), want, id)
		}
	}
	if resp, body := send("POST", `[1]`); resp.StatusCode != 400 {
		t.Errorf("a list sent: %d %s, want 400", resp.StatusCode, body)
	}
	if resp, body := send("GET", ""); resp.StatusCode != 200 || body != "[]" {
		t.Errorf("GET: %d %s, want the canned 200 []", resp.StatusCode, body)
	}
}

// TestReferenceRowsJudgeNothing checks that a figure shown for reference
// has no verdict, met or missed, and says so in the goal column.
func TestReferenceRowsJudgeNothing(t *testing.T) {
	var buf bytes.Buffer
	r := result{"a", "0.5", 0.5, goal{cmp: reference}}
	printTable(&buf, []result{r})
	want := "" +
		"target  measured  goal           \n" +
		"a       0.5       for reference  \n"
	if buf.String() != want || !r.met() {
		t.Errorf("table:\n%q\nwant:\n%q (met %v)", buf.String(), want, r.met())
	}
}

func TestPrintTableMarksMisses(t *testing.T) {
	var buf bytes.Buffer
	twice := goal{cmp: atLeast, bound: 2, unit: times}
	printTable(&buf, []result{{"a", "1", 1, twice}, {"bb", "3", 3, twice}})
	want := "" +
		"target  measured  goal   \n" +
		"a       1         >= 2x  MISSED\n" +
		"bb      3         >= 2x  met\n"
	if buf.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// TestGoalWordsWhatItJudges checks that each goal's text, shown in the goal
// column, states the very test its verdict applies, at and around the
// bound.
func TestGoalWordsWhatItJudges(t *testing.T) {
	for _, tt := range []struct {
		goal   goal
		figure float64
		text   string
		met    bool
	}{
		{goal{cmp: atLeast, bound: 0.60, unit: percent}, 0.60, ">= 60%", true},
		{goal{cmp: atLeast, bound: 0.60, unit: percent}, 0.59, ">= 60%", false},
		{goal{cmp: atLeast, bound: 0.40, unit: percent}, 0.41, ">= 40%", true},
		{latencyGoal, 3, "p99 <= 3x", true},
		{latencyGoal, 3.01, "p99 <= 3x", false},
		{goal{cmp: atMost, bound: 1.5, unit: times}, 1.5, "<= 1.5x", true},
		{goal{cmp: atMost, bound: 1.5, unit: times}, 1.51, "<= 1.5x", false},
		{goal{cmp: below, bound: 300 << 20, unit: megabytes}, 300<<20 - 1, "< 300 MB", true},
		{goal{cmp: below, bound: 300 << 20, unit: megabytes}, 300 << 20, "< 300 MB", false},
		{goal{cmp: below, bound: float64(3 * time.Second), unit: duration}, float64(2999 * time.Millisecond), "< 3s", true},
		{goal{cmp: below, bound: float64(3 * time.Second), unit: duration}, float64(3 * time.Second), "< 3s", false},
		{goal{cmp: below, bound: float64(50 * time.Millisecond), unit: duration}, float64(49 * time.Millisecond), "< 50ms", true},
		{goal{cmp: below, bound: float64(50 * time.Millisecond), unit: duration}, float64(50 * time.Millisecond), "< 50ms", false},
		// A ratio over a baseline that did nothing is no figure at all.
		{goal{cmp: atLeast, bound: 0.60, unit: percent}, math.NaN(), ">= 60%", false},
		{latencyGoal, math.NaN(), "p99 <= 3x", false},
		// A result whose goal was left out is missed, not passed.
		{goal{}, 0, "no goal", false},
	} {
		if got := tt.goal.String(); got != tt.text {
			t.Errorf("%+v: text = %q, want %q", tt.goal, got, tt.text)
		}
		if got := tt.goal.met(tt.figure); got != tt.met {
			t.Errorf("%s with %g: met = %t, want %t", tt.text, tt.figure, got, tt.met)
		}
	}
}

// TestLatencyGoalHoldsEveryOperation checks that a p99 over 3x the
// baseline's is MISSED for every loaded operation, createPet included,
// and that one within it is met.
func TestLatencyGoalHoldsEveryOperation(t *testing.T) {
	base := load{rps: 10000, p50: time.Millisecond, p99: 2 * time.Millisecond}
	var post bool
	for _, op := range operations {
		post = post || strings.HasPrefix(op.name, "POST ")
		for _, tt := range []struct {
			p99  time.Duration
			want string
		}{
			{8 * time.Millisecond, "MISSED"}, // 4x
			{6 * time.Millisecond, "met"},    // 3x
			{time.Millisecond, "met"},        // 0.5x
		} {
			mock := load{rps: 9000, p50: time.Millisecond, p99: tt.p99}
			var latency result
			for _, r := range op.judge(mock, base) {
				if strings.HasSuffix(r.target, " latency") {
					latency = r
				}
			}
			var buf bytes.Buffer
			printTable(&buf, []result{latency})
			line := strings.TrimSpace(strings.Split(buf.String(), "\n")[1])
			if !strings.HasPrefix(line, op.name+" latency ") || !strings.HasSuffix(line, "  p99 <= 3x  "+tt.want) {
				t.Errorf("%s with p99 %s against %s: %q, want p99 <= 3x %s", op.name, tt.p99, base.p99, line, tt.want)
			}
		}
	}
	if !post {
		t.Error("no POST among the loaded operations")
	}
}

func TestParseOptions(t *testing.T) {
	full := options{
		wrk:     wrkSettings{threads: 1, connections: 32, duration: 10 * time.Second},
		rounds:  2,
		startup: 20,
		million: 1_000_000,
	}
	for _, tt := range []struct {
		args []string
		want options
	}{
		{nil, full},
		{[]string{"--quick"}, options{
			wrk:     wrkSettings{threads: 1, connections: 32, duration: 3 * time.Second},
			rounds:  1,
			startup: 5,
			million: 1_000_000,
		}},
		{[]string{"--duration", "5s", "--connections", "64", "--threads", "2", "--rounds", "3", "--startups", "7"}, options{
			wrk:     wrkSettings{threads: 2, connections: 64, duration: 5 * time.Second},
			rounds:  3,
			startup: 7,
			million: 1_000_000,
		}},
		// --quick shortens the runs and leaves the load's shape alone.
		{[]string{"--quick", "--connections", "8", "--threads", "2"}, options{
			wrk:     wrkSettings{threads: 2, connections: 8, duration: 3 * time.Second},
			rounds:  1,
			startup: 5,
			million: 1_000_000,
		}},
		{[]string{"--only", "durability,startup"}, options{
			wrk:     wrkSettings{threads: 1, connections: 32, duration: 10 * time.Second},
			rounds:  2,
			startup: 20,
			million: 1_000_000,
			only:    map[string]bool{"durability": true, "startup": true},
		}},
	} {
		o, err := parseOptions(tt.args, io.Discard)
		if err != nil || !reflect.DeepEqual(o, tt.want) {
			t.Errorf("%q: %+v, %v; want %+v", tt.args, o, err, tt.want)
		}
	}
	for _, args := range [][]string{
		{"--duration", "500ms"}, // wrk takes whole seconds
		{"--rounds", "0"},
		{"--startups", "0"},
		{"--connections", "0"},
		{"--threads", "0"},
		{"--no-such-flag"},
		{"--only", "throughput,speed"},
	} {
		if _, err := parseOptions(args, io.Discard); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
}

// TestProxyGoals: the proxy's targets judge petmock --proxy against the
// reverse proxy, and say what each costs over a direct call.
func TestProxyGoals(t *testing.T) {
	direct := load{rps: 20000, p50: 500 * time.Microsecond, p99: 2 * time.Millisecond}
	rev := load{rps: 10000, p50: time.Millisecond, p99: 4 * time.Millisecond}
	for _, tt := range []struct {
		proxied   load
		rate, p99 string
	}{
		{load{rps: 6000, p50: 1500 * time.Microsecond, p99: 12 * time.Millisecond}, "met", "met"},
		{load{rps: 5900, p50: 3 * time.Millisecond, p99: 13 * time.Millisecond}, "MISSED", "MISSED"},
	} {
		var buf bytes.Buffer
		printTable(&buf, judgeProxy("GET /v1/pets", direct, rev, tt.proxied))
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		row := func(i int) string { return strings.Join(strings.Fields(lines[i]), " ") }
		if len(lines) != 3 || !strings.HasSuffix(row(1), ">= 60% "+tt.rate) || !strings.HasSuffix(row(2), "p99 <= 3x "+tt.p99) {
			t.Errorf("%+v against %+v:\n%s\nwant requests/s %s and p99 %s", tt.proxied, rev, buf.String(), tt.rate, tt.p99)
		}
		if !strings.Contains(row(1), "(direct 20000: ") {
			t.Errorf("the requests/s row %q does not say what the direct call did", row(1))
		}
	}
	one := load{rps: 5000, p50: 100 * time.Microsecond}
	revOne := load{rps: 2500, p50: 300 * time.Microsecond}
	for _, tt := range []struct {
		p50  time.Duration
		want bool
	}{{500 * time.Microsecond, true}, {501 * time.Microsecond, false}} {
		r := judgeProxyAdded("GET /v1/pets", one, revOne, load{p50: tt.p50})
		if r.met() != tt.want || r.goal.String() != "added p50 <= 2x" || !strings.Contains(r.measured, "reverse proxy +200µs") {
			t.Errorf("one client, p50 %s against a reverse proxy's %s: met %v (%s: %s), want %v", tt.p50, revOne.p50, r.met(), r.goal, r.measured, tt.want)
		}
	}
}

// TestReverseHandlerForwards checks that the proxy's baseline forwards a
// request below the backend's path and copies the answer back.
func TestReverseHandlerForwards(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Path", r.URL.Path+"?"+r.URL.RawQuery)
		w.WriteHeader(201)
		io.WriteString(w, "from the backend")
	}))
	defer backend.Close()
	u, _ := url.Parse(backend.URL + "/v1")
	rp := httptest.NewServer(reverseHandler(u))
	defer rp.Close()
	resp, err := http.Get(rp.URL + "/v1/pets?limit=2")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 || string(body) != "from the backend" || resp.Header.Get("X-Path") != "/v1/pets?limit=2" {
		t.Errorf("through the reverse proxy: %d %q, the backend saw %q", resp.StatusCode, body, resp.Header.Get("X-Path"))
	}
}

// TestDurabilityGoals: durable creates on a million pets are judged
// against the same on 1,000, as the cost of a write, and against the
// million's without --state, as a rate.
func TestDurabilityGoals(t *testing.T) {
	unsaved := load{rps: 20000, p50: time.Millisecond, p99: 5 * time.Millisecond}
	for _, tt := range []struct {
		small, saved load
		cost, rate   string
	}{
		{load{rps: 12000}, load{rps: 11000, p99: 8 * time.Millisecond}, "1.09x the cost", "55%"},
		{load{rps: 12000}, load{rps: 7000, p99: 8 * time.Millisecond}, "1.71x the cost", "35%"},
	} {
		rows := judgeDurability(1_000_000, tt.small, tt.saved, unsaved, time.Second)
		if len(rows) != 4 {
			t.Fatalf("%d rows, want 4", len(rows))
		}
		cost, rate := rows[0], rows[1]
		wantMet := tt.saved.rps*1.5 >= tt.small.rps
		if !strings.Contains(cost.measured, tt.cost) || cost.met() != wantMet || cost.goal.String() != "<= 1.5x" {
			t.Errorf("%.0f vs %.0f req/s: %s (%s), met %v; want %s, met %v", tt.saved.rps, tt.small.rps, cost.measured, cost.goal, cost.met(), tt.cost, wantMet)
		}
		if !strings.HasSuffix(rate.measured, "= "+tt.rate) || rate.met() != (tt.saved.rps >= unsaved.rps/2) {
			t.Errorf("%.0f over %.0f req/s: %s, met %v", tt.saved.rps, unsaved.rps, rate.measured, rate.met())
		}
	}
}

// TestBestInTurnTakesTurns checks that the servers compared are loaded in
// turn, round after round, and that the best run of each counts: a wrk
// that notes each URL it is given and reports a rate that grows with each
// run stands in for the real one.
func TestBestInTurnTakesTurns(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	script := "#!/bin/sh\n" +
		`for last; do :; done; echo "$last" >> ` + calls + "\n" +
		`n=$(wc -l < ` + calls + ")\n" +
		`printf '     50%%  1.00ms\n     99%%  2.00ms\nRequests/sec:  %d000.00\n' $n` + "\n"
	wrk := filepath.Join(dir, "wrk")
	if err := os.WriteFile(wrk, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	b := &bench{o: options{rounds: 3}, wrk: wrk, scratch: dir}
	top, err := b.bestInTurn(context.Background(), wrkSettings{threads: 1, connections: 1, duration: time.Second}, "", "http://a/", "http://b/")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Fields(string(data)), []string{"http://a/", "http://b/", "http://a/", "http://b/", "http://a/", "http://b/"}; !reflect.DeepEqual(got, want) {
		t.Errorf("loads in the order %q, want %q", got, want)
	}
	if top[0].rps != 5000 || top[1].rps != 6000 {
		t.Errorf("best runs %.0f and %.0f requests/s, want the last of each, 5000 and 6000", top[0].rps, top[1].rps)
	}
}
