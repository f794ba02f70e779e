package proxy_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/proxy"
)

// seen is what a backend received of one request.
type seen struct {
	method, host, path, rawPath, query string
	header                             http.Header
	body                               string
}

// recordingBackend is a backend that records the last request it got and
// answers with answer.
func recordingBackend(tb testing.TB, answer http.HandlerFunc) (*httptest.Server, *atomic.Pointer[seen]) {
	tb.Helper()
	var last atomic.Pointer[seen]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		last.Store(&seen{method: r.Method, host: r.Host, path: r.URL.Path, rawPath: r.URL.RawPath, query: r.URL.RawQuery, header: r.Header.Clone(), body: string(body)})
		if answer != nil {
			answer(w, r)
		}
	}))
	tb.Cleanup(srv.Close)
	return srv, &last
}

func newBackend(tb testing.TB, cfg proxy.Config) *proxy.Backend {
	tb.Helper()
	b, err := proxy.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// forward forwards r, whose path below the base is path, and returns the
// answer, read and closed.
func forward(tb testing.TB, b *proxy.Backend, r *http.Request, path string, body []byte) (*proxy.Answer, error) {
	tb.Helper()
	a, err := b.Forward(proxy.Request{In: r, Path: path, Body: body, Proto: "http", Host: "127.0.0.1:4010"})
	if a != nil {
		tb.Cleanup(a.Close)
	}
	return a, err
}

// TestForward: the backend gets the method, the path below its base path,
// the query, the body and the client's headers, but those of one hop; the
// Host is its own, and X-Forwarded-* say where the client sent it.
func TestForward(t *testing.T) {
	srv, last := recordingBackend(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Connection", "X-Hop")
		w.Header().Set("X-Hop", "dropped")
		w.Header().Set("X-Kept", "kept")
		w.WriteHeader(201)
		io.WriteString(w, `{"id":51}`)
	})
	b := newBackend(t, proxy.Config{URL: srv.URL + "/staging/v1/"})
	r := httptest.NewRequest("POST", "http://127.0.0.1:4010/v1/pets/a%2Fb?limit=2&status=sold", nil)
	r.Header.Set("Authorization", "Bearer client-key")
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Connection", "X-Secret-Hop")
	r.Header.Set("X-Secret-Hop", "1")
	r.Header.Set("Keep-Alive", "timeout=5")
	r.Header.Set("Proxy-Authorization", "Basic cHJveHk6cHJveHk=")
	r.Header.Set("Accept-Encoding", "br")
	r.Header.Set("Forwarded", "host=evil.example")
	r.Header.Set("X-Forwarded-Host", "evil.example")
	a, err := forward(t, b, r, "/pets/a%2Fb", []byte(`{"name":"Rex"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := last.Load()
	want := seen{method: "POST", host: strings.TrimPrefix(srv.URL, "http://"), path: "/staging/v1/pets/a/b", rawPath: "/staging/v1/pets/a%2Fb", query: "limit=2&status=sold", body: `{"name":"Rex"}`}
	if got.method != want.method || got.host != want.host || got.path != want.path || got.rawPath != want.rawPath || got.query != want.query || got.body != want.body {
		t.Errorf("the backend got %s %s %s (raw %s) ?%s %q, want %s %s %s (raw %s) ?%s %q",
			got.method, got.host, got.path, got.rawPath, got.query, got.body, want.method, want.host, want.path, want.rawPath, want.query, want.body)
	}
	for name, value := range map[string]string{
		"Authorization": "Bearer client-key", "Content-Type": "application/json",
		"X-Forwarded-Host": "127.0.0.1:4010", "X-Forwarded-Proto": "http", "X-Forwarded-For": "192.0.2.1",
	} {
		if v := got.header.Get(name); v != value {
			t.Errorf("the backend got %s: %q, want %q", name, v, value)
		}
	}
	for _, name := range []string{"X-Secret-Hop", "Keep-Alive", "Proxy-Authorization", "Forwarded"} {
		if v, ok := got.header[name]; ok {
			t.Errorf("the backend got %s: %q, a header of one hop or the client's claim", name, v)
		}
	}
	if v := got.header.Get("Accept-Encoding"); v != "gzip" {
		t.Errorf("the backend got Accept-Encoding: %q, want gzip, which petmock can read", v)
	}
	if a.Status != 201 || string(a.Body) != `{"id":51}` || !a.Whole {
		t.Errorf("answer %d %q (whole %v), want 201 {\"id\":51}", a.Status, a.Body, a.Whole)
	}
	if a.Header.Get("X-Kept") != "kept" || a.Header.Get("X-Hop") != "" || a.Header.Get("Connection") != "" {
		t.Errorf("answer header %v: want X-Kept, and neither Connection nor X-Hop", a.Header)
	}
}

// TestForwardPresents: the credentials Present puts in replace the
// client's.
func TestForwardPresents(t *testing.T) {
	srv, last := recordingBackend(t, nil)
	b := newBackend(t, proxy.Config{URL: srv.URL})
	r := httptest.NewRequest("GET", "http://127.0.0.1:4010/v1/pets", nil)
	r.Header.Set("Authorization", "Bearer petmock-dev-key")
	b.Forward(proxy.Request{In: r, Path: "/pets", Present: func(out *http.Request) {
		out.Header.Set("Authorization", "Bearer staging-key")
	}})
	if v := last.Load().header.Get("Authorization"); v != "Bearer staging-key" {
		t.Errorf("the backend got Authorization: %q, want the backend's key", v)
	}
}

// TestForwardStaysBelowTheBase: a path that would climb out of the base
// path is not sent, and a redirect is relayed, never followed.
func TestForwardStaysBelowTheBase(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	srv, last := recordingBackend(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/steal", http.StatusFound)
	})
	b := newBackend(t, proxy.Config{URL: srv.URL + "/v1"})
	for _, path := range []string{"/pets/..", "/pets/%2e%2e", "/pets/.%2E/admin", "/./pets", "/pets/%2F..%2Fadmin", `/pets/..%5Cadmin`} {
		r := httptest.NewRequest("GET", "http://127.0.0.1:4010/v1/pets", nil)
		_, err := forward(t, b, r, path, nil)
		if pe := (*proxy.PathError)(nil); !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a *PathError", path, err)
		}
	}
	if last.Load() != nil {
		t.Errorf("the backend got %s", last.Load().path)
	}
	a, err := forward(t, b, httptest.NewRequest("GET", "http://127.0.0.1:4010/v1/pets", nil), "/pets", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != http.StatusFound || a.Header.Get("Location") != other.URL+"/steal" || elsewhere.Load() != 0 {
		t.Errorf("a redirect: %d to %q, %d requests elsewhere; want 302 relayed and none", a.Status, a.Header.Get("Location"), elsewhere.Load())
	}
}

// TestForwardUnreachable: a backend that refuses the connection, or does
// not answer within the timeout, is unreachable, and says which; a client
// that goes away is not the backend's fault.
func TestForwardUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	slowBody := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		io.WriteString(w, "{")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slowBody.Close()

	for _, tc := range []struct {
		name, url string
		timeout   bool
	}{
		{"refused", closed, false},
		{"no answer", slow.URL, true},
		{"a body that stops", slowBody.URL, true},
	} {
		b := newBackend(t, proxy.Config{URL: tc.url, Timeout: 200 * time.Millisecond})
		_, err := forward(t, b, httptest.NewRequest("GET", "http://127.0.0.1:4010/v1/pets", nil), "/pets", nil)
		var ue *proxy.UnreachableError
		if !errors.As(err, &ue) || ue.Timeout != tc.timeout {
			t.Errorf("%s: %v, want an *UnreachableError, Timeout %v", tc.name, err, tc.timeout)
			continue
		}
		if !strings.Contains(ue.Error(), tc.url) {
			t.Errorf("%s: %q does not name the backend", tc.name, ue.Error())
		}
	}

	b := newBackend(t, proxy.Config{URL: slow.URL, Timeout: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = forward(t, b, httptest.NewRequest("GET", "http://127.0.0.1:4010/v1/pets", nil).WithContext(ctx), "/pets", nil)
	if ue := (*proxy.UnreachableError)(nil); errors.As(err, &ue) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a client gone: %v, want its context's error", err)
	}
}

// TestForwardBoundsWhatItReads: of a body larger than the bound, only the
// start is read, and Relay writes it all, with the backend's
// Content-Length, or none when it gave none.
func TestForwardBoundsWhatItReads(t *testing.T) {
	large := strings.Repeat("x", 10_000)
	for _, chunked := range []bool{false, true} {
		srv, _ := recordingBackend(t, func(w http.ResponseWriter, r *http.Request) {
			if chunked {
				io.WriteString(w, large[:10])
				w.(http.Flusher).Flush()
				io.WriteString(w, large[10:])
				return
			}
			w.Header().Set("Content-Length", "10000")
			io.WriteString(w, large)
		})
		b := newBackend(t, proxy.Config{URL: srv.URL, MaxAnswerBytes: 1000})
		a, err := forward(t, b, httptest.NewRequest("GET", "http://127.0.0.1:4010/v1/pets", nil), "/pets", nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Whole || len(a.Body) > 1001 {
			t.Errorf("chunked %v: read %d bytes of 10000 (whole %v), want at most 1001", chunked, len(a.Body), a.Whole)
		}
		w := httptest.NewRecorder()
		if err := a.Relay(w); err != nil {
			t.Fatal(err)
		}
		wantLength := "10000"
		if chunked {
			wantLength = ""
		}
		if w.Body.String() != large || w.Header().Get("Content-Length") != wantLength {
			t.Errorf("chunked %v: relayed %d bytes with Content-Length %q, want 10000 with %q", chunked, w.Body.Len(), w.Header().Get("Content-Length"), wantLength)
		}
	}
}

// TestForwardUndoesGzip: a gzipped answer is read as the backend meant
// it, so that it can be checked, and relayed so.
func TestForwardUndoesGzip(t *testing.T) {
	srv, _ := recordingBackend(t, func(w http.ResponseWriter, r *http.Request) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		io.WriteString(zw, `[{"id":1}]`)
		zw.Close()
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "application/json")
		w.Write(buf.Bytes())
	})
	b := newBackend(t, proxy.Config{URL: srv.URL})
	a, err := forward(t, b, httptest.NewRequest("GET", "http://127.0.0.1:4010/v1/pets", nil), "/pets", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(a.Body) != `[{"id":1}]` || a.Header.Get("Content-Encoding") != "" {
		t.Errorf("a gzipped answer read as %q, Content-Encoding %q; want it undone", a.Body, a.Header.Get("Content-Encoding"))
	}
}

// TestRebase: a URL of an answer header that leads to the backend leads
// to petmock; one that leads elsewhere, or to a path that only starts
// like the backend's, is left alone.
func TestRebase(t *testing.T) {
	b := newBackend(t, proxy.Config{URL: "https://staging.example/v1"})
	h := http.Header{
		"Location":         {"https://staging.example/v1/pets/51"},
		"Content-Location": {"https://staging.example/v10/pets"},
		"Link":             {`<https://staging.example/v1/pets?cursor=x>; rel="next", <https://docs.example/pets>; rel="help", <https://staging.example/v1>; rel="up"`},
	}
	b.Rebase(h, "http://127.0.0.1:4010/v1")
	want := http.Header{
		"Location":         {"http://127.0.0.1:4010/v1/pets/51"},
		"Content-Location": {"https://staging.example/v10/pets"},
		"Link":             {`<http://127.0.0.1:4010/v1/pets?cursor=x>; rel="next", <https://docs.example/pets>; rel="help", <http://127.0.0.1:4010/v1>; rel="up"`},
	}
	for name := range want {
		if h.Get(name) != want.Get(name) {
			t.Errorf("%s: %q, want %q", name, h.Get(name), want.Get(name))
		}
	}
}

// TestParseURL: a backend's URL is an absolute http or https URL, without
// credentials, a query or a fragment.
func TestParseURL(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://staging.example/v1":      true,
		"http://127.0.0.1:8080/":          true,
		"staging.example/v1":              false,
		"ftp://staging.example/v1":        false,
		"https://user:pw@staging.example": false,
		"https://staging.example/v1?x=1":  false,
		"https://staging.example/v1#top":  false,
		"/v1":                             false,
	} {
		_, err := proxy.ParseURL(raw)
		if (err == nil) != ok {
			t.Errorf("ParseURL(%q): %v, want ok %v", raw, err, ok)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("ParseURL(%q): %q repeats the password", raw, err)
		}
	}
}

// TestForwardDropsRoutingHeaders: the headers with which a client could
// make a backend serve another path or method than the document's
// operation, or believe another origin, never reach it, in whatever case
// they are written.
func TestForwardDropsRoutingHeaders(t *testing.T) {
	srv, last := recordingBackend(t, nil)
	b := newBackend(t, proxy.Config{URL: srv.URL + "/v1"})
	overrides := map[string]string{
		"X-Original-URL": "/admin", "X-Rewrite-URL": "/admin", "X-Original-URI": "/admin", "X-Override-URL": "/admin",
		"X-HTTP-DestinationURL": "http://evil.example/", "X-Proxy-URL": "http://evil.example/",
		"X-HTTP-Method-Override": "DELETE", "X-HTTP-Method": "DELETE", "X-Method-Override": "DELETE", "X-Original-Method": "DELETE",
		"X-Forwarded-Prefix": "/admin", "X-Forwarded-Path": "/admin", "X-Forwarded-URI": "/admin", "X-Forwarded-Port": "443",
		"X-Forwarded-Server": "evil.example", "X-Forwarded-Scheme": "https", "X-Forwarded-SSL": "on", "X-Url-Scheme": "https",
		"Front-End-Https": "on", "X-Script-Name": "/admin", "X-Original-Host": "evil.example", "X-Host": "evil.example",
		"X-Original-Forwarded-For": "10.0.0.1", "X-Real-IP": "10.0.0.1", "X-Client-IP": "10.0.0.1", "True-Client-IP": "10.0.0.1",
		"X-Cluster-Client-IP": "10.0.0.1", "CF-Connecting-IP": "10.0.0.1", "Fastly-Client-IP": "10.0.0.1", "X-ProxyUser-Ip": "10.0.0.1",
		"X-Envoy-Original-Path": "/admin", "X-Envoy-Original-URL": "/admin", "x-middleware-subrequest": "middleware",
		"X-Accel-Redirect": "/internal", "X-Accel-Mapping": "/=/internal", "X-Sendfile": "/etc/passwd", "X-Sendfile-Type": "X-Sendfile",
		"Proxy": "http://evil.example:8080", "Forwarded": "for=10.0.0.1;host=evil.example",
		"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https", "X-Forwarded-For": "10.0.0.1",
		"Connection": "X-Named-Hop", "X-Named-Hop": "1", "Keep-Alive": "timeout=5", "Proxy-Authorization": "Basic eDp5",
		"Proxy-Connection": "keep-alive", "TE": "trailers", "Upgrade": "websocket", "HTTP2-Settings": "AAMAAABkAAQAAP__",
	}
	r := httptest.NewRequest("GET", "http://127.0.0.1:4010/v1/pets", nil)
	for name, value := range overrides {
		r.Header[name] = []string{value} // as written, not canonical
	}
	if _, err := forward(t, b, r, "/pets", nil); err != nil {
		t.Fatal(err)
	}
	got := last.Load()
	for name, value := range overrides {
		if vs := got.header.Values(name); slices.Contains(vs, value) {
			t.Errorf("the backend got %s: %q", name, vs)
		}
	}
	if got.path != "/v1/pets" || got.method != "GET" || got.header.Get("X-Forwarded-Host") != "127.0.0.1:4010" || got.header.Get("X-Forwarded-Proto") != "http" {
		t.Errorf("the backend got %s %s, X-Forwarded-Host %q, -Proto %q; want GET /v1/pets and petmock's own", got.method, got.path,
			got.header.Get("X-Forwarded-Host"), got.header.Get("X-Forwarded-Proto"))
	}
}
