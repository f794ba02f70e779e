package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/conformance"
)

// hostileTimeout is the --timeout of every run against a hostile server.
const hostileTimeout = time.Second

// hostileLimit bounds the wall time of a run against a hostile server: the
// preflight and the requests sent before the run stops, each allowed
// hostileTimeout, and slack for a loaded machine. It detects hangs and does
// not measure speed: a run that waited out every check would take minutes.
const hostileLimit = (conformance.MaxTransportFailures+2)*hostileTimeout + 10*time.Second

// hostileServer breaks HTTP in one way, and counts what it managed to do.
type hostileServer struct {
	url string // base URL, with the version segment

	done chan struct{}  // closed when the test ends: held connections let go
	wg   sync.WaitGroup // counts handlers and held connections

	requests    atomic.Int64 // requests (or, for a silent server, connections) received
	mostWritten atomic.Int64 // the most bytes written in answer to one request
}

// newHostile serves every request with handle, over a real connection.
func newHostile(tb testing.TB, handle func(s *hostileServer, w http.ResponseWriter, r *http.Request)) *hostileServer {
	tb.Helper()
	s := &hostileServer{done: make(chan struct{})}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.wg.Add(1)
		defer s.wg.Done()
		s.requests.Add(1)
		handle(s, w, r)
	}))
	tb.Cleanup(func() {
		close(s.done)
		hs.Close()
		s.wg.Wait()
	})
	s.url = hs.URL + "/v1"
	return s
}

// newSilent accepts connections and never sends a byte on them.
func newSilent(tb testing.TB) *hostileServer {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &hostileServer{done: make(chan struct{}), url: "http://" + ln.Addr().String() + "/v1"}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.requests.Add(1)
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.hold(c)
			}()
		}
	}()
	tb.Cleanup(func() {
		close(s.done)
		ln.Close()
		s.wg.Wait()
	})
	return s
}

// hold keeps c open and silent until the client closes it or the test
// ends, then closes it.
func (s *hostileServer) hold(c net.Conn) {
	gone := make(chan struct{})
	go func() {
		io.Copy(io.Discard, c)
		close(gone)
	}()
	select {
	case <-gone:
	case <-s.done:
	}
	c.Close()
	<-gone
}

// hijack takes the connection of w, so that the answer can break HTTP. The
// caller closes it, or holds it.
func hijack(w http.ResponseWriter) net.Conn {
	c, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err) // the test's own server failed, not the judge
	}
	return c
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (cw *countingWriter) Write(p []byte) (int, error) {
	n, err := cw.w.Write(p)
	cw.n += int64(n)
	return n, err
}

// flood writes the head of an answer on c, then body from repeat over and
// over, up to total bytes or until the client stops reading. It records the
// bytes written. A small send buffer keeps the kernel from taking much
// more than the client reads, so the count is close to what it read.
func (s *hostileServer) flood(c net.Conn, head string, chunked bool, repeat []byte, total int64) {
	defer c.Close()
	c.(*net.TCPConn).SetWriteBuffer(64 << 10)
	cw := &countingWriter{w: c}
	defer func() { s.noteWritten(cw.n) }()
	if _, err := io.WriteString(c, head); err != nil {
		return
	}
	var body io.Writer = cw
	if chunked {
		body = httputil.NewChunkedWriter(cw)
	}
	var sent int64
	for sent < total {
		n, err := body.Write(repeat[:min(int64(len(repeat)), total-sent)])
		sent += int64(n)
		if err != nil {
			return
		}
		select {
		case <-s.done:
			return
		default:
		}
	}
	if chunked {
		io.WriteString(c, "0\r\n\r\n")
	}
}

func (s *hostileServer) noteWritten(n int64) {
	for {
		most := s.mostWritten.Load()
		if n <= most || s.mostWritten.CompareAndSwap(most, n) {
			return
		}
	}
}

// echoedPets is a valid start of a Pets body that echoes the Authorization
// header of r in every name.
func echoedPets(r *http.Request, size int) []byte {
	pet := fmt.Sprintf(`{"id":1,"name":%q,"categoryId":1,"status":"available"},`, r.Header.Get("Authorization"))
	return []byte("[" + strings.Repeat(pet, size/len(pet)+1))
}

// head is the status line and headers of a 200 with a JSON body.
func head(extra ...string) string {
	return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + strings.Join(extra, "") + "\r\n"
}

const fiftyMB = 50 << 20

// hostileServers each break HTTP in one way. Every one that can echoes the
// key, in a body, a header or a status line, so that each failure path
// also proves that the key is not printed.
var hostileServers = []struct {
	name      string
	start     func(tb testing.TB) *hostileServer
	code      int      // exit status
	preflight string   // what the preflight must say, if anything
	says      []string // what the output and any JUnit report must say
	check     func(tb testing.TB, s *hostileServer, r result)
}{
	{
		name:  "accepts the connection and never answers",
		start: newSilent,
		code:  2,
		says:  []string{"preflight: cannot reach $URL/pets?limit=1: no answer within 1s"},
	},
	{
		name: "answers the preflight, then never again",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				if s.requests.Load() == 1 {
					w.Header().Set("Content-Type", "application/json")
					w.Write([]byte("[]"))
					return
				}
				select {
				case <-r.Context().Done():
				case <-s.done:
				}
			})
		},
		code: 1,
		says: []string{"no answer within 1s", "the run stops: 3 requests got no complete answer"},
		check: func(tb testing.TB, s *hostileServer, r result) {
			// The preflight, then one request per check until the run stops.
			if n := s.requests.Load(); n > 1+conformance.MaxTransportFailures {
				tb.Errorf("the server got %d requests, want at most %d: the run did not stop", n, 1+conformance.MaxTransportFailures)
			}
		},
	},
	{
		name: "sends headers and never the body",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				c := hijack(w)
				link := "Link: <http://elsewhere.example/?echo=" + url.QueryEscape(r.Header.Get("Authorization")) + ">; rel=\"next\"\r\n"
				io.WriteString(c, head("Content-Length: 1000\r\n", link))
				s.hold(c)
			})
		},
		code: 1,
		says: []string{
			"no complete body within 1s (received 0 of the 1000 bytes that Content-Length announced)",
			"Link: <http://elsewhere.example/?echo=Bearer+$PETSTORE_API_KEY>",
			"the run stops: 3 requests got no complete answer",
		},
	},
	{
		name: "trickles the body, a byte every 50ms",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				c := hijack(w)
				defer c.Close()
				body := echoedPets(r, 1<<20)
				io.WriteString(c, head("Content-Length: "+strconv.Itoa(len(body))+"\r\n"))
				tick := time.NewTicker(50 * time.Millisecond)
				defer tick.Stop()
				for _, b := range body {
					if _, err := c.Write([]byte{b}); err != nil {
						return
					}
					select {
					case <-tick.C:
					case <-s.done:
						return
					}
				}
			})
		},
		code: 1,
		says: []string{"no complete body within 1s (received ", "the run stops: 3 requests got no complete answer"},
	},
	{
		name: "closes the connection mid-body",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				c := hijack(w)
				defer c.Close()
				io.WriteString(c, head("Content-Length: 1000\r\n"))
				c.Write(echoedPets(r, 100)[:100])
			})
		},
		code: 1,
		says: []string{
			"the connection closed mid-body (received 100 of the 1000 bytes that Content-Length announced)",
			`[{"id":1,"name":"Bearer $PETSTORE_API_KEY"`,
		},
	},
	{
		name: "answers with 50 MB, announced by Content-Length",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				s.flood(hijack(w), head("Content-Length: "+strconv.Itoa(fiftyMB)+"\r\n"), false, echoedPets(r, 64<<10), fiftyMB)
			})
		},
		code:  1,
		says:  []string{fmt.Sprintf("body larger than %d bytes, the most the suite reads: Content-Length announced %d; not read", conformance.MaxBodyBytes, fiftyMB)},
		check: wroteLittle(conformance.MaxBodyBytes),
	},
	{
		name: "streams 50 MB without Content-Length",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				s.flood(hijack(w), head("Transfer-Encoding: chunked\r\n"), true, echoedPets(r, 64<<10), fiftyMB)
			})
		},
		code: 1,
		says: []string{
			fmt.Sprintf("body larger than %d bytes, the most the suite reads: reading stopped there", conformance.MaxBodyBytes),
			`[{"id":1,"name":"Bearer $PETSTORE_API_KEY"`,
		},
		check: wroteLittle(conformance.MaxBodyBytes),
	},
	{
		name: "sends endless headers",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				line := []byte("X-Echo: " + r.Header.Get("Authorization") + "\r\n")
				s.flood(hijack(w), "HTTP/1.1 200 OK\r\n", false, []byte(strings.Repeat(string(line), 1000)), fiftyMB)
			})
		},
		code:  2,
		says:  []string{"preflight: cannot reach $URL/pets?limit=1: no HTTP answer: ", fmt.Sprintf("server response headers exceeded %d bytes", conformance.MaxHeaderBytes)},
		check: wroteLittle(conformance.MaxHeaderBytes),
	},
	{
		name: "answers with invalid JSON",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write(echoedPets(r, 100)[:80])
			})
		},
		code: 1,
		says: []string{"broken rule contract.response:", "the body is not valid JSON: unexpected end of JSON input, at byte 80 of 80", `[{"id":1,"name":"Bearer $PETSTORE_API_KEY"`},
	},
	{
		name: "answers with JSON nested 100000 deep",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)))
			})
		},
		code: 1,
		says: []string{"broken rule contract.response:", "exceeded max depth, at byte 10001 of 200000"},
	},
	{
		name: "announces a Content-Length longer than the body, and keeps the connection open",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				c := hijack(w)
				io.WriteString(c, head("Content-Length: 1000\r\n"))
				c.Write(echoedPets(r, 100)[:100])
				s.hold(c)
			})
		},
		code: 1,
		says: []string{
			"no complete body within 1s (received 100 of the 1000 bytes that Content-Length announced)",
			`[{"id":1,"name":"Bearer $PETSTORE_API_KEY"`,
			"the run stops: 3 requests got no complete answer",
		},
	},
	{
		// What follows the announced length sits on the connection as if it
		// were the next answer: net/http logs it or reads it as one.
		name: "announces a Content-Length shorter than the body",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				c := hijack(w)
				body := echoedPets(r, 300)
				io.WriteString(c, head("Content-Length: 10\r\n"))
				c.Write(body)
				s.hold(c)
			})
		},
		code: 1,
		says: []string{"broken rule contract.response:", "the body is not valid JSON: unexpected end of JSON input, at byte 10 of 10", "Content-Length: 10", `[{"id":1,"`},
	},
	{
		name: "echoes the key as its status line",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				c := hijack(w)
				defer c.Close()
				io.WriteString(c, r.Header.Get("Authorization")+"\r\n\r\n")
			})
		},
		code: 2,
		says: []string{`preflight: cannot reach $URL/pets?limit=1: no HTTP answer: `, `malformed HTTP status code "$PETSTORE_API_KEY"`},
	},
	{
		name: "answers the preflight, then echoes the key in a malformed header",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				c := hijack(w)
				defer c.Close()
				if s.requests.Load() == 1 {
					io.WriteString(c, head("Content-Length: 2\r\n")+"[]")
					return
				}
				io.WriteString(c, "HTTP/1.1 200 OK\r\nX-Echo "+r.Header.Get("Authorization")+"\r\n\r\n")
			})
		},
		code: 1,
		says: []string{`malformed MIME header: missing colon: "X-Echo Bearer $PETSTORE_API_KEY"`, "the run stops: 3 requests got no complete answer"},
	},
	{
		name: "redirects in a loop on its own host",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				if answerPreflight(s, w) {
					return
				}
				if r.URL.Query().Has("hop") {
					// Only a client that follows comes back with the mark.
					s.noteWritten(1 << 40)
				}
				w.Header().Set("Location", r.URL.Path+"?hop=1&echo="+url.QueryEscape(r.Header.Get("Authorization")))
				w.WriteHeader(http.StatusFound)
			})
		},
		code:      1,
		preflight: "answered 200 OK",
		says: []string{
			"broken rule redirect:",
			"redirect not followed: 302 to $URL/pets?hop=1&echo=Bearer+$PETSTORE_API_KEY",
		},
		check: func(tb testing.TB, s *hostileServer, r result) {
			if s.mostWritten.Load() != 0 {
				tb.Error("a redirect was followed")
			}
		},
	},
	{
		name: "redirects to the URL asked for",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				if answerPreflight(s, w) {
					return
				}
				w.Header().Set("Location", r.URL.String())
				w.WriteHeader(http.StatusTemporaryRedirect)
			})
		},
		code: 1,
		says: []string{"broken rule redirect:", "redirect loop refused: 307 to the URL that was asked for"},
	},
	{
		name: "redirects every request, the preflight's first",
		start: func(tb testing.TB) *hostileServer {
			return newHostile(tb, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", r.URL.Path+"?echo="+url.QueryEscape(r.Header.Get("Authorization")))
				w.WriteHeader(http.StatusFound)
			})
		},
		code: 2,
		says: []string{"preflight: GET $URL/pets?limit=1 answered 302 Found: a redirect to /v1/pets?echo=Bearer+$PETSTORE_API_KEY, which the suite does not follow"},
	},
}

// answerPreflight answers the first request a hostile server gets, the
// preflight, as the API would, so that the checks meet the server's
// fault; it reports whether it answered.
func answerPreflight(s *hostileServer, w http.ResponseWriter) bool {
	if s.requests.Load() != 1 {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte("[]"))
	return true
}

// wroteLittle returns a check that no answer of the server got much more
// than limit bytes into the client: limit, and slack for what the kernel
// buffers on both sides of the connection.
func wroteLittle(limit int64) func(tb testing.TB, s *hostileServer, r result) {
	return func(tb testing.TB, s *hostileServer, r result) {
		tb.Helper()
		const slack = 8 << 20
		most := s.mostWritten.Load()
		tb.Logf("the most bytes written in answer to one request: %d (limit %d)", most, limit)
		if most > limit+slack {
			tb.Errorf("the server wrote %d bytes into one answer before the client stopped reading, want at most %d + %d", most, limit, slack)
		}
	}
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
			r := judgeWithin(t, hostileLimit, s.url, "--timeout", hostileTimeout.String())
			if r.code != tc.code {
				t.Errorf("exit %d, want %d", r.code, tc.code)
			}
			out := r.stdout + r.stderr
			if tc.preflight != "" && !strings.Contains(preflightLine(r.stdout), tc.preflight) {
				t.Errorf("the preflight does not say %q", tc.preflight)
			}
			for _, want := range tc.says {
				want = strings.ReplaceAll(want, "$URL", s.url)
				if !strings.Contains(out, want) {
					t.Errorf("the output does not say %q", want)
				}
				if tc.code == 1 && !strings.Contains(string(r.junit), xmlEscape(want)) {
					t.Errorf("the JUnit report does not say %q", want)
				}
			}
			if tc.code == 2 && (r.junit != nil || strings.Contains(r.stdout, "Running Suite")) {
				t.Error("checks ran although the preflight failed")
			}
			for _, crash := range []string{"[PANICKED]", "goroutine "} {
				if strings.Contains(out, crash) {
					t.Errorf("the output shows a panic (%q)", crash)
				}
			}
			assertNoKey(t, r)
			if tc.check != nil {
				tc.check(t, s, r)
			}
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

// TestRedirectElsewhereGetsNoKey: a deployment that redirects to another
// host sends the judge nowhere. The other host gets no request, so neither
// the key nor anything else reaches it, and the output says why.
func TestRedirectElsewhereGetsNoKey(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex // guards auth
		auth []string   // Authorization headers the other host received
	)
	elsewhere := newHostile(t, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	})
	t.Run("status", func(t *testing.T) {
		for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
			t.Run(strconv.Itoa(code), func(t *testing.T) {
				t.Parallel()
				s := newHostile(t, func(s *hostileServer, w http.ResponseWriter, r *http.Request) {
					if answerPreflight(s, w) {
						return
					}
					w.Header().Set("Location", elsewhere.url+strings.TrimPrefix(r.URL.Path, "/v1")+"?echo="+url.QueryEscape(r.Header.Get("Authorization")))
					w.WriteHeader(code)
				})
				r := judgeWithin(t, hostileLimit, s.url, "--timeout", hostileTimeout.String())
				if r.code != 1 {
					t.Errorf("exit %d, want 1", r.code)
				}
				origin := strings.TrimSuffix(s.url, "/v1")
				want := fmt.Sprintf("redirect to another host refused: %d to %s/pets?echo=Bearer+$PETSTORE_API_KEY; the API key is sent to %s only", code, elsewhere.url, origin)
				if !strings.Contains(r.stdout, want) {
					t.Errorf("the output does not say %q", want)
				}
				assertNoKey(t, r)
				if t.Failed() {
					t.Logf("%s", r)
				}
			})
		}
	})
	mu.Lock()
	defer mu.Unlock()
	if len(auth) > 0 {
		withKey := 0
		for _, a := range auth {
			if strings.Contains(a, testKey) {
				withKey++
			}
		}
		t.Errorf("the other host got %d requests, %d of them with the key; want none", len(auth), withKey)
	}
}

// keyEchoes are servers that echo the key where a check reads a value
// from the answer and may quote it when it fails: in the headers of
// getPet's deprecation, in a next link, in a Location, in an Error.
var keyEchoes = []struct {
	name   string
	edit   func(key string, r *http.Request, rec *httptest.ResponseRecorder)
	strict string // what a --strict run must say, the key redacted
}{
	{
		name: "in Sunset",
		edit: func(key string, r *http.Request, rec *httptest.ResponseRecorder) {
			if isGetPet(r) {
				rec.Header().Set("Sunset", key)
			}
		},
		strict: "Sunset: $PETSTORE_API_KEY",
	},
	{
		name: "in Deprecation",
		edit: func(key string, r *http.Request, rec *httptest.ResponseRecorder) {
			if isGetPet(r) {
				rec.Header().Set("Deprecation", key)
			}
		},
		strict: "Deprecation: $PETSTORE_API_KEY",
	},
	{
		name: "in the path of a next link",
		edit: func(key string, r *http.Request, rec *httptest.ResponseRecorder) {
			if isList(r) && rec.Code == http.StatusOK {
				rec.Header().Set("Link", `</v1/pets/`+key+`?cursor=AQ>; rel="next"`)
			}
		},
		strict: "Link: </v1/pets/$PETSTORE_API_KEY?cursor=AQ>",
	},
	{
		name: "in Location",
		edit: func(key string, r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code == http.StatusCreated {
				rec.Header().Set("Location", "/v1/pets/"+key)
			}
		},
		strict: "Location: /v1/pets/$PETSTORE_API_KEY",
	},
	{
		name: "in an Error's code and message",
		edit: func(key string, r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code >= 400 {
				editJSON(rec, func(v any) any {
					m := v.(map[string]any)
					m["code"], m["message"] = key, "refused "+key
					return m
				})
			}
		},
		strict: `"code":"$PETSTORE_API_KEY"`,
	},
}

// TestKeyEchoedInValues: a server that echoes the key into a value a check
// compares gets no key printed, by default and with --strict, verbose,
// whatever fails: not in a failure, not in a skip, not in Ginkgo's or
// Gomega's own words, not in the JUnit report.
func TestKeyEchoedInValues(t *testing.T) {
	t.Parallel()
	for _, tc := range keyEchoes {
		url := serve(t, rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if auth := r.Header.Get("Authorization"); strings.Contains(auth, testKey) {
				tc.edit(strings.TrimPrefix(auth, "Bearer "), r, rec)
			}
		})(t, newPetmock(t)))
		for _, mode := range []string{"default", "strict"} {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				args := []string{"-v"}
				if mode == "strict" {
					args = append(args, "--strict")
				}
				r := judge(t, url, args...)
				assertNoKey(t, r)
				if mode == "strict" {
					if r.code != 1 {
						t.Errorf("exit %d, want 1: the echo breaks a strict rule", r.code)
					}
					if !strings.Contains(r.stdout, tc.strict) {
						t.Errorf("the output does not say %q", tc.strict)
					}
				}
				if t.Failed() {
					t.Logf("%s", r)
				}
			})
		}
	}
}
