package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// harness is the suite's view of the deployment under test: its HTTP
// client, which checks every answer against the contract, and what the
// specs need to know of the run. BeforeSuite builds it from a Config.
type harness struct {
	cfg      Config
	base     *url.URL // BaseURL, without a trailing slash
	docBase  string   // base path of the document, such as "/v1"
	checker  *answercheck.Checker
	contract contract
	http     *http.Client
	rnd      *rand.Rand // Ginkgo runs specs one at a time
	runID    string

	coverage            *coverage         // the answers seen, by operation
	samples             map[string]sample // by resource; Ginkgo runs specs one at a time
	kept                []keptItem        // items to read again at the end, earliest first; as samples
	creates             atomic.Int64      // POST requests sent
	named               atomic.Int64      // pets named so far
	transportFailures   atomic.Int64      // requests without a complete answer
	rateLimitedRequests atomic.Int64      // requests still answered 429 after their retries
}

// prepared is what a run reads of its Config once, before any spec runs:
// the facts the specs need of the document, and the checker that holds
// answers to it.
type prepared struct {
	contract contract
	docBase  string // base path of the document, such as "/v1"
	// checker holds answers to the document: without Config.Strict,
	// to the document without the header schemas that are petmock's
	// choices.
	checker *answercheck.Checker
}

// prepare reads what the run needs of the contract of cfg
// (spec.Default() if it has none).
func prepare(cfg Config) (prepared, error) {
	var p prepared
	c, err := cfg.contract()
	if err != nil {
		return p, err
	}
	if p.contract, err = readContract(c); err != nil {
		return p, fmt.Errorf("document: %w", err)
	}
	p.docBase = c.Base
	if p.checker, err = answercheck.New(c, cfg.Strict); err != nil {
		return p, fmt.Errorf("document: %w", err)
	}
	return p, nil
}

// newHarness builds the harness of a run from a Config whose fields have
// been validated and what prepare read of it.
func newHarness(cfg Config, p prepared, seed uint64) *harness {
	base, _ := cfg.baseURL()
	if cfg.Seed != 0 {
		seed = cfg.Seed
	}
	rnd := rand.New(rand.NewPCG(seed, 0x5eed))
	runID := cfg.RunID
	if runID == "" {
		runID = cfg.now().UTC().Format("20060102t150405") + "-" + strconv.FormatUint(rnd.Uint64N(36*36*36), 36)
	}
	return &harness{
		cfg:      cfg,
		base:     base,
		docBase:  p.docBase,
		checker:  p.checker,
		contract: p.contract,
		rnd:      rnd,
		runID:    runID,
		http:     newClient(cfg.Transport),
		coverage: &coverage{},
	}
}

// request is one request to send. Header values may hold keyVar, which is
// replaced by the API key on the wire only.
type request struct {
	op     string // operation id, to find what the document says of the answer
	method string
	path   string // below the base URL, such as "/pets/12"
	query  string // raw query, without "?"
	header http.Header
	body   []byte // nil for none

	// target, if set, is where the request goes instead of path and
	// query below the base URL: the URL of a link. The answer is judged
	// as one to path and query.
	target *url.URL
	// pageLimit is the most pets the page before this one could hold,
	// for a later page of listPets whose URL carries no limit.
	pageLimit int
	// lenient marks a request the suite cannot be sure the interface
	// covers, such as a link to another path: an answer that breaks the
	// rules skips the check instead of failing it.
	lenient bool
	// mustExist marks a valid request of an operation the document
	// describes: a 404 or a 405 says that the operation is missing, unless
	// madeUp says that the path names something the suite made up and the
	// operation documents a 404.
	mustExist, madeUp bool
	// basic, if set, is the place of HTTP basic credentials that
	// basicKey, a form of the run's key such as keyVar, is sent at,
	// encoded on the wire only.
	basic    *spec.Place
	basicKey string
	// params are the path parameters of a request of the generic checks.
	params map[string]string
	// calledFor are the statuses the request calls for on purpose, which
	// HTTP requires whatever the document says, such as 401 of a request
	// without a key: its answer may have one that its operation does not
	// document (calledfor.go).
	calledFor []int
}

// exchange is a request as sent and the answer as received, body read.
type exchange struct {
	method    string
	url       string
	path      string      // below the base URL, as the document knows it, such as "/pets"
	reqHeader http.Header // as built, with keyVar in place of the key
	reqBody   []byte
	op        string

	status int // 0 if no answer came
	header http.Header
	body   []byte

	limit   int  // for a 200 of listPets, the most pets it may hold
	lenient bool // as the request

	key string // to redact
}

// option changes a request before it is sent.
type option func(*request)

// withAuth sends value as the Authorization header. keyVar in value stands
// for the key; an empty value sends no Authorization header.
func withAuth(value string) option {
	return func(r *request) {
		if value == "" {
			r.header.Del("Authorization")
			return
		}
		r.header.Set("Authorization", value)
	}
}

func (h *harness) newRequest(op, method, path, query string, body []byte, opts ...option) *request {
	r := &request{op: op, method: method, path: path, query: query, body: body, header: http.Header{}}
	r.header.Set("Accept", "application/json")
	r.header.Set("Authorization", "Bearer "+keyVar)
	if body != nil {
		r.header.Set("Content-Type", "application/json")
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

// listPets sends GET /pets with a raw query.
func (h *harness) listPets(ctx context.Context, query string, opts ...option) (*exchange, error) {
	return h.send(ctx, h.newRequest(spec.ListPets, http.MethodGet, "/pets", query, nil, opts...))
}

// getPet sends GET /pets/{id}.
func (h *harness) getPet(ctx context.Context, id int64, opts ...option) (*exchange, error) {
	return h.send(ctx, h.newRequest(spec.GetPet, http.MethodGet, "/pets/"+strconv.FormatInt(id, 10), "", nil, opts...))
}

// createPet sends POST /pets with body as it is, even if it is not JSON.
func (h *harness) createPet(ctx context.Context, body string, opts ...option) (*exchange, error) {
	return h.send(ctx, h.newRequest(spec.CreatePet, http.MethodPost, "/pets", "", []byte(body), opts...))
}

// send sends r and checks the answer against everything that holds for
// every answer: it came in full, within the timeout and MaxBodyBytes, it is
// no redirect, its status is documented for the operation, it matches the
// document, an error is a proper Error, and a list has no duplicate id and
// no more pets than its limit. It returns the verdict on the first rule
// broken, with the exchange as far as it went.
func (h *harness) send(ctx context.Context, r *request) (*exchange, error) {
	target := r.target
	if target == nil {
		u := *h.base
		u.Path += r.path
		u.RawQuery = r.query
		target = &u
	}
	x := &exchange{
		method: r.method, url: target.String(), path: r.path, reqHeader: r.header, reqBody: r.body,
		op: r.op, key: h.cfg.APIKey, lenient: r.lenient,
	}
	if h.cfg.ReadOnly && r.method != http.MethodGet {
		return x, errors.New(x.redact("read-only run: refusing to send " + r.method + " " + x.url))
	}
	if r.method == http.MethodPost {
		if n := h.creates.Add(1); n > int64(h.cfg.maxCreates()) {
			return x, skipf("max creates reached: this run may send at most %d POST requests", h.cfg.maxCreates())
		}
	}
	for retries := 0; ; retries++ {
		if err := h.roundTrip(ctx, r, x); err != nil {
			return x, err
		}
		if x.status != http.StatusTooManyRequests {
			break
		}
		if retries == MaxRateLimitRetries {
			return x, h.rateLimited(x)
		}
		wait := time.NewTimer(retryAfter(x.header, time.Now(), MaxRetryWait))
		select {
		case <-wait.C:
		case <-ctx.Done():
			wait.Stop()
			return x, h.rateLimited(x)
		}
	}
	return x, h.judge(r, x)
}

// roundTrip sends r once and reads the answer into x. It returns the
// verdict on an answer that does not come in full.
func (h *harness) roundTrip(ctx context.Context, r *request, x *exchange) error {
	ctx, cancel := context.WithTimeout(ctx, h.cfg.timeout())
	defer cancel()
	var body io.Reader = http.NoBody
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	// A key sent in the query is put in place on the wire only.
	wire := urlOnTheWire(x.url, h.cfg.APIKey)
	req, err := http.NewRequestWithContext(ctx, r.method, wire, body)
	if err != nil {
		return breaks(x, ruleTransport, err.Error())
	}
	for name, values := range r.header {
		for _, v := range values {
			req.Header.Add(name, onTheWire(v, h.cfg.APIKey))
		}
	}
	if r.basic != nil {
		_, name, value := r.basic.Credential(onTheWire(r.basicKey, h.cfg.APIKey))
		req.Header.Set(name, value)
		x.reqHeader.Set(name, "Basic <base64 of :"+r.basicKey+">")
	}
	req.Header.Set("User-Agent", "petstore-conformance")
	resp, err := h.http.Do(req)
	if err != nil {
		return h.failTransport(x, describeNoAnswer(err, errors.Is(ctx.Err(), context.DeadlineExceeded), h.cfg.timeout()))
	}
	defer resp.Body.Close()
	x.status, x.header = resp.StatusCode, resp.Header
	if resp.ContentLength > MaxBodyBytes {
		return h.failTransport(x, fmt.Sprintf("body larger than %d bytes, the most the suite reads: Content-Length announced %d; not read", MaxBodyBytes, resp.ContentLength))
	}
	x.body, err = io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	switch {
	case err != nil:
		return h.failTransport(x, describeBrokenBody(err, errors.Is(ctx.Err(), context.DeadlineExceeded), h.cfg.timeout(), len(x.body), resp.ContentLength))
	case len(x.body) > MaxBodyBytes:
		return h.failTransport(x, fmt.Sprintf("body larger than %d bytes, the most the suite reads: reading stopped there", MaxBodyBytes))
	case jsonValues(x.body, MaxBodyValues) > MaxBodyValues && json.Valid(x.body):
		// The work and the memory of judging a body grow with its values,
		// faster than with its bytes: no answer of the document holds more
		// than a few thousand, so one with more is not judged, and counts
		// as an answer the suite could not take.
		return h.failTransport(x, fmt.Sprintf("a body of more than %d JSON values, far more than any answer of the document holds: the suite judges it no further", MaxBodyValues))
	}
	return nil
}

// failTransport returns the verdict on an answer that did not come in
// full: it breaks rule transport. The MaxTransportFailures-th such answer
// stops the run: the deployment is not answering, and each check left
// would only wait for its timeout.
func (h *harness) failTransport(x *exchange, detail string) error {
	broken := breaks(x, ruleTransport, detail)
	if n := h.transportFailures.Add(1); n >= MaxTransportFailures {
		return &Aborted{Err: broken, Reason: fmt.Sprintf("the run stops: %d requests got no complete answer the suite could judge, so the checks left are skipped", n)}
	}
	return broken
}
