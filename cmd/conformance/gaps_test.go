package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/conformance"
)

// gapsFilledDifferently wraps petmock into a server that conforms to the
// interface but fills each of its gaps otherwise than petmock: it clamps a
// bad limit, answers an unknown status with an empty list, sends no
// deprecation headers, no Link pagination, no Location and no challenge,
// creates pets as pending by default, uses other Error codes and a charset
// in Content-Type.
func gapsFilledDifferently(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		if isList(r) {
			q := r.URL.Query()
			if q.Has("limit") {
				n, err := strconv.Atoi(q.Get("limit"))
				switch {
				case err != nil || len(q["limit"]) > 1:
					q.Del("limit")
				default:
					q.Set("limit", strconv.Itoa(min(max(n, 1), 100)))
				}
			}
			if q.Has("status") && !slices.Contains(statuses, q.Get("status")) {
				if r.Header.Get("Authorization") == "Bearer "+testKey {
					w.Header().Set("Content-Type", "application/json; charset=utf-8")
					w.Write([]byte("[]"))
					return
				}
				q.Del("status")
			}
			r.URL.RawQuery = q.Encode()
		}
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if bytes.HasPrefix(body, []byte("{")) && !bytes.Contains(body, []byte(`"status"`)) && bytes.Contains(body, []byte(`"name"`)) {
				body = append([]byte(`{"status":"pending",`), body[1:]...)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		intercept(next, func(r *http.Request, rec *httptest.ResponseRecorder) {
			h := rec.Header()
			for _, name := range []string{"Deprecation", "Sunset", "Link", "Location", "WWW-Authenticate"} {
				h.Del(name)
			}
			h.Set("Content-Type", "application/json; charset=utf-8")
			if rec.Code >= 400 {
				editJSON(rec, func(v any) any {
					v.(map[string]any)["code"] = "E" + strconv.Itoa(rec.Code)
					return v
				})
			}
		}).ServeHTTP(w, r)
	})
}

// gapServers conform to the interface and each fill its gaps otherwise
// than petmock. Each must pass by default.
var gapServers = []struct {
	name  string
	start fault
	args  []string
}{
	{name: "petmock, its gaps filled otherwise", start: func(tb testing.TB, _ http.Handler) http.Handler {
		return gapsFilledDifferently(newPetmock(tb))
	}},
	{name: "a server of its own", start: alt(altConfig{})},
	{name: "categories of its own, others refused", start: alt(altConfig{categories: []int64{100, 101, 102, 103, 104}})},
	{name: "150 pets, later pages by ?offset= without links", start: alt(altConfig{pets: 150})},
	{name: "360 pets, later pages through links to another path", start: alt(altConfig{pets: 360, paging: "/v1/pages/pets"})},
	{name: "360 pets, later pages through links to another origin", start: alt(altConfig{pets: 360, paging: "https://pages.petstore.invalid/v1/pets"})},
	{name: "Deprecation and Sunset dates of its own", start: alt(altConfig{deprecation: true})},
	{name: "created pets show after 300ms", start: alt(altConfig{lag: 300 * time.Millisecond})},
	{name: "pets changed and removed by another client", start: alt(altConfig{churn: true})},
	{name: "a 429 now and then, with Retry-After", start: alt(altConfig{rateLimit: 40})},
	{name: "pets changed and removed by another client, read-only", start: alt(altConfig{churn: true}), args: []string{"--read-only"}},
}

// TestGapsFilledDifferently: a correct server whose gap decisions differ
// from petmock's passes by default.
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
		})
	}
}

// TestGapsFailStrict: with --strict, a server whose gap decisions differ
// from petmock's fails the strict rules, and those only: a check that is
// not strict itself may fail on one, such as a walk through pages that
// meets a link petmock would not send.
func TestGapsFailStrict(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		start fault
		rules []string
	}{
		{
			name:  "petmock, its gaps filled otherwise",
			start: func(tb testing.TB, _ http.Handler) http.Handler { return gapsFilledDifferently(newPetmock(tb)) },
			rules: []string{
				"strict.limit", "strict.status", "strict.deprecation", "strict.pagination",
				"strict.default-status", "strict.error-code", "strict.challenge", "strict.location",
			},
		},
		{
			name:  "categories of its own, others refused",
			start: alt(altConfig{categories: []int64{100, 101, 102, 103, 104}}),
			rules: []string{"strict.category"},
		},
		{
			name:  "360 pets, later pages through links to another path",
			start: alt(altConfig{pets: 360, paging: "/v1/pages/pets"}),
			rules: []string{"strict.pagination"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := judge(t, serve(t, tc.start(t, nil)), "--strict")
			if r.code != 1 {
				t.Fatalf("exit %d, want 1: the server differs from petmock\n%s", r.code, r)
			}
			for _, rule := range tc.rules {
				if !strings.Contains(r.stdout, "broken rule "+rule+":") {
					t.Errorf("no failure names rule %s", rule)
				}
			}
			for _, c := range failures(parseJUnit(t, r.junit)) {
				if !strings.Contains(c.Failure.Text+c.Failure.Message, "broken rule strict.") {
					t.Errorf("check %q failed on a rule of the interface, but only strict rules should fail", c.Name)
				}
			}
		})
	}
}

// TestNextLinkElsewhereGetsNoKey: a deployment whose next links lead to
// another origin passes by default: the checks that need a later page say
// why they cannot go on, and the other origin gets no request, so never
// the key. With --strict, such a link breaks petmock's pagination rule.
func TestNextLinkElsewhereGetsNoKey(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	}))
	defer elsewhere.Close()
	url := serve(t, newAltServer(altConfig{pets: 360, paging: elsewhere.URL + "/v1/pets"}))

	r := judge(t, url, "-v")
	if r.code != 0 {
		t.Errorf("exit %d, want 0: the pagination mechanism is a gap\n%s", r.code, r)
	}
	want := "the next link leads to another origin, " + elsewhere.URL + "/v1/pets?"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("the output does not say %q\n%s", want, r)
	}
	r = judge(t, url, "--strict")
	if r.code != 1 || !strings.Contains(r.stdout, "broken rule strict.pagination:") {
		t.Errorf("--strict: exit %d, want 1 on strict.pagination\n%s", r.code, r)
	}
	if n := requests.Load(); n > 0 {
		t.Errorf("the other origin got %d requests, want none", n)
	}
}

// TestNextLinkToAnotherPath: a next link to another path of the
// deployment is followed, with the key, since that origin has it. What it
// leads to is not shown by the interface, so an answer that is not one of
// listPets skips the check that needed it; with --strict the link breaks
// petmock's pagination rule.
func TestNextLinkToAnotherPath(t *testing.T) {
	t.Parallel()
	url := serve(t, newAltServer(altConfig{pets: 360, paging: "/v1/pages/gone", pagingGone: true}))
	r := judge(t, url, "-v")
	if r.code != 0 {
		t.Errorf("exit %d, want 0: the pagination mechanism is a gap\n%s", r.code, r)
	}
	want := "/v1/pages/gone?limit=100&offset=100&status="
	if !strings.Contains(r.stdout, "a next link led to "+strings.TrimSuffix(url, "/v1")+want) || !strings.Contains(r.stdout, "whose answer is not one of listPets") {
		t.Errorf("the output does not say that the link to %s led to no page of listPets\n%s", want, r)
	}
	r = judge(t, url, "--strict")
	if r.code != 1 || !strings.Contains(r.stdout, "broken rule strict.pagination:") {
		t.Errorf("--strict: exit %d, want 1 on strict.pagination\n%s", r.code, r)
	}
}

// TestSettleFlag: --settle is the time a created pet may take to show;
// with 0 the suite reads once, and a deployment that shows writes late
// fails the read-after-create checks.
func TestSettleFlag(t *testing.T) {
	t.Parallel()
	url := serve(t, newAltServer(altConfig{lag: 300 * time.Millisecond}))
	r := judge(t, url, "--settle", "0")
	if r.code != 1 || !strings.Contains(r.stdout, "broken rule create.read-back:") || !strings.Contains(r.stdout, "broken rule create.listed:") {
		t.Errorf("--settle 0: exit %d, want 1 on create.read-back and create.listed\n%s", r.code, r)
	}
}

// TestRateLimitedRunStops: a deployment that keeps answering 429 breaks no
// rule of the interface, which leaves rate limits open, but cannot be
// judged: each check it refuses is skipped, and the third stops the run,
// saying why.
func TestRateLimitedRunStops(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	petmock := newPetmock(t)
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
