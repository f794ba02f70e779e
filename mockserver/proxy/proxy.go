// Package proxy forwards the requests of petmock's API to a backend, a
// deployment of the API such as staging, and reads its answers within a
// bound, so that petmock can check each one against the document before
// it relays it, or answer from the mock where the backend has nothing to
// say.
//
// It is the HTTP half of petmock --proxy, and knows nothing of the
// document: it sends a request to the backend's base URL and no other
// place, without the headers of one hop, and reads what comes back. What to
// forward, what the answer breaks and who answers is mockserver's part.
package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Defaults of a Config.
const (
	// DefaultTimeout bounds an exchange with the backend: from the dial to
	// the end of the part of the answer read for checking.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxAnswerBytes is how much of an answer's body is read, and
	// checked; a larger one is relayed unchecked.
	DefaultMaxAnswerBytes = 8 << 20
	// DefaultMaxHeldBytes is how many bytes of bodies read for checking
	// the answers in flight hold together, at most.
	DefaultMaxHeldBytes = 64 << 20
)

// dialTimeout bounds the connection to the backend, within the timeout of
// the exchange: a backend that is down is given up on quickly.
const dialTimeout = 5 * time.Second

// Config configures a Backend. Its zero value is no backend: URL must be
// set.
type Config struct {
	// URL is the backend's base URL, such as https://staging.example/v1:
	// the path of a request below petmock's base path is appended to its
	// path, and its query is the request's.
	URL string
	// Timeout bounds each exchange with the backend, from the dial to the
	// end of the part of its answer read: past it, the backend counts as
	// unreachable. Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxAnswerBytes bounds the part of an answer's body read, and held
	// in memory, for checking. Zero means DefaultMaxAnswerBytes.
	MaxAnswerBytes int64
	// MaxHeldBytes bounds the bytes of bodies read for checking that the
	// answers in flight hold together, until each is relayed: an answer
	// read past it is relayed unchecked. Zero means DefaultMaxHeldBytes,
	// and it is never less than MaxAnswerBytes.
	MaxHeldBytes int64
	// Scrub, when not nil, hides what it finds in the bodies relayed.
	Scrub Scrubber
}

// Backend is the deployment petmock forwards requests to. It is safe for
// concurrent use.
type Backend struct {
	base    *url.URL
	client  *http.Client
	timeout time.Duration
	max     int64
	held    *held
	scrub   Scrubber
}

// New returns the Backend of cfg. The URL must be an absolute http or
// https URL, without a query, a fragment or credentials.
func New(cfg Config) (*Backend, error) {
	base, err := ParseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	b := &Backend{base: base, timeout: cfg.Timeout, max: cfg.MaxAnswerBytes, scrub: cfg.Scrub}
	switch {
	case b.timeout < 0:
		return nil, fmt.Errorf("proxy timeout %s: must not be negative", b.timeout)
	case b.timeout == 0:
		b.timeout = DefaultTimeout
	}
	if b.max <= 0 {
		b.max = DefaultMaxAnswerBytes
	}
	b.held = &held{max: cfg.MaxHeldBytes}
	if b.held.max <= 0 {
		b.held.max = DefaultMaxHeldBytes
	}
	b.held.max = max(b.held.max, b.max)
	b.client = &http.Client{
		Transport: newTransport(),
		// A redirect is relayed to the client, never followed: petmock
		// sends nothing to any place but the backend's base URL.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return b, nil
}

// ParseURL reads the base URL of a backend, such as
// https://staging.example/v1, and says what is wrong with one that cannot
// be: it must be absolute, http or https, with a host, and without a query,
// a fragment or credentials, which would be sent with every request.
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, fmt.Errorf("proxy %q: %v", raw, err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return nil, fmt.Errorf("proxy %q: want the backend's base URL, http or https, such as https://staging.example/v1", raw)
	case u.User != nil:
		return nil, fmt.Errorf("proxy %q: no credentials in the URL; petmock forwards the client's key, or --proxy-key", u.Redacted())
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return nil, fmt.Errorf("proxy %q: want a base URL without a query or a fragment", raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u, nil
}

// URL returns the backend's base URL.
func (b *Backend) URL() string { return b.base.String() }

// newTransport returns the transport of a Backend: http.DefaultTransport's
// settings, the proxy of the environment (HTTPS_PROXY) included, with a
// shorter dial, and as many idle connections to the backend kept as a
// busy app keeps open to petmock.
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 256
	return t
}

// UnreachableError says that the backend gave no answer: it could not be
// dialled, refused the connection, broke it, or did not answer within the
// timeout.
type UnreachableError struct {
	// URL is the URL the request was sent to.
	URL string
	// Timeout says that the backend did not answer in time.
	Timeout bool
	Err     error
}

func (e *UnreachableError) Error() string {
	if e.Timeout {
		return "backend " + e.URL + ": no answer within the timeout"
	}
	return "backend " + e.URL + ": " + describe(e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

var (
	_ error = (*UnreachableError)(nil)
	_ error = (*PathError)(nil)
)

// describe words the error of a request the backend did not answer,
// without the request's URL, which the message gives once.
func describe(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Op + ": " + oe.Err.Error()
	}
	return err.Error()
}

// Request is a request of a client to forward.
type Request struct {
	// In is the client's request: its method, query and headers are
	// forwarded, but those of one hop.
	In *http.Request
	// Path is its path below petmock's base path, escaped, such as
	// "/pets/7": the backend gets it below its own.
	Path string
	// Body is its body, read already: nil for none.
	Body []byte
	// Proto and Host are the scheme and the host the client sent it to,
	// such as "http" and "127.0.0.1:4010": the backend gets them in
	// X-Forwarded-Proto and X-Forwarded-Host, to link to petmock.
	Proto, Host string
	// Present, when not nil, changes the request to the backend before it
	// is sent, to put the backend's credentials in it.
	Present func(*http.Request)
}

// Forward sends req to the backend and reads its answer, up to the bound;
// the caller closes it. An error is a *PathError for a path that cannot
// be forwarded, an *UnreachableError, or the error of the client's own
// context, when the client went away first.
func (b *Backend) Forward(req Request) (*Answer, error) {
	out, err := b.outgoing(req)
	if err != nil {
		return nil, err
	}
	if req.Present != nil {
		req.Present(out)
	}
	// The exchange is bounded up to the end of what is read; the rest of
	// a larger body is relayed as fast as the client takes it.
	client := req.In.Context()
	ctx, cancel := context.WithCancel(client)
	timedOut := make(chan struct{})
	timer := time.AfterFunc(b.timeout, func() { close(timedOut); cancel() })
	// The URL an error names leaves out the query, which may carry a key.
	where := *out.URL
	where.RawQuery = ""
	unreachable := func(err error) error {
		timer.Stop()
		cancel()
		if client.Err() != nil {
			return client.Err()
		}
		select {
		case <-timedOut:
			return &UnreachableError{URL: where.Redacted(), Timeout: true, Err: err}
		default:
		}
		return &UnreachableError{URL: where.Redacted(), Err: err}
	}
	resp, err := b.client.Do(out.WithContext(ctx))
	if err != nil {
		return nil, unreachable(err)
	}
	a, err := b.read(resp)
	if err == nil && !timer.Stop() {
		err = context.DeadlineExceeded // read whole, but past the timeout
	}
	if err != nil {
		resp.Body.Close()
		return nil, unreachable(err)
	}
	a.cancel = cancel
	return a, nil
}

// outgoing is the request to the backend for r.
func (b *Backend) outgoing(req Request) (*http.Request, error) {
	r, path := req.In, req.Path
	if hasDotSegment(path) {
		return nil, &PathError{Path: path}
	}
	u := *b.base
	u.RawPath = b.base.EscapedPath() + path
	p, err := url.PathUnescape(u.RawPath)
	if err != nil {
		return nil, &PathError{Path: path}
	}
	u.Path = p
	u.RawQuery = r.URL.RawQuery
	var body io.Reader = http.NoBody
	if len(req.Body) > 0 {
		body = bytes.NewReader(req.Body)
	}
	out, err := http.NewRequest(r.Method, u.String(), body)
	if err != nil {
		return nil, &PathError{Path: path}
	}
	out.URL = &u
	copyHeader(out.Header, r.Header)
	for name := range out.Header {
		if slices.Contains(routingHeaders, http.CanonicalHeaderKey(name)) {
			delete(out.Header, name)
		}
	}
	// The transport asks for gzip and undoes it, so that the answer can
	// be checked: a client's Accept-Encoding would leave it compressed.
	out.Header.Del("Accept-Encoding")
	setForwarded(out.Header, r, req.Proto, req.Host)
	return out, nil
}

// routingHeaders are the headers with which common servers and frameworks
// let a request say another path, method or origin than its own, which a
// backend that honours them would follow outside the document's
// operations, or believe of the client: IIS's and Symfony's
// X-Original-URL and X-Rewrite-URL, the method overrides of Rails, Express
// and ASP.NET, Spring's and werkzeug's X-Forwarded-Prefix, the client
// addresses reverse proxies set, Envoy's original path, Next.js's
// middleware subrequest, nginx's internal redirects, and Proxy, which CGI
// turns into HTTP_PROXY (httpoxy). petmock sets X-Forwarded-For, -Host and
// -Proto itself (setForwarded).
var routingHeaders = []string{
	"X-Original-Url", "X-Rewrite-Url", "X-Original-Uri", "X-Override-Url", "X-Http-Destinationurl", "X-Proxy-Url",
	"X-Http-Method-Override", "X-Http-Method", "X-Method-Override", "X-Original-Method",
	"X-Forwarded-Prefix", "X-Forwarded-Path", "X-Forwarded-Uri", "X-Forwarded-Port", "X-Forwarded-Server",
	"X-Forwarded-Scheme", "X-Forwarded-Ssl", "X-Url-Scheme", "Front-End-Https", "X-Script-Name",
	"X-Original-Host", "X-Host", "X-Original-Forwarded-For",
	"X-Real-Ip", "X-Client-Ip", "True-Client-Ip", "X-Cluster-Client-Ip", "Cf-Connecting-Ip", "Fastly-Client-Ip", "X-Proxyuser-Ip",
	"X-Envoy-Original-Path", "X-Envoy-Original-Url", "X-Middleware-Subrequest",
	"X-Accel-Redirect", "X-Accel-Mapping", "X-Sendfile", "X-Sendfile-Type", "Proxy",
}

// PathError says that a path cannot be forwarded: it climbs out of the
// base path with a dot segment, or is not a path.
type PathError struct{ Path string }

func (e *PathError) Error() string {
	return "path: " + e.Path + " holds a dot segment or an escape petmock does not forward"
}

// hasDotSegment reports whether an escaped path has a segment that is
// "." or "..", as written or escaped, which would lead the backend above
// its base path.
func hasDotSegment(path string) bool {
	for _, seg := range strings.Split(path, "/") {
		if s, err := url.PathUnescape(seg); err != nil || s == "." || s == ".." || strings.ContainsAny(s, "/\\") && strings.Contains(s, "..") {
			return true
		}
	}
	return false
}

// setForwarded says who asked, as a reverse proxy does (X-Forwarded-For,
// -Host and -Proto), in place of what the client claimed: a backend that
// builds its links from them links to petmock.
func setForwarded(h http.Header, r *http.Request, proto, host string) {
	h.Del("Forwarded")
	if ip, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		h.Set("X-Forwarded-For", ip)
	} else {
		h.Del("X-Forwarded-For")
	}
	h.Set("X-Forwarded-Host", host)
	h.Set("X-Forwarded-Proto", proto)
}
