package check

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
)

// hostileTimeout is Settings.Timeout against a hostile server whose answer
// never comes in full: short, as each costs a timeout. Against the others
// it is the default, so that a slow machine reads a flood to its cut.
const hostileTimeout = 300 * time.Millisecond

// fiftyMB is more than a body the suite reads.
const fiftyMB = 50 << 20

// hostileServers each break HTTP in one way. Every one that can echoes the
// key, in a body, a header or a status line, so that each verdict also
// shows that the key is not in it. Three requests that get no complete
// answer stop a run; an answer that breaks the contract does not.
var hostileServers = []struct {
	name  string
	start func(tb testing.TB) *ct.HostileServer
	says  []string // what the verdict says; $URL stands for the base URL
	rule  string   // the rule broken
	stops bool     // whether the third such request stops the run
	waits bool     // whether the answer never comes in full, so the verdict waits for hostileTimeout
	// wrote bounds the bytes written in answer to one request, where the
	// server would write more than the suite reads; 0 for none.
	wrote int64
}{
	{
		name:  "accepts the connection and never answers",
		start: ct.NewSilent,
		says:  []string{"no answer within 300ms"},
		rule:  "transport", stops: true, waits: true,
	},
	{
		name: "takes the request and never answers",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-s.Done():
				}
			})
		},
		says: []string{"no answer within 300ms"},
		rule: "transport", stops: true, waits: true,
	},
	{
		name: "sends headers and never the body",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				c := ct.Hijack(w)
				link := "Link: <http://elsewhere.example/?echo=" + url.QueryEscape(r.Header.Get("Authorization")) + ">; rel=\"next\"\r\n"
				io.WriteString(c, ct.Head("Content-Length: 1000\r\n", link))
				s.Hold(c)
			})
		},
		says: []string{
			"no complete body within 300ms (received 0 of the 1000 bytes that Content-Length announced)",
			"Link: <http://elsewhere.example/?echo=Bearer+$PETSTORE_API_KEY>",
		},
		rule: "transport", stops: true, waits: true,
	},
	{
		name: "trickles the body, a byte every 50ms",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				c := ct.Hijack(w)
				defer c.Close()
				body := ct.EchoedPets(r, 1<<20)
				io.WriteString(c, ct.Head("Content-Length: "+strconv.Itoa(len(body))+"\r\n"))
				tick := time.NewTicker(50 * time.Millisecond)
				defer tick.Stop()
				for _, b := range body {
					if _, err := c.Write([]byte{b}); err != nil {
						return
					}
					select {
					case <-tick.C:
					case <-s.Done():
						return
					}
				}
			})
		},
		says: []string{"no complete body within 300ms (received "},
		rule: "transport", stops: true, waits: true,
	},
	{
		name: "closes the connection mid-body",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				c := ct.Hijack(w)
				defer c.Close()
				io.WriteString(c, ct.Head("Content-Length: 1000\r\n"))
				c.Write(ct.EchoedPets(r, 100)[:100])
			})
		},
		says: []string{
			"the connection closed mid-body (received 100 of the 1000 bytes that Content-Length announced)",
			`[{"id":1,"name":"Bearer $PETSTORE_API_KEY"`,
		},
		rule: "transport", stops: true,
	},
	{
		name: "answers with 50 MB, announced by Content-Length",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				s.Flood(ct.Hijack(w), ct.Head("Content-Length: "+strconv.Itoa(fiftyMB)+"\r\n"), false, ct.EchoedPets(r, 64<<10), fiftyMB)
			})
		},
		says: []string{fmt.Sprintf("body larger than %d bytes, the most the suite reads: Content-Length announced %d; not read", judge.MaxBodyBytes, fiftyMB)},
		rule: "transport", stops: true,
		wrote: judge.MaxBodyBytes,
	},
	{
		name: "streams 50 MB without Content-Length",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				s.Flood(ct.Hijack(w), ct.Head("Transfer-Encoding: chunked\r\n"), true, ct.EchoedPets(r, 64<<10), fiftyMB)
			})
		},
		says: []string{
			fmt.Sprintf("body larger than %d bytes, the most the suite reads: reading stopped there", judge.MaxBodyBytes),
			`[{"id":1,"name":"Bearer $PETSTORE_API_KEY"`,
		},
		rule: "transport", stops: true,
		wrote: judge.MaxBodyBytes,
	},
	{
		name: "sends endless headers",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				line := "X-Echo: " + r.Header.Get("Authorization") + "\r\n"
				s.Flood(ct.Hijack(w), "HTTP/1.1 200 OK\r\n", false, []byte(strings.Repeat(line, 1000)), fiftyMB)
			})
		},
		says: []string{"no HTTP answer: ", fmt.Sprintf("server response headers exceeded %d bytes", judge.MaxHeaderBytes)},
		rule: "transport", stops: true,
		wrote: judge.MaxHeaderBytes,
	},
	{
		name: "answers with invalid JSON",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write(ct.EchoedPets(r, 100)[:80])
			})
		},
		says: []string{"the body is not valid JSON: unexpected end of JSON input, at byte 80 of 80", `[{"id":1,"name":"Bearer $PETSTORE_API_KEY"`},
		rule: "contract.response",
	},
	{
		name: "answers with JSON nested 100000 deep",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)))
			})
		},
		says: []string{"exceeded max depth, at byte 10001 of 200000"},
		rule: "contract.response",
	},
	{
		name: "announces a Content-Length longer than the body, and keeps the connection open",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				c := ct.Hijack(w)
				io.WriteString(c, ct.Head("Content-Length: 1000\r\n"))
				c.Write(ct.EchoedPets(r, 100)[:100])
				s.Hold(c)
			})
		},
		says: []string{
			"no complete body within 300ms (received 100 of the 1000 bytes that Content-Length announced)",
			`[{"id":1,"name":"Bearer $PETSTORE_API_KEY"`,
		},
		rule: "transport", stops: true, waits: true,
	},
	{
		// What follows the announced length sits on the connection as if it
		// were the next answer: net/http logs it or reads it as one.
		name: "announces a Content-Length shorter than the body",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				c := ct.Hijack(w)
				// Connection: close, so that no later request is sent on
				// this connection, whose next bytes are the rest of this
				// body: where the client's reuse of it raced its reading
				// of them, the next request was swallowed by Hold and
				// never answered (a CI run's "no answer within 10s").
				io.WriteString(c, ct.Head("Content-Length: 10\r\n", "Connection: close\r\n"))
				c.Write(ct.EchoedPets(r, 300))
				s.Hold(c)
			})
		},
		says: []string{"the body is not valid JSON: unexpected end of JSON input, at byte 10 of 10", "Content-Length: 10", `[{"id":1,"`},
		rule: "contract.response",
	},
	{
		name: "echoes the key as its status line",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				c := ct.Hijack(w)
				defer c.Close()
				io.WriteString(c, r.Header.Get("Authorization")+"\r\n\r\n")
			})
		},
		says: []string{"no HTTP answer: ", `malformed HTTP status code "$PETSTORE_API_KEY"`},
		rule: "transport", stops: true,
	},
	{
		name: "echoes the key in a malformed header",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				c := ct.Hijack(w)
				defer c.Close()
				io.WriteString(c, "HTTP/1.1 200 OK\r\nX-Echo "+r.Header.Get("Authorization")+"\r\n\r\n")
			})
		},
		says: []string{`malformed MIME header: missing colon: "X-Echo Bearer $PETSTORE_API_KEY"`},
		rule: "transport", stops: true,
	},
	{
		name: "redirects in a loop on its own host",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Has("hop") {
					// Only a client that follows comes back with the mark.
					s.NoteWritten(1 << 40)
				}
				w.Header().Set("Location", r.URL.Path+"?hop=1&echo="+url.QueryEscape(r.Header.Get("Authorization")))
				w.WriteHeader(http.StatusFound)
			})
		},
		says:  []string{"redirect not followed: 302 to $URL/pets?hop=1&echo=Bearer+$PETSTORE_API_KEY"},
		rule:  "redirect",
		wrote: 0,
	},
	{
		name: "redirects to the URL asked for",
		start: func(tb testing.TB) *ct.HostileServer {
			return ct.NewHostile(tb, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", r.URL.String())
				w.WriteHeader(http.StatusTemporaryRedirect)
			})
		},
		says: []string{"redirect loop refused: 307 to the URL that was asked for"},
		rule: "redirect",
	},
}

// TestHostileServers judges servers that each break HTTP in one way, with
// a check of one request, three times: each verdict names the rule broken
// and says what went wrong, without the key; the third request without a
// complete answer stops the run. No server gets much more into the
// judge than it reads.
func TestHostileServers(t *testing.T) {
	t.Parallel()
	for _, tc := range hostileServers {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tc.start(t)
			cfg := Settings{BaseURL: s.URL, APIKey: ct.Key}
			if tc.waits {
				cfg.Timeout = hostileTimeout
			}
			h := testHarness(t, cfg, 1)
			t.Cleanup(h.CloseIdleConnections)
			ctx := checkContext(t)
			for i := 1; i <= judge.MaxTransportFailures; i++ {
				what := fmt.Sprintf("request %d", i)
				err := h.CheckStatusFilter(ctx, "available")
				var aborted *judge.Aborted
				stopped := errors.As(err, &aborted)
				if want := tc.stops && i == judge.MaxTransportFailures; stopped != want {
					t.Errorf("%s: verdict %v; the run stops: %v, want %v", what, err, stopped, want)
				}
				if stopped && !strings.Contains(err.Error(), "the run stops: 3 requests got no complete answer") {
					t.Errorf("%s: the verdict does not say why the run stops:\n%s", what, err)
				}
				if wantBroken(t, what, err, tc.rule) == nil {
					continue
				}
				for _, want := range tc.says {
					if want = strings.ReplaceAll(want, "$URL", s.URL); !strings.Contains(err.Error(), want) {
						t.Errorf("%s: the report does not say %q:\n%s", what, want, err)
					}
				}
			}
			if most := s.MostWritten.Load(); tc.wrote > 0 && most > tc.wrote+8<<20 || tc.rule == "redirect" && most > 0 {
				t.Errorf("the server wrote %d bytes into one answer before the judge stopped reading, or was followed", most)
			}
		})
	}
}

// TestRedirectElsewhereGetsNoKey: a deployment that redirects to another
// host sends the judge nowhere. The other host gets no request, so neither
// the key nor anything else reaches it, and the verdict says why.
func TestRedirectElsewhereGetsNoKey(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex // guards auth
		auth []string   // Authorization headers the other host received
	)
	elsewhere := ct.NewHostile(t, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	})
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		s := ct.NewHostile(t, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", elsewhere.URL+strings.TrimPrefix(r.URL.Path, "/v1")+"?echo="+url.QueryEscape(r.Header.Get("Authorization")))
			w.WriteHeader(code)
		})
		h := testHarness(t, Settings{BaseURL: s.URL, APIKey: ct.Key}, 1)
		err := h.CheckStatusFilter(checkContext(t), "sold")
		what := strconv.Itoa(code)
		if wantBroken(t, what, err, "redirect") != nil {
			origin := strings.TrimSuffix(s.URL, "/v1")
			want := fmt.Sprintf("redirect to another host refused: %d to %s/pets?echo=Bearer+$PETSTORE_API_KEY; the API key is sent to %s only", code, elsewhere.URL, origin)
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the report does not say %q:\n%s", what, want, err)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(auth) > 0 {
		t.Errorf("the other host got %d requests; want none", len(auth))
	}
}

// TestRateLimitedRunStops: a deployment that keeps answering 429 breaks no
// rule of the interface, which leaves rate limits open, but cannot be
// judged: each check it refuses is skipped, and the third stops the run,
// saying why.
func TestRateLimitedRunStops(t *testing.T) {
	t.Parallel()
	s := ct.NewHostile(t, func(s *ct.HostileServer, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	h := testHarness(t, Settings{BaseURL: s.URL, APIKey: ct.Key}, 1)
	ctx := checkContext(t)
	const says = "rate limited: the deployment answered 429 Too Many Requests 3 times in a row"
	for i := 1; i < judge.MaxRateLimited; i++ {
		wantSkipped(t, fmt.Sprintf("request %d", i), h.CheckNotFound(ctx), says)
	}
	err := h.CheckNotFound(ctx)
	var aborted *judge.Aborted
	if !errors.As(err, &aborted) || !errors.As(aborted.Err, new(*judge.Skipped)) {
		t.Fatalf("request %d: verdict %v, want an *Aborted of a *Skipped", judge.MaxRateLimited, err)
	}
	for _, want := range []string{says, "the run stops: 3 requests were still rate limited"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the verdict does not say %q:\n%s", want, err)
		}
	}
	if n := s.Requests.Load(); n != judge.MaxRateLimited*(1+judge.MaxRateLimitRetries) {
		t.Errorf("the server got %d requests, want %d requests sent %d times each", n, judge.MaxRateLimited, 1+judge.MaxRateLimitRetries)
	}
}
