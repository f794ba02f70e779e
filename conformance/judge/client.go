package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// Client is the suite's HTTP client: it sends each request to the
// deployment and judges the answer against everything that holds for
// every answer, in one place, before any check looks at it (Send).
type Client struct {
	cfg  Config
	http *http.Client

	creates             atomic.Int64 // POST requests sent
	transportFailures   atomic.Int64 // requests without a complete answer
	rateLimitedRequests atomic.Int64 // requests still answered 429 after their retries
}

// Config says where a client sends its requests and what it judges
// their answers by.
type Config struct {
	// Base is the deployment's base URL, without a trailing slash.
	Base *url.URL
	// APIKey is the run's key, put in place of KeyVar on the wire only,
	// and redacted in every report.
	APIKey string
	// ReadOnly refuses to send any method but GET.
	ReadOnly bool
	// MaxCreates bounds the POST requests sent; one past it is skipped.
	MaxCreates int
	// Timeout bounds each request, from sending it to the last byte of
	// the answer.
	Timeout time.Duration
	// Transport sends the requests; nil means a clone of
	// http.DefaultTransport that reads at most MaxHeaderBytes of headers.
	Transport http.RoundTripper
	// Contract is the document the answers are judged by.
	Contract *spec.Contract
	// Checker holds the answers to the document: to all of it in a
	// strict run, and otherwise without petmock's choices of headers.
	Checker *answercheck.Checker
	// Pets is the paging of the Petstore's listPets, whose pages are held
	// to the Petstore's rules of limit; nil where the document has not
	// the Petstore's operations.
	Pets *spec.Paging
	// Seen, if not nil, is told of the status of every answer, by
	// operation: the run's coverage.
	Seen func(op string, status int)
}

// NewClient returns a client that sends and judges as cfg says.
func NewClient(cfg Config) *Client {
	return &Client{cfg: cfg, http: NewHTTPClient(cfg.Transport)}
}

// Base returns the deployment's base URL, without a trailing slash.
func (c *Client) Base() *url.URL { return c.cfg.Base }

// OperationBase returns the path, escaped, that the path of the operation
// of id follows on the deployment: the base URL's, for an operation served
// below the document's base path, and for one the document serves below a
// base path of its own (servers of its path or operation, such as
// Blockfrost's IPFS paths), that one, in place of the document's at the
// end of the base URL's path, as a proxy's prefix before it stays.
func (c *Client) OperationBase(id string) string {
	return OperationBase(c.cfg.Base, c.cfg.Contract, c.cfg.Contract.Operation(id))
}

// OperationBase returns the path, escaped, that the path of op, an
// operation of c, follows on a deployment of base URL base: see
// Client.OperationBase. A nil op follows the base URL's path.
func OperationBase(base *url.URL, c *spec.Contract, op *spec.Operation) string {
	path := base.EscapedPath()
	if op == nil || op.Base == c.Base {
		return path
	}
	root := strings.TrimSuffix(path, (&url.URL{Path: c.Base}).EscapedPath())
	return root + (&url.URL{Path: op.Base}).EscapedPath()
}

// Posts returns how many POST requests the client has sent, those it
// refused past MaxCreates included.
func (c *Client) Posts() int64 { return c.creates.Load() }

// CloseIdleConnections closes the connections the client keeps open.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// Request is one request to send. Header values may hold KeyVar, which is
// replaced by the API key on the wire only.
type Request struct {
	op     string // operation id, to find what the document says of the answer
	method string
	Path   string      // below the base URL, such as "/pets/12"
	Query  string      // raw query, without "?"
	Header http.Header // as sent, but for KeyVar, replaced on the wire
	body   []byte      // nil for none

	// Target, if set, is where the request goes instead of path and
	// query below the base URL: the URL of a link. The answer is judged
	// as one to path and query.
	Target *url.URL
	// PageLimit is the most pets the page before this one could hold,
	// for a later page of listPets whose URL carries no limit.
	PageLimit int
	// Lenient marks a request the suite cannot be sure the interface
	// covers, such as a link to another path: an answer that breaks the
	// rules skips the check instead of failing it.
	Lenient bool
	// MustExist marks a valid request of an operation the document
	// describes: a 404 or a 405 says that the operation is missing, unless
	// MadeUp says that the path names something the suite made up and the
	// operation documents a 404.
	MustExist, MadeUp bool
	// Basic, if set, is the place of HTTP basic credentials that
	// BasicKey, a form of the run's key such as KeyVar, is sent at,
	// encoded on the wire only.
	Basic    *spec.Place
	BasicKey string // a form of the key, such as KeyVar
	// Params are the path parameters of a request of the generic checks.
	Params map[string]string
	// calledFor are the statuses the request calls for on purpose, which
	// HTTP requires whatever the document says, such as 401 of a request
	// without a key: its answer may have one that its operation does not
	// document (calledfor.go).
	calledFor []int
}

// Body returns the body of r as it is sent, nil for none.
func (r *Request) Body() []byte { return r.body }

// Exchange is a request as sent and the answer as received, body read.
type Exchange struct {
	method        string
	URL           string      // as sent, KeyVar in place of the key
	Path          string      // below the base URL, as the document knows it, such as "/pets"
	RequestHeader http.Header // as built, with KeyVar in place of the key
	reqBody       []byte
	Op            string // the operation id of the request

	Status int         // 0 if no answer came
	Header http.Header // of the answer
	body   []byte

	Limit   int  // for a 200 of listPets, the most pets it may hold
	lenient bool // as the request

	// envelope is how the answer of a list of a resource holds its
	// items, and cursorParam the query parameter the list takes a cursor
	// back in; nil and "" for a list that answers a JSON array, and for
	// any other operation.
	envelope    *spec.Envelope
	cursorParam string
	// listedBy is the id property of the items of a list that answers
	// their ids rather than the items (spec.Resource.ListsIDs); Items
	// reads each id as an item of that one member.
	listedBy string
	// op is the operation of the request, where the document has it:
	// an operation of a resource may answer its item inside an object
	// (spec.Resource.Wrapped), which Item reads it from.
	op *spec.Operation

	// basic is the form of the key sent as the password of HTTP basic
	// credentials, in the header basicHeader, or nil for none: curl
	// sends them as its -u asks.
	basic       *string
	basicHeader string

	key string // to redact
}

// Success is the status a valid request of the exchange's operation is
// answered with: the operation's documented success (Xero's feed
// connections are listed with a 201), or 200 where the document gives
// none or the operation is not known.
func (x *Exchange) Success() int {
	if x.op != nil && x.op.Success != 0 {
		return x.op.Success
	}
	return http.StatusOK
}

// HasBody reports whether the answer of x came with a body: a 204 or a
// 304 has none, whatever its document says, and nor does an empty one.
func (x *Exchange) HasBody() bool {
	return len(x.body) > 0 && x.Status != http.StatusNoContent && x.Status != http.StatusNotModified
}

// Option changes a request before it is sent.
type Option func(*Request)

// WithAuth sends value as the Authorization header. KeyVar in value stands
// for the key; an empty value sends no Authorization header.
func WithAuth(value string) Option {
	return func(r *Request) {
		if value == "" {
			r.Header.Del("Authorization")
			return
		}
		r.Header.Set("Authorization", value)
	}
}

// NewRequest returns a request of the operation op: method, path below
// the base URL, raw query and body (nil for none), JSON accepted and sent,
// and the run's key as a bearer token, which opts may change.
func NewRequest(op, method, path, query string, body []byte, opts ...Option) *Request {
	r := &Request{op: op, method: method, Path: path, Query: query, body: body, Header: http.Header{}}
	r.Header.Set("Accept", "application/json")
	r.Header.Set("Authorization", "Bearer "+KeyVar)
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Send sends r and checks the answer against everything that holds for
// every answer: it came in full, within the timeout and MaxBodyBytes, it is
// no redirect, its status is documented for the operation, it matches the
// document, an error is a proper Error, and a list has no duplicate id and
// no more pets than its limit. It returns the verdict on the first rule
// broken, with the exchange as far as it went.
func (c *Client) Send(ctx context.Context, r *Request) (*Exchange, error) {
	target := r.Target
	if target == nil {
		u := *c.cfg.Base
		setPath(&u, c.OperationBase(r.op)+r.Path)
		u.RawQuery = r.Query
		target = &u
	}
	x := &Exchange{
		method: r.method, URL: target.String(), Path: r.Path, RequestHeader: r.Header, reqBody: r.body,
		Op: r.op, key: c.cfg.APIKey, lenient: r.Lenient,
	}
	x.envelope, x.cursorParam = c.listOf(r.op)
	x.op = c.cfg.Contract.Operation(r.op)
	if x.op != nil && x.op.Resource != nil && x.op.Resource.ListsIDs(c.cfg.Contract, x.op) {
		x.listedBy = x.op.Resource.IDProperty
	}
	if c.cfg.ReadOnly && r.method != http.MethodGet {
		return x, errors.New(x.redact("read-only run: refusing to send " + r.method + " " + x.URL))
	}
	if r.method == http.MethodPost {
		if n := c.creates.Add(1); n > int64(c.cfg.MaxCreates) {
			return x, Skipf("max creates reached: this run may send at most %d POST requests", c.cfg.MaxCreates)
		}
	}
	for retries := 0; ; retries++ {
		if err := c.roundTrip(ctx, r, x); err != nil {
			return x, err
		}
		if x.Status != http.StatusTooManyRequests {
			break
		}
		if retries == MaxRateLimitRetries {
			return x, c.rateLimited(x)
		}
		wait := time.NewTimer(retryAfter(x.Header, time.Now(), MaxRetryWait))
		select {
		case <-wait.C:
		case <-ctx.Done():
			wait.Stop()
			return x, c.rateLimited(x)
		}
	}
	return x, c.judge(r, x)
}

// setPath sets the path of u to escaped, a path as it goes on the wire:
// its segments escaped, as a request's Path is (expandPath escapes each
// value of a parameter), so that an id such as "Chad Malone" is sent as
// Chad%20Malone once, not escaped again.
func setPath(u *url.URL, escaped string) {
	u.RawPath = escaped
	if p, err := url.PathUnescape(escaped); err == nil {
		u.Path = p
	} else {
		u.Path, u.RawPath = escaped, ""
	}
}

// listOf returns, for op a list or a find of a resource whose answer is
// an envelope, the envelope and the query parameter that takes its cursor
// back; nil and "" otherwise.
func (c *Client) listOf(id string) (*spec.Envelope, string) {
	op := c.cfg.Contract.Operation(id)
	if op == nil || op.Resource == nil {
		return nil, ""
	}
	res := op.Resource
	if op == res.List {
		return res.ListEnvelope, res.Cursor(op)
	}
	for _, f := range res.Finds {
		if f.Op == op {
			return f.Envelope, res.Cursor(op)
		}
	}
	return nil, ""
}

// roundTrip sends r once and reads the answer into x. It returns the
// verdict on an answer that does not come in full.
func (c *Client) roundTrip(ctx context.Context, r *Request, x *Exchange) error {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var body io.Reader = http.NoBody
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	// A key sent in the query is put in place on the wire only.
	wire := urlOnTheWire(x.URL, c.cfg.APIKey)
	req, err := http.NewRequestWithContext(ctx, r.method, wire, body)
	if err != nil {
		return breaks(x, RuleTransport, err.Error())
	}
	for name, values := range r.Header {
		for _, v := range values {
			req.Header.Add(name, onTheWire(v, c.cfg.APIKey))
		}
	}
	if r.Basic != nil {
		_, name, value := r.Basic.Credential(onTheWire(r.BasicKey, c.cfg.APIKey))
		req.Header.Set(name, value)
		x.basic, x.basicHeader = &r.BasicKey, name
		x.RequestHeader.Set(name, "Basic <base64 of :"+r.BasicKey+">")
	}
	req.Header.Set("User-Agent", "petstore-conformance")
	resp, err := c.http.Do(req)
	if err != nil {
		return c.failTransport(x, DescribeNoAnswer(err, errors.Is(ctx.Err(), context.DeadlineExceeded), c.cfg.Timeout))
	}
	defer resp.Body.Close()
	x.Status, x.Header = resp.StatusCode, resp.Header
	if resp.ContentLength > MaxBodyBytes {
		return c.failTransport(x, fmt.Sprintf("body larger than %d bytes, the most the suite reads: Content-Length announced %d; not read", MaxBodyBytes, resp.ContentLength))
	}
	x.body, err = io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	switch {
	case err != nil:
		return c.failTransport(x, describeBrokenBody(err, errors.Is(ctx.Err(), context.DeadlineExceeded), c.cfg.Timeout, len(x.body), resp.ContentLength))
	case len(x.body) > MaxBodyBytes:
		return c.failTransport(x, fmt.Sprintf("body larger than %d bytes, the most the suite reads: reading stopped there", MaxBodyBytes))
	case jsonValues(x.body, MaxBodyValues) > MaxBodyValues && json.Valid(x.body):
		// The work and the memory of judging a body grow with its values,
		// faster than with its bytes: no answer of the document holds more
		// than a few thousand, so one with more is not judged, and counts
		// as an answer the suite could not take.
		return c.failTransport(x, fmt.Sprintf("a body of more than %d JSON values, far more than any answer of the document holds: the suite judges it no further", MaxBodyValues))
	}
	return nil
}

// failTransport returns the verdict on an answer that did not come in
// full: it breaks rule transport. The MaxTransportFailures-th such answer
// stops the run: the deployment is not answering, and each check left
// would only wait for its timeout.
func (c *Client) failTransport(x *Exchange, detail string) error {
	broken := breaks(x, RuleTransport, detail)
	if n := c.transportFailures.Add(1); n >= MaxTransportFailures {
		return &Aborted{Err: broken, Reason: fmt.Sprintf("the run stops: %d requests got no complete answer the suite could judge, so the checks left are skipped", n)}
	}
	return broken
}
