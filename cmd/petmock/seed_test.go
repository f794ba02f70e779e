package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
)

// seedTarget is a petmock that can be told to misbehave on createPet.
type seedTarget struct {
	url      string
	store    *store.Store
	posts    atomic.Int64
	requests atomic.Int64 // of any method
}

// newSeedTarget serves a petmock, empty, behind fault: fault sees every
// createPet and answers it itself when it returns true.
func newSeedTarget(t *testing.T, fault func(w http.ResponseWriter, r *http.Request, n int64) bool) *seedTarget {
	t.Helper()
	srv, err := mockserver.New(mockserver.Config{Items: catalogue.Items{}})
	if err != nil {
		t.Fatal(err)
	}
	st := &seedTarget{store: srv.Items().Store("pets")}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st.requests.Add(1)
		if r.Method == http.MethodPost {
			n := st.posts.Add(1)
			if fault != nil && fault(w, r, n) {
				return
			}
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	st.url = hs.URL + "/v1"
	return st
}

// pets returns the pets the target stores.
func (st *seedTarget) pets(tb testing.TB) []pet {
	tb.Helper()
	var items []json.RawMessage
	for _, e := range st.store.Entries() {
		items = append(items, e.Text)
	}
	pets, err := decodePets(items)
	if err != nil {
		tb.Fatal(err)
	}
	return pets
}

func runSeed(t *testing.T, getenv func(string) string, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := seed(context.Background(), args, getenv, &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

func TestSeedCreatesEveryPet(t *testing.T) {
	st := newSeedTarget(t, nil)
	stdout, stderr, err := runSeed(t, env("PETSTORE_API_KEY", mockserver.DefaultAPIKey), "--base-url", st.url, "--count", "45", "--seed", "3", "--concurrency", "3")
	if err != nil {
		t.Fatalf("seed: %v\n%s%s", err, stdout, stderr)
	}
	if !strings.Contains(stdout, "created 45, skipped 0, failed 0 of 45 pets") {
		t.Errorf("report = %q", stdout)
	}
	if st.store.Len() != 45 {
		t.Errorf("store holds %d pets, want 45", st.store.Len())
	}
	want := generatePets(t, catalogue.Seeded{Seed: 3, Count: 45})
	got := st.pets(t)
	names := map[string]int{}
	for _, p := range want {
		names[p.Name+"/"+p.Status]++
	}
	for _, p := range got {
		names[p.Name+"/"+p.Status]--
	}
	for k, n := range names {
		if n != 0 {
			t.Errorf("pet %s: %d more expected than created", k, n)
		}
	}
	// Not a terminal: plain lines, never a carriage return.
	if strings.Contains(stderr, "\r") || !strings.Contains(stderr, "seed: 45/45 (100%) created 45") {
		t.Errorf("progress on a non-terminal = %q, want plain lines ending at 45/45", stderr)
	}
}

func TestSeedFromFixture(t *testing.T) {
	st := newSeedTarget(t, nil)
	fixture := filepath.Join("..", "..", "testdata", "catalogue-small.json")
	stdout, _, err := runSeed(t, env(), "--base-url", st.url, "--api-key", mockserver.DefaultAPIKey, "--from", fixture)
	if err != nil || !strings.Contains(stdout, "created 20, skipped 0, failed 0 of 20 pets") {
		t.Fatalf("seed --from: %v %s", err, stdout)
	}
}

// TestSeedKeepsTheFixturesOrder: by default seed sends one create at a
// time, so that an empty deployment holds the fixture's pets in its
// order, with its ids.
func TestSeedKeepsTheFixturesOrder(t *testing.T) {
	fixture := filepath.Join("..", "..", "testdata", "catalogue-small.json")
	o, err := parseSeedOptions([]string{"--base-url", "http://127.0.0.1:1/v1", "--api-key", "k", "--from", fixture}, env(), io.Discard)
	if err != nil || o.concurrency != 1 {
		t.Fatalf("--concurrency is %d by default (%v), want 1", o.concurrency, err)
	}
	st := newSeedTarget(t, nil)
	if stdout, _, err := runSeed(t, env(), "--base-url", st.url, "--api-key", mockserver.DefaultAPIKey, "--from", fixture); err != nil {
		t.Fatalf("seed --from: %v %s", err, stdout)
	}
	want, err := readPetsFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.pets(t); !slices.Equal(got, want) {
		t.Errorf("the deployment holds\n  %v\nwant the fixture's pets, in order, with their ids:\n  %v", got, want)
	}
}

func TestSeedDryRunSendsNothing(t *testing.T) {
	st := newSeedTarget(t, nil)
	stdout, _, err := runSeed(t, env(), "--base-url", st.url, "--count", "3", "--dry-run")
	if err != nil {
		t.Fatal(err)
	}
	if st.requests.Load() != 0 {
		t.Errorf("dry run sent %d requests", st.requests.Load())
	}
	if lines := strings.Count(stdout, "POST "+st.url+"/pets {\"name\":"); lines != 3 || !strings.Contains(stdout, "would create 3 pets") {
		t.Errorf("dry run printed:\n%s", stdout)
	}
}

func TestSeedRetriesThenCreates(t *testing.T) {
	st := newSeedTarget(t, func(w http.ResponseWriter, r *http.Request, n int64) bool {
		switch n {
		case 1:
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return true
		case 2, 3:
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	stdout, _, err := runSeed(t, env(), "--base-url", st.url, "--api-key", mockserver.DefaultAPIKey, "--count", "5", "--concurrency", "1")
	if err != nil || !strings.Contains(stdout, "created 5, skipped 0, failed 0") {
		t.Fatalf("seed with transient failures: %v %s", err, stdout)
	}
	if st.store.Len() != 5 || st.posts.Load() != 8 {
		t.Errorf("%d pets from %d posts, want 5 from 8", st.store.Len(), st.posts.Load())
	}
}

func TestSeedStopsCleanly(t *testing.T) {
	tests := []struct {
		name       string
		fault      func(w http.ResponseWriter, r *http.Request, n int64) bool
		args       []string
		wantReport string
		wantPosts  int64
	}{
		{
			name: "always 500",
			fault: func(w http.ResponseWriter, _ *http.Request, _ int64) bool {
				w.WriteHeader(http.StatusInternalServerError)
				return true
			},
			args:       []string{"--retries", "2"},
			wantReport: "created 0, skipped 9, failed 1 of 10 pets",
			wantPosts:  3,
		},
		{
			// A key that may read but not create passes the check of
			// the base URL, and stops the run at its first create.
			name: "key refused for creates",
			fault: func(w http.ResponseWriter, _ *http.Request, _ int64) bool {
				w.WriteHeader(http.StatusForbidden)
				return true
			},
			wantReport: "created 0, skipped 9, failed 1 of 10 pets",
			wantPosts:  1,
		},
		{
			name: "a key echoed back",
			fault: func(w http.ResponseWriter, r *http.Request, _ int64) bool {
				w.WriteHeader(http.StatusBadRequest)
				io.WriteString(w, `{"error":"bad key `+r.Header.Get("Authorization")+`"}`)
				return true
			},
			wantReport: "created 0, skipped 0, failed 10 of 10 pets",
			wantPosts:  10,
		},
		{
			name: "redirects",
			fault: func(w http.ResponseWriter, r *http.Request, _ int64) bool {
				http.Redirect(w, r, "http://127.0.0.1:1/elsewhere", http.StatusTemporaryRedirect)
				return true
			},
			wantReport: "created 0, skipped 0, failed 10 of 10 pets",
			wantPosts:  10,
		},
		{
			name: "some pets refused",
			fault: func(w http.ResponseWriter, _ *http.Request, n int64) bool {
				if n%4 == 0 {
					w.WriteHeader(http.StatusBadRequest)
					io.WriteString(w, `{"code":"bad_request","message":"name: too silly","status":400}`)
					return true
				}
				return false
			},
			wantReport: "created 8, skipped 0, failed 2 of 10 pets",
			wantPosts:  10,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newSeedTarget(t, tt.fault)
			args := append([]string{"--base-url", st.url, "--api-key", mockserver.DefaultAPIKey, "--count", "10", "--concurrency", "1"}, tt.args...)
			stdout, _, err := runSeed(t, env(), args...)
			if err == nil {
				t.Errorf("seed succeeded, want an error")
			}
			if !strings.Contains(stdout, tt.wantReport) {
				t.Errorf("report = %q, want %q", stdout, tt.wantReport)
			}
			if st.posts.Load() != tt.wantPosts {
				t.Errorf("%d posts, want %d", st.posts.Load(), tt.wantPosts)
			}
			if strings.Contains(stdout, mockserver.DefaultAPIKey) {
				t.Errorf("the report shows the key")
			}
		})
	}
}

// TestSeedBoundsConcurrency checks that requests overlap up to
// --concurrency, and never more: the first requests wait at a gate that
// opens once three are in flight together, which happens only if the
// seeder sends three at once.
func TestSeedBoundsConcurrency(t *testing.T) {
	var mu sync.Mutex
	inFlight, most := 0, 0
	full := make(chan struct{})
	var once sync.Once
	st := newSeedTarget(t, func(w http.ResponseWriter, r *http.Request, n int64) bool {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		if inFlight == 3 {
			once.Do(func() { close(full) })
		}
		mu.Unlock()
		select {
		case <-full:
		case <-time.After(10 * time.Second):
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
		return false
	})
	stdout, _, err := runSeed(t, env(), "--base-url", st.url, "--api-key", mockserver.DefaultAPIKey, "--count", "20", "--concurrency", "3")
	if err != nil {
		t.Fatalf("%v %s", err, stdout)
	}
	if most != 3 {
		t.Errorf("%d requests in flight at most, want 3 with --concurrency 3", most)
	}
}

func TestSeedUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--count", "3"},
		{"--base-url", "ftp://x/v1", "--count", "3", "--api-key", "k"},
		{"--base-url", "http://x/v1", "--api-key", "k"},
		{"--base-url", "http://x/v1", "--api-key", "k", "--count", "3", "--from", "f.json"},
		{"--base-url", "http://x/v1", "--count", "3"},
		{"--base-url", "http://x/v1", "--api-key", "k", "--count", "3", "--concurrency", "0"},
		{"--base-url", "http://x/v1", "--api-key", "k", "--from", "/does/not/exist.json"},
	} {
		if _, _, err := runSeed(t, env(), args...); !errors.As(err, new(usageError)) {
			t.Errorf("petmock seed %v: err = %v, want a usage error", args, err)
		}
	}
	if _, _, err := runSeed(t, env(), "-h"); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("petmock seed -h: %v", err)
	}
}

// TestSeedPresentsTheKeyAsTheDocumentAsks: against a deployment of a
// document whose scheme is not a bearer token, seed checks the base URL
// and creates every item with the key where the scheme says, and sends no
// bearer token.
func TestSeedPresentsTheKeyAsTheDocumentAsks(t *testing.T) {
	const key = "s3cret-key"
	for _, tt := range []struct {
		name, scheme string
		sent         func(r *http.Request) bool
	}{
		{"apiKey header", "      type: apiKey\n      in: header\n      name: X-API-Key\n",
			func(r *http.Request) bool { return r.Header.Get("X-API-Key") == key }},
		{"apiKey query", "      type: apiKey\n      in: query\n      name: api_key\n",
			func(r *http.Request) bool { return r.URL.Query().Get("api_key") == key }},
		{"apiKey cookie", "      type: apiKey\n      in: cookie\n      name: session\n",
			func(r *http.Request) bool { c, err := r.Cookie("session"); return err == nil && c.Value == key }},
		{"http basic", "      type: http\n      scheme: basic\n",
			func(r *http.Request) bool { _, password, ok := r.BasicAuth(); return ok && password == key }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := strings.Replace(string(spec.YAML()), "      type: http\n      scheme: bearer\n", tt.scheme, 1)
			file := filepath.Join(t.TempDir(), "openapi.yaml")
			if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := spec.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			srv, err := mockserver.New(mockserver.Config{Contract: c, Items: catalogue.Items{}, APIKeys: []string{key}})
			if err != nil {
				t.Fatal(err)
			}
			var requests, wrong atomic.Int64
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				if !tt.sent(r) || strings.HasPrefix(r.Header.Get("Authorization"), "Bearer") {
					wrong.Add(1)
				}
				srv.ServeHTTP(w, r)
			}))
			defer hs.Close()
			stdout, stderr, err := runSeed(t, env("PETSTORE_API_KEY", key), "--base-url", hs.URL+"/v1", "--spec", file, "--count", "5")
			if err != nil {
				t.Fatalf("seed: %v\n%s%s", err, stdout, stderr)
			}
			if n := srv.Items().Store("pets").Len(); n != 5 || !strings.Contains(stdout, "created 5, skipped 0, failed 0 of 5 pets") {
				t.Errorf("store holds %d pets, report %q; want 5 created", n, stdout)
			}
			if requests.Load() != 6 || wrong.Load() != 0 {
				t.Errorf("%d requests, %d without the key as the scheme asks or with a bearer token; want 6 (the check and 5 creates), 0", requests.Load(), wrong.Load())
			}
		})
	}
}
