package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// fakeDeployment serves handler, counting the creates sent to it.
func fakeDeployment(tb testing.TB, handler http.HandlerFunc) (url string, posts *atomic.Int64) {
	tb.Helper()
	posts = new(atomic.Int64)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		handler(w, r)
	}))
	tb.Cleanup(hs.Close)
	return hs.URL, posts
}

// TestSeedChecksTheBaseURLFirst: a wrong base URL or key stops petmock
// seed before its first create, with one line that says what is likely
// wrong, and exit status 2.
func TestSeedChecksTheBaseURLFirst(t *testing.T) {
	const key = "a-key-never-shown"
	refuse := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write([]byte(`{"code":"unauthorized","message":"unknown API key ` + key + `","status":401}`))
		}
	}
	login := func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/login?next=%2Fv1%2Fpets&token="+key, http.StatusFound)
	}
	page := func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!doctype html><title>Petstore</title>"))
	}
	petmock := newSeedTarget(t, nil)
	tests := []struct {
		name    string
		baseURL func() (string, *atomic.Int64)
		want    []string
	}{
		{"key refused with 401", func() (string, *atomic.Int64) { u, p := fakeDeployment(t, refuse(401)); return u + "/v1", p },
			[]string{"the API key was refused", "answered 401", "check --api-key or PETSTORE_API_KEY; a deployment that refuses every key looks the same"}},
		{"key refused with 403", func() (string, *atomic.Int64) { u, p := fakeDeployment(t, refuse(403)); return u + "/v1", p },
			[]string{"the API key was refused", "answered 403"}},
		{"no version segment", func() (string, *atomic.Int64) { return strings.TrimSuffix(petmock.url, "/v1"), &petmock.posts },
			[]string{"/pets?limit=1 answered 404: is the base URL the API's, ending in its version segment such as /v1?"}},
		{"redirect to a login page", func() (string, *atomic.Int64) { u, p := fakeDeployment(t, login); return u + "/v1", p },
			[]string{"redirects (302) to http://127.0.0.1:", "/login?next=%2Fv1%2Fpets&token=$PETSTORE_API_KEY", "a login page or a wrong scheme"}},
		{"a web page", func() (string, *atomic.Int64) { u, p := fakeDeployment(t, page); return u + "/v1", p },
			[]string{"answered a web page (text/html): this base URL is not the API"}},
		{"nothing listening", func() (string, *atomic.Int64) {
			hs := httptest.NewServer(http.NotFoundHandler())
			hs.Close()
			return hs.URL + "/v1", new(atomic.Int64)
		}, []string{"/v1/pets?limit=1: no answer: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, posts := tt.baseURL()
			stdout, stderr, err := runSeed(t, env("PETSTORE_API_KEY", key), "--base-url", base, "--count", "50")
			var reported strings.Builder
			status := exitStatus(err, &reported)
			line := reported.String()
			if status != 2 || strings.Count(line, "\n") != 1 {
				t.Errorf("exit %d, reported %q; want exit 2 and one line", status, line)
			}
			for _, want := range tt.want {
				if !strings.Contains(line, want) {
					t.Errorf("reported %q, want it to say %q", line, want)
				}
			}
			if strings.Contains(line+stdout+stderr, key) {
				t.Errorf("the key is shown: %q", line+stdout+stderr)
			}
			if posts.Load() != 0 || stdout != "" || stderr != "" {
				t.Errorf("%d creates sent, stdout %q, stderr %q; want none, before the run starts", posts.Load(), stdout, stderr)
			}
		})
	}
}

// TestSeedCheckPassesAHealthyDeployment: the check costs one GET, and the
// run goes on.
func TestSeedCheckPassesAHealthyDeployment(t *testing.T) {
	st := newSeedTarget(t, nil)
	stdout, _, err := runSeed(t, env("PETSTORE_API_KEY", mockserver.DefaultAPIKey), "--base-url", st.url, "--count", "3")
	if err != nil || st.posts.Load() != 3 || st.requests.Load() != 4 {
		t.Errorf("seed: %v, %d requests of which %d creates, want 4 of which 3; %s", err, st.requests.Load(), st.posts.Load(), stdout)
	}
}
