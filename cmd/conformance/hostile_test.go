package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/conformance"
	ct "github.com/petstore/contract/conformance/conformancetest"
)

// hostileTimeout is the --timeout of every run against a hostile server.
const hostileTimeout = time.Second

// hostileLimit bounds the wall time of a run against a hostile server: the
// preflight and the requests sent before the run stops, each allowed
// hostileTimeout, and slack for a loaded machine. It detects hangs and does
// not measure speed: a run that waited out every check would take minutes.
const hostileLimit = (conformance.MaxTransportFailures+2)*hostileTimeout + 10*time.Second

// hostileServers each break HTTP in one way, after answering the
// preflight. Package conformance judges many more such servers
// in-process, with a check of one request each; these show that the
// command turns the verdicts into a failed run, and that the key is in
// none of its output.
var hostileServers = []struct {
	name  string
	start func(tb testing.TB) *ct.HostileServer
	says  []string // what the output and the JUnit report must say
	check func(tb testing.TB, s *ct.HostileServer, r result)
}{
	{
		name: "answers the preflight, then never again",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				if s.AnswerFirst(w) {
					return
				}
				select {
				case <-r.Context().Done():
				case <-s.Done():
				}
			})
		},
		says: []string{"no answer within 1s", "the run stops: 3 requests got no complete answer"},
		check: func(tb testing.TB, s *ct.HostileServer, r result) {
			// The preflight, then one request per check until the run stops.
			if n := s.Requests.Load(); n > 1+conformance.MaxTransportFailures {
				tb.Errorf("the server got %d requests, want at most %d: the run did not stop", n, 1+conformance.MaxTransportFailures)
			}
		},
	},
	{
		name: "redirects in a loop on its own host",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				if s.AnswerFirst(w) {
					return
				}
				if r.URL.Query().Has("hop") {
					// Only a client that follows comes back with the mark.
					s.NoteWritten(1 << 40)
				}
				w.Header().Set("Location", r.URL.Path+"?hop=1&echo="+url.QueryEscape(r.Header.Get("Authorization")))
				w.WriteHeader(http.StatusFound)
			})
		},
		says: []string{
			"broken rule redirect:",
			"redirect not followed: 302 to $URL/pets?hop=1&echo=Bearer+$PETSTORE_API_KEY",
		},
		check: func(tb testing.TB, s *ct.HostileServer, r result) {
			if s.MostWritten.Load() != 0 {
				tb.Error("a redirect was followed")
			}
			if !strings.Contains(preflightLine(r.stdout), "answered 200 OK") {
				tb.Errorf("the preflight does not say %q", "answered 200 OK")
			}
		},
	},
}

// TestHostileServers judges servers that each break HTTP in one way. Each
// run must end with a clear failure within its timeouts, print no key and
// not panic.
func TestHostileServers(t *testing.T) {
	t.Parallel()
	for _, tc := range hostileServers {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tc.start(t)
			r := judgeWithin(t, hostileLimit, s.URL, "--timeout", hostileTimeout.String())
			if r.code != 1 {
				t.Errorf("exit %d, want 1", r.code)
			}
			out := r.stdout + r.stderr
			for _, want := range tc.says {
				want = strings.ReplaceAll(want, "$URL", s.URL)
				if !strings.Contains(out, want) {
					t.Errorf("the output does not say %q", want)
				}
				if !strings.Contains(string(r.junit), xmlEscape(want)) {
					t.Errorf("the JUnit report does not say %q", want)
				}
			}
			for _, crash := range []string{"[PANICKED]", "goroutine "} {
				if strings.Contains(out, crash) {
					t.Errorf("the output shows a panic (%q)", crash)
				}
			}
			assertNoKey(t, r)
			tc.check(t, s, r)
			if t.Failed() {
				t.Logf("%s", r)
			}
		})
	}
}

// preflightLine returns the line of out that the preflight printed.
func preflightLine(out string) string {
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "conformance: preflight: ") {
			return line
		}
	}
	return ""
}

// xmlEscape escapes s as encoding/xml writes character data.
func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "\t", "&#x9;", "\n", "&#xA;", "\r", "&#xD;").Replace(s)
}

// TestKeyEchoedInValues: a server that echoes the key into every value a
// check compares gets no key printed, by default and with --strict,
// verbose, whatever fails: not in a failure, not in a skip, not in
// Ginkgo's own words, not in the JUnit report. Package conformance shows
// each echo in the verdict of the check that compares it.
func TestKeyEchoedInValues(t *testing.T) {
	t.Parallel()
	url := serve(t, ct.Echoing(ct.KeyEchoes...)(t, ct.Petmock(t)))
	for _, mode := range []string{"default", "strict"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			args := []string{"-v"}
			if mode == "strict" {
				args = append(args, "--strict")
			}
			r := judge(t, url, args...)
			assertNoKey(t, r)
			if r.code != 1 {
				t.Errorf("exit %d, want 1: the echoes break rules", r.code)
			}
			if mode == "strict" {
				for _, e := range ct.KeyEchoes {
					if !strings.Contains(r.stdout, e.Shows) {
						t.Errorf("the output does not say %q", e.Shows)
					}
				}
			}
			if t.Failed() {
				t.Logf("%s", r)
			}
		})
	}
}
