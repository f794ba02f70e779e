package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
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
	{name: "Deprecation and Sunset dates of its own", start: alt(altConfig{deprecation: true})},
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
// from petmock's fails the strict rules, and those only.
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
				if !strings.Contains(c.Name, "strict: ") {
					t.Errorf("check %q failed, but only strict checks should", c.Name)
				}
			}
		})
	}
}
