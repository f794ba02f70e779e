package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/conformance"
	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/spec"
)

// gapServers conform to the interface and each fill its gaps otherwise
// than petmock. Each must pass a whole run by default: no check raises a
// false alarm.
var gapServers = []struct {
	name  string
	start ct.Fault
	args  []string
	// timely says that the server's gap is one of time, which --strict
	// judges no otherwise, so that a strict run of it tells nothing more.
	timely bool
}{
	{name: "petmock, its gaps filled otherwise", start: func(tb testing.TB, _ http.Handler) http.Handler {
		return ct.GapsFilledDifferently(ct.Petmock(tb))
	}},
	{name: "a server of its own", start: ct.Alt(ct.AltConfig{})},
	{name: "categories of its own, others refused", start: ct.Alt(ct.AltConfig{Categories: []int64{100, 101, 102, 103, 104}})},
	{name: "150 pets, later pages by ?offset= without links", start: ct.Alt(ct.AltConfig{Pets: 150})},
	{name: "360 pets, later pages through links to another path", start: ct.Alt(ct.AltConfig{Pets: 360, Paging: "/v1/pages/pets"})},
	{name: "360 pets, later pages through links to another origin", start: ct.Alt(ct.AltConfig{Pets: 360, Paging: "https://pages.petstore.invalid/v1/pets"})},
	{name: "later pages by ?offset= through links to /v1/pets", start: ct.Alt(ct.AltConfig{Paging: "/v1/pets"})},
	{name: "later pages by ?offset=, while another client removes pets", start: ct.Alt(ct.AltConfig{Paging: "/v1/pets", Thinning: 12})},
	{name: "Deprecation and Sunset dates of its own", start: ct.Alt(ct.AltConfig{Deprecation: true})},
	{name: "Locations on a public host of its own", start: func(tb testing.TB, _ http.Handler) http.Handler {
		return ct.RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if loc := rec.Header().Get("Location"); loc != "" {
				rec.Header().Set("Location", "https://public.petstore.invalid/api"+loc[strings.Index(loc, "/v1/"):])
			}
		})(tb, ct.Petmock(tb))
	}},
	{name: "created pets show after 300ms", start: ct.Alt(ct.AltConfig{Lag: 300 * time.Millisecond}), timely: true},
	{name: "eventually consistent: created pets show in reads and lists 400ms late, their pages short of the links that count them", start: func(tb testing.TB, _ http.Handler) http.Handler {
		c, err := spec.Default()
		if err != nil {
			tb.Fatal(err)
		}
		return ct.EventuallyConsistent(tb, c, ct.Petmock(tb), 400*time.Millisecond)
	}},
	{name: "pets changed and removed by another client", start: ct.Alt(ct.AltConfig{Churn: true})},
	{name: "a 429 now and then, with Retry-After", start: ct.Alt(ct.AltConfig{RateLimit: 80}), timely: true},
	{name: "pets changed and removed by another client, read-only", start: ct.Alt(ct.AltConfig{Churn: true}), args: []string{"--read-only"}},
}

// TestGapsFilledDifferently: a correct server whose gap decisions differ
// from petmock's passes by default, and with --strict breaks no rule but
// petmock's own.
func TestGapsFilledDifferently(t *testing.T) {
	t.Parallel()
	for _, tc := range gapServers {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := judge(t, serve(t, tc.start(t, nil)), tc.args...)
			if r.code != 0 {
				t.Fatalf("a conforming server failed: exit %d, want 0\n%s", r.code, r)
			}
			assertNoKey(t, r)
			if tc.timely {
				return
			}
			strict := judge(t, serve(t, tc.start(t, nil)), append([]string{"--strict"}, tc.args...)...)
			for _, c := range failures(parseJUnit(t, strict.junit)) {
				if !strings.Contains(c.Failure.Text+c.Failure.Message, "broken rule strict.") {
					t.Errorf("--strict: check %q failed on a rule of the interface, but only strict rules may\n%s", c.Name, c.Failure.Text)
				}
			}
		})
	}
}

// TestGapsFailStrict: with --strict, a server whose gap decisions differ
// from petmock's fails the strict rules, and those only: a check that is
// not strict itself may fail on one, such as a walk through pages that
// meets a link petmock would not send. Package conformance judges each
// gap by its strict check, in-process.
func TestGapsFailStrict(t *testing.T) {
	t.Parallel()
	r := judge(t, serve(t, ct.GapsFilledDifferently(ct.Petmock(t))), "--strict")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1: the server differs from petmock\n%s", r.code, r)
	}
	for _, rule := range []string{
		"strict.limit", "strict.status", "strict.deprecation", "strict.pagination",
		"strict.default-status", "strict.error-code", "strict.challenge", "strict.location",
	} {
		if !strings.Contains(r.stdout, "broken rule "+rule+":") {
			t.Errorf("no failure names rule %s", rule)
		}
	}
	for _, c := range failures(parseJUnit(t, r.junit)) {
		if !strings.Contains(c.Failure.Text+c.Failure.Message, "broken rule strict.") {
			t.Errorf("check %q failed on a rule of the interface, but only strict rules should fail", c.Name)
		}
	}
}

// TestRateLimitedRunStops: a deployment that keeps answering 429 breaks no
// rule of the interface, which leaves rate limits open, but cannot be
// judged: each check it refuses is skipped, and the third stops the run,
// saying why.
func TestRateLimitedRunStops(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	petmock := ct.Petmock(t)
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 1 {
			petmock.ServeHTTP(w, r) // the preflight
			return
		}
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	r := judge(t, url)
	if r.code != 1 {
		t.Errorf("exit %d, want 1: the run stopped before it judged the deployment", r.code)
	}
	for _, want := range []string{"rate limited: the deployment answered 429 Too Many Requests 3 times in a row", "the run stops: 3 requests were still rate limited"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the output does not say %q", want)
		}
	}
	if strings.Contains(r.stdout, "broken rule") {
		t.Error("a rule is said to be broken, but rate limits are not the interface's")
	}
	if n := requests.Load(); n != 1+3*(1+conformance.MaxRateLimitRetries) {
		t.Errorf("the server got %d requests, want the preflight and 3 requests sent %d times each", n, 1+conformance.MaxRateLimitRetries)
	}
	if t.Failed() {
		t.Logf("%s", r)
	}
}

// TestKeyWithoutLetters: a key of digits and dashes has no other case, so
// no check sends it in another case, which would be the key itself; the
// other near misses are refused, and the run passes.
func TestKeyWithoutLetters(t *testing.T) {
	t.Parallel()
	const digits = "2026-1123-4242-0001"
	report := filepath.Join(t.TempDir(), "report.xml")
	r := runBinary(t, []string{"PETSTORE_API_KEY=" + digits}, "--base-url", serve(t, ct.PetmockKeyed(t, digits)), "--no-color", "--junit-report", report)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", r.code, r)
	}
	r.junit, _ = os.ReadFile(report)
	cases := parseJUnit(t, r.junit)
	if hasCase(cases, "the key in another case") || !hasCase(cases, "the key with a character added") {
		t.Errorf("a key without letters: want the near misses but the one in another case")
	}
}
