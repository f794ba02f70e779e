package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/conformance"
	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/spec"
)

// TestPetmockPasses: petmock passes the suite by default, strict and
// read-only, and the report names every check. A run declares no check it
// would only skip: no strict one without --strict, no mutating one with
// --read-only; every check it skips says why, in the log and in the
// report. --read-only sends only GET requests, and still judges the reads;
// otherwise the default bound leaves room for every check, so none is
// skipped for it.
func TestPetmockPasses(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"--strict"}, {"--read-only"}, {"--read-only", "--strict"}} {
		t.Run(strings.Join(append([]string{"flags"}, args...), " "), func(t *testing.T) {
			t.Parallel()
			strict, readOnly := slices.Contains(args, "--strict"), slices.Contains(args, "--read-only")
			rec := &recorder{next: ct.Petmock(t)}
			r := judge(t, serve(t, rec), args...)
			if r.code != 0 {
				t.Fatalf("exit %d, want 0\n%s", r.code, r)
			}
			cases := parseJUnit(t, r.junit)
			if f := failures(cases); len(f) > 0 {
				t.Errorf("the report shows %d failed checks, want none: %s", len(f), f[0].Name)
			}
			for _, want := range []string{
				"authentication answers 401 with an Error body getPet with an invalid key [auth]",
				"listPets status filter returns only pets of the status asked for status=sold [listPets, status]",
				"getPet answers 404 with an Error body for an id no pet has [getPet]",
			} {
				if !hasCase(cases, want) {
					t.Errorf("the report names no check %q", want)
				}
			}
			for _, c := range cases {
				if !strict && (strings.Contains(c.Name, "strict:") || strings.Contains(c.Name, "[") && strings.Contains(c.Name, "strict]")) {
					t.Errorf("a strict check is declared in a run without --strict: %s", c.Name)
				}
				if readOnly && strings.Contains(c.Name, "mutating") {
					t.Errorf("a mutating check is declared in a read-only run: %s", c.Name)
				}
				if c.Skipped != nil && strings.TrimSpace(c.Skipped.Message) == "" {
					t.Errorf("%s is skipped without a reason", c.Name)
				}
			}
			if m := skippedCount.FindStringSubmatch(r.stdout); m == nil || m[1] != "0" && !strings.Contains(r.stdout, "\nSkipped "+m[1]+" checks:") {
				t.Errorf("the log counts skipped checks without listing them\n%s", r.stdout)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if readOnly {
				for method, n := range rec.methods {
					if method != http.MethodGet {
						t.Errorf("--read-only sent %d %s requests, want only GET", n, method)
					}
				}
				if rec.methods[http.MethodGet] < 50 {
					t.Errorf("--read-only sent %d GET requests; the read checks did not run", rec.methods[http.MethodGet])
				}
			} else {
				if n := rec.methods[http.MethodPost]; n == 0 || n > conformance.DefaultMaxCreates {
					t.Errorf("a run sent %d POST requests, want 1 to %d", n, conformance.DefaultMaxCreates)
				}
				if strings.Contains(r.stdout, "max creates reached") {
					t.Errorf("a default run skipped checks for max creates\n%s", r)
				}
			}
			assertNoKey(t, r)
		})
	}
}

// skippedCount finds the number of skipped checks in Ginkgo's summary.
var skippedCount = regexp.MustCompile(`\| (\d+) Skipped`)

// hasCase reports whether a check's name contains part.
func hasCase(cases []junitCase, part string) bool {
	for _, c := range cases {
		if strings.Contains(c.Name, part) {
			return true
		}
	}
	return false
}

// recorder wraps a handler and records the requests it receives.
type recorder struct {
	next http.Handler

	mu      sync.Mutex // guards methods and bodies
	methods map[string]int
	bodies  []string // of POST requests
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	if rec.methods == nil {
		rec.methods = map[string]int{}
	}
	rec.methods[r.Method]++
	if r.Method == http.MethodPost {
		rec.bodies = append(rec.bodies, string(body))
	}
	rec.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec.next.ServeHTTP(w, r)
}

func (rec *recorder) count(method string) int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.methods[method]
}

// TestMaxCreates: --max-creates bounds the POST requests of a run, and the
// pets created carry the prefix and the run id.
func TestMaxCreates(t *testing.T) {
	t.Parallel()
	rec := &recorder{next: ct.Petmock(t)}
	r := judge(t, serve(t, rec), "--max-creates", "3", "-v")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 (checks beyond the bound are skipped)\n%s", r.code, r)
	}
	if n := rec.count(http.MethodPost); n != 3 {
		t.Errorf("sent %d POST requests with --max-creates 3, want 3", n)
	}
	if !strings.Contains(r.stdout, "max creates reached") {
		t.Errorf("the output does not say why checks were skipped\n%s", r)
	}
	runID := regexp.MustCompile(`run id (\S+);`).FindStringSubmatch(r.stdout)
	if runID == nil {
		t.Fatalf("the output names no run id\n%s", r)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, body := range rec.bodies {
		var np struct{ Name any }
		if json.Unmarshal([]byte(body), &np) != nil {
			continue // an invalid body on purpose
		}
		if name, ok := np.Name.(string); ok && !strings.HasPrefix(name, conformance.NamePrefix+runID[1]+"-") {
			t.Errorf("created a pet named %q, want the prefix %s%s-", name, conformance.NamePrefix, runID[1])
		}
	}
}

// TestKeyNeverPrinted: a server that echoes the Authorization header in
// its errors still gets no key printed: failures show $PETSTORE_API_KEY.
func TestKeyNeverPrinted(t *testing.T) {
	t.Parallel()
	echo := ct.RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
		if rec.Code >= 400 {
			ct.EditJSON(rec, func(v any) any {
				m := v.(map[string]any)
				m["message"] = "refused " + r.Header.Get("Authorization")
				m["status"] = 499 // so that every error fails and is printed
				return m
			})
		}
		rec.Header().Set("X-Echo", r.Header.Get("Authorization"))
	})
	url := serve(t, echo(t, ct.Petmock(t)))
	for _, args := range [][]string{nil, {"--api-key", testKey, "-v"}} {
		r := judge(t, url, args...)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1\n%s", r.code, r)
		}
		assertNoKey(t, r)
		if !strings.Contains(r.stdout, `"Authorization: Bearer $PETSTORE_API_KEY"`) {
			t.Errorf("no curl line sends the key as $PETSTORE_API_KEY\n%s", r)
		}
		if !strings.Contains(r.stdout, "refused Bearer $PETSTORE_API_KEY") {
			t.Errorf("the echoed key is not shown as $PETSTORE_API_KEY\n%s", r)
		}
	}
}

// TestUnreachable: a base URL where nothing listens exits 2 with a short
// preflight message, before any spec runs.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	r := judge(t, "http://"+addr+"/v1")
	if r.code != 2 {
		t.Fatalf("exit %d, want 2\n%s", r.code, r)
	}
	if !strings.Contains(r.stderr, "preflight: cannot reach http://"+addr+"/v1/pets") {
		t.Errorf("stderr does not say the base URL cannot be reached\n%s", r)
	}
	if strings.Contains(r.stdout, "Running Suite") || r.junit != nil {
		t.Errorf("specs ran against an unreachable server\n%s", r)
	}
}

// TestLabelFilter: --label-filter selects checks by label.
func TestLabelFilter(t *testing.T) {
	t.Parallel()
	r := judge(t, serve(t, ct.Petmock(t)), "--label-filter", "auth")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", r.code, r)
	}
	ran := 0
	for _, c := range parseJUnit(t, r.junit) {
		if c.Skipped != nil {
			continue
		}
		ran++
		generic := (strings.HasPrefix(c.Name, "operation ") || strings.HasPrefix(c.Name, "security scheme ")) && strings.Contains(c.Name, "refuses, with the 401 or 403 it documents")
		if !strings.HasPrefix(c.Name, "authentication") && !generic {
			t.Errorf("--label-filter auth ran %q", c.Name)
		}
	}
	// The Petstore's: three operations, four bad credentials, the strict
	// check left out; the generic ones: three operations, two each, and
	// the seven near misses of the key of its one security scheme.
	if ran != 25 {
		t.Errorf("--label-filter auth ran %d checks, want 25", ran)
	}
}

// TestSpecFlag: --spec judges against another version of the document.
// One whose default limit is 10 fails petmock, which returns 20.
func TestSpecFlag(t *testing.T) {
	t.Parallel()
	path := writeSpec(t, "default: 20", "default: 10")
	r := judge(t, serve(t, ct.Petmock(t)), "--spec", path)
	if r.code != 1 || !strings.Contains(r.stdout, "broken rule limit.default:") {
		t.Fatalf("exit %d, want 1 on limit.default\n%s", r.code, r)
	}
}

// writeSpec writes the built-in document into a file of its own, each
// old string of the pairs replaced by the new one that follows it, and
// returns its path.
func writeSpec(tb testing.TB, oldNew ...string) string {
	tb.Helper()
	doc := string(spec.YAML())
	for i := 0; i+1 < len(oldNew); i += 2 {
		changed := strings.Replace(doc, oldNew[i], oldNew[i+1], 1)
		if changed == doc {
			tb.Fatalf("the document holds no %q to change", oldNew[i])
		}
		doc = changed
	}
	path := filepath.Join(tb.TempDir(), "openapi.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestUsageErrorsExit2 runs the binary with bad command lines. A document
// the checks cannot be made of is one: no check runs.
func TestUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	// A server that would answer, so that only the usage error stops the
	// run.
	url := serve(t, ct.Petmock(t))
	for _, args := range [][]string{
		{},
		{"--base-url", "http://127.0.0.1:1/v1", "--no-such-flag"},
		{"--base-url", "http://127.0.0.1:1/v1", "--label-filter", "auth &&"},
		{"--base-url", url, "--spec", writeSpec(t, "        default: 20\n", "")},
	} {
		r := runBinary(t, []string{"PETSTORE_API_KEY=" + testKey}, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "conformance: ") {
			t.Errorf("%q: exit %d, want 2 with a message\n%s", args, r.code, r)
		}
		if strings.Contains(r.stdout, "Running Suite") {
			t.Errorf("%q: specs ran after a usage error", args)
		}
	}
}

// TestUsageErrors calls run with bad command lines: each is a usageError
// that names its mistake, returned before any request is sent.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	env := func(vars map[string]string) func(string) string {
		return func(name string) string { return vars[name] }
	}
	withKey := env(map[string]string{keyEnv: testKey})
	noDefault := writeSpec(t, "        default: 20\n", "")
	tests := []struct {
		args   []string
		getenv func(string) string
		want   string
	}{
		{nil, withKey, "--base-url is required"},
		{[]string{"--base-url", "http://127.0.0.1:1/v1"}, env(nil), "no API key: pass --api-key or set PETSTORE_API_KEY"},
		{[]string{"--base-url", "petstore.example.com/v1"}, withKey, "must start with http:// or https://"},
		{[]string{"--base-url", "ftp://petstore.example.com/v1"}, withKey, "must start with http:// or https://"},
		{[]string{"--base-url", "http://127.0.0.1:1/v1?x=1"}, withKey, "must have no query"},
		{[]string{"--base-url", "http://127.0.0.1:1/v1", "--max-creates", "0"}, withKey, "--max-creates 0: must be at least 1"},
		{[]string{"--base-url", "http://127.0.0.1:1/v1", "--timeout", "0s"}, withKey, "--timeout 0s: must be positive"},
		{[]string{"--base-url", "http://127.0.0.1:1/v1", "--settle", "-1s"}, withKey, "--settle -1s: must not be negative"},
		{[]string{"--base-url", "http://127.0.0.1:1/v1", "--recheck", "-1s"}, withKey, "--recheck -1s: must not be negative"},
		{[]string{"--base-url", "http://127.0.0.1:1/v1", "--label-filter", "(auth"}, withKey, "--label-filter"},
		{[]string{"--base-url", "http://127.0.0.1:1/v1", "--spec", "/no/such/file.yaml"}, withKey, "--spec: open /no/such/file.yaml"},
		{[]string{"--base-url", "http://127.0.0.1:1/v1", "--spec", noDefault}, withKey, "document: listPets: limit needs a minimum, a maximum and a default"},
		{[]string{"--base-url", "http://127.0.0.1:1/v1", "extra"}, withKey, `unexpected argument "extra"`},
		{[]string{"--base-url", "http://127.0.0.1:1/v1", "--bogus"}, withKey, "unknown flag --bogus; --help lists the flags"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), tc.args, tc.getenv, &stdout, &stderr)
		if !errors.As(err, new(usageError)) {
			t.Errorf("run %q: %v, want a usage error", tc.args, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run %q: %q, want it to say %q", tc.args, err, tc.want)
		}
		if strings.Contains(stdout.String()+stderr.String()+err.Error(), testKey) {
			t.Errorf("run %q printed the key", tc.args)
		}
	}
}

// TestHelp: -h prints the flags and is not an error of the run, and names
// the document judged by its own title: the built-in one's, or that of
// the document --spec names, wherever -h is.
func TestHelp(t *testing.T) {
	widgets := ct.WriteDocument(t, ct.Widgets)
	for _, tc := range []struct {
		args       []string
		names, not string
	}{
		{[]string{"-h"}, "Judges a deployment of Petstore, the built-in document", "Widgets"},
		{[]string{"--spec", widgets, "-h"}, "Judges a deployment of Widgets (" + widgets + ")", "Petstore"},
		{[]string{"--help", "--spec=" + widgets}, "Judges a deployment of Widgets (" + widgets + ")", "Petstore"},
	} {
		var stderr bytes.Buffer
		err := run(context.Background(), tc.args, func(string) string { return "" }, io.Discard, &stderr)
		if !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("run %q: %v, want flag.ErrHelp", tc.args, err)
		}
		for _, name := range []string{"--base-url", "--api-key", "--read-only", "--strict", "--max-creates", "--junit-report", "--label-filter", "--timeout", "--settle", "--recheck", "--spec", "--v", "--no-color"} {
			if !strings.Contains(stderr.String(), "  "+name) {
				t.Errorf("%q does not list %s", tc.args, name)
			}
		}
		if !strings.Contains(stderr.String(), tc.names) || strings.Contains(stderr.String(), tc.not) {
			t.Errorf("%q says, want %q and not %q:\n%s", tc.args, tc.names, tc.not, stderr.String())
		}
	}
}

// TestRecheckFlag: --recheck is the age of the earliest item the run
// created when its items are read again at its end; with 0 they are read
// at once, which a negative Config.Recheck says.
func TestRecheckFlag(t *testing.T) {
	getenv := func(string) string { return testKey }
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{nil, conformance.DefaultRecheck},
		{[]string{"--recheck", "2s"}, 2 * time.Second},
		{[]string{"--recheck", "0"}, -1},
	} {
		o, err := parseOptions(append([]string{"--base-url", "http://127.0.0.1:1/v1"}, tc.args...), getenv, io.Discard)
		if err != nil || o.cfg.Recheck != tc.want {
			t.Errorf("%q: Config.Recheck %v (%v), want %v", tc.args, o.cfg.Recheck, err, tc.want)
		}
	}
}

// TestSettleFlag: --settle is the time a created pet may take to show;
// with 0 the suite reads once, which a negative Config.Settle says.
// Package conformance shows what each means to a deployment that shows
// its writes late.
func TestSettleFlag(t *testing.T) {
	getenv := func(string) string { return testKey }
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{nil, conformance.DefaultSettle},
		{[]string{"--settle", "200ms"}, 200 * time.Millisecond},
		{[]string{"--settle", "0"}, -1},
	} {
		o, err := parseOptions(append([]string{"--base-url", "http://127.0.0.1:1/v1"}, tc.args...), getenv, io.Discard)
		if err != nil || o.cfg.Settle != tc.want {
			t.Errorf("%q: Config.Settle %v (%v), want %v", tc.args, o.cfg.Settle, err, tc.want)
		}
	}
}

// TestPastSunsetSendsNoGetPet: once getPet's removal date has passed, no
// check asks anything of it, so a deployment that has removed it passes,
// whatever that path answers now. The document of the run says the date
// has passed.
func TestPastSunsetSendsNoGetPet(t *testing.T) {
	t.Parallel()
	past := writeSpec(t,
		"x-sunset: '2030-12-05T00:00:00Z'", "x-sunset: '2020-12-05T00:00:00Z'",
		"x-petmock-deprecated-at: '2026-01-01T00:00:00Z'", "x-petmock-deprecated-at: '2020-01-01T00:00:00Z'")
	var getPets atomic.Int64
	petmock := ct.Petmock(t)
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/v1/pets/") {
			getPets.Add(1)
			http.NotFound(w, r) // removed: the path is gone, key or no key
			return
		}
		petmock.ServeHTTP(w, r)
	}))
	for _, args := range [][]string{nil, {"--strict"}} {
		r := judge(t, url, append([]string{"--spec", past}, args...)...)
		if r.code != 0 {
			t.Errorf("%q: exit %d, want 0: getPet may be gone after its sunset\n%s", args, r.code, r)
		}
	}
	if n := getPets.Load(); n > 0 {
		t.Errorf("%d requests went to getPet after its sunset, want none", n)
	}
}

// TestShortKeyWarning: a key shorter than 8 characters is still redacted
// everywhere, which garbles reports, so the run warns once at its start;
// a longer key gets no warning.
func TestShortKeyWarning(t *testing.T) {
	t.Parallel()
	const warning = "conformance: warning: the API key is shorter than 8 characters"
	for _, tc := range []struct {
		key  string
		want int
	}{{"k", 1}, {"seven-7", 1}, {"eight-88", 0}, {testKey, 0}} {
		var stdout, stderr bytes.Buffer
		// Nothing listens there: the run stops at the preflight.
		run(context.Background(), []string{"--base-url", "http://127.0.0.1:1/v1", "--api-key", tc.key}, func(string) string { return "" }, &stdout, &stderr)
		if got := strings.Count(stdout.String()+stderr.String(), warning); got != tc.want {
			t.Errorf("a key of %d characters: warned %d times, want %d\n%s", len(tc.key), got, tc.want, stderr.String())
		}
	}
}

// TestHonoursProxy: HTTP_PROXY is honoured, as CI machines may need it.
// With an http:// base URL the proxy sees every request whole, the
// Authorization header included, as the README warns.
func TestHonoursProxy(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex // guards seen
		seen []string   // Authorization headers that reached the proxy
	)
	petmock := ct.Petmock(t)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		petmock.ServeHTTP(w, r) // a forward proxy to the deployment
	}))
	defer proxy.Close()
	r := runBinary(t, []string{"PETSTORE_API_KEY=" + testKey, "HTTP_PROXY=" + proxy.URL},
		"--base-url", "http://petstore.invalid/v1", "--label-filter", "listPets")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 through the proxy\n%s", r.code, r)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || !slices.Contains(seen, "Bearer "+testKey) {
		t.Errorf("the proxy got %d requests, none with the key: HTTP_PROXY was not honoured", len(seen))
	}
	assertNoKey(t, r)
}
