package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	. "github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/spec"
)

// harness is the suite's view of the deployment under test: its HTTP
// client, which checks every answer against the contract, and what the
// specs need to know of the run. BeforeSuite builds it from a Config.
type harness struct {
	cfg      Config
	base     *url.URL // BaseURL, without a trailing slash
	docBase  string   // base path of the document, such as "/v1"
	router   routers.Router
	contract contract
	http     *http.Client
	rnd      *rand.Rand // Ginkgo runs specs one at a time
	runID    string

	creates             atomic.Int64 // createPet requests sent
	named               atomic.Int64 // pets named so far
	transportFailures   atomic.Int64 // requests without a complete answer
	rateLimitedRequests atomic.Int64 // requests still answered 429 after their retries
}

// prepared is what a run reads of its Config once, before any spec runs:
// the facts the specs need of the document, and the router that finds the
// operation an answer is validated against.
type prepared struct {
	contract contract
	docBase  string // base path of the document, such as "/v1"
	// router routes to the operations of the document answers are
	// validated against: without Config.Strict, the document without the
	// header schemas that are petmock's choices.
	router routers.Router
}

// prepare reads what the run needs of the contract of cfg
// (spec.Default() if it has none).
func prepare(cfg Config) (prepared, error) {
	var p prepared
	c := cfg.Contract
	if c == nil {
		var err error
		if c, err = spec.Default(); err != nil {
			return p, err
		}
	}
	var err error
	if p.contract, err = readContract(c); err != nil {
		return p, fmt.Errorf("document: %w", err)
	}
	p.docBase = c.Base
	doc := c.Doc
	if !cfg.Strict {
		if doc, err = withoutChoiceHeaders(doc); err != nil {
			return p, fmt.Errorf("document: %w", err)
		}
	}
	if p.router, err = spec.NewRouter(doc); err != nil {
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
		router:   p.router,
		contract: p.contract,
		rnd:      rnd,
		runID:    runID,
		http:     newClient(cfg.Transport),
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
}

// exchange is a request as sent and the answer as received, body read.
type exchange struct {
	method    string
	url       string
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
func (h *harness) listPets(ctx context.Context, query string, opts ...option) *exchange {
	GinkgoHelper()
	return h.send(ctx, h.newRequest(spec.ListPets, http.MethodGet, "/pets", query, nil, opts...))
}

// getPet sends GET /pets/{id}.
func (h *harness) getPet(ctx context.Context, id int64, opts ...option) *exchange {
	GinkgoHelper()
	return h.send(ctx, h.newRequest(spec.GetPet, http.MethodGet, "/pets/"+strconv.FormatInt(id, 10), "", nil, opts...))
}

// createPet sends POST /pets with body as it is, even if it is not JSON.
func (h *harness) createPet(ctx context.Context, body string, opts ...option) *exchange {
	GinkgoHelper()
	return h.send(ctx, h.newRequest(spec.CreatePet, http.MethodPost, "/pets", "", []byte(body), opts...))
}

// send sends r and checks the answer against everything that holds for
// every answer: it came in full, within the timeout and MaxBodyBytes, it is
// no redirect, its status is documented for the operation, it matches the
// document, an error is a proper Error, and a list has no duplicate id and
// no more pets than its limit. The spec fails at the first rule broken.
func (h *harness) send(ctx context.Context, r *request) *exchange {
	GinkgoHelper()
	target := r.target
	if target == nil {
		u := *h.base
		u.Path += r.path
		u.RawQuery = r.query
		target = &u
	}
	x := &exchange{
		method: r.method, url: target.String(), reqHeader: r.header, reqBody: r.body,
		op: r.op, key: h.cfg.APIKey, lenient: r.lenient,
	}
	if h.cfg.ReadOnly && r.method != http.MethodGet {
		Fail(x.redact("read-only run: refusing to send " + r.method + " " + x.url))
	}
	if r.method == http.MethodPost {
		if n := h.creates.Add(1); n > int64(h.cfg.maxCreates()) {
			Skip(fmt.Sprintf("max creates reached: this run may send at most %d createPet requests", h.cfg.maxCreates()))
		}
	}
	for retries := 0; ; retries++ {
		h.roundTrip(ctx, r, x)
		if x.status != http.StatusTooManyRequests {
			break
		}
		if retries == MaxRateLimitRetries {
			h.rateLimited(x)
		}
		wait := time.NewTimer(RetryAfter(x.header, time.Now(), MaxRetryWait))
		select {
		case <-wait.C:
		case <-ctx.Done():
			wait.Stop()
			h.rateLimited(x)
		}
	}
	h.judge(r, x)
	return x
}

// roundTrip sends r once and reads the answer into x. It fails the spec on
// an answer that does not come in full.
func (h *harness) roundTrip(ctx context.Context, r *request, x *exchange) {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(ctx, h.cfg.timeout())
	defer cancel()
	var body io.Reader = http.NoBody
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, x.url, body)
	if err != nil {
		Fail(x.report(ruleTransport, err.Error()))
	}
	for name, values := range r.header {
		for _, v := range values {
			req.Header.Add(name, strings.ReplaceAll(v, keyVar, h.cfg.APIKey))
		}
	}
	req.Header.Set("User-Agent", "petstore-conformance")
	resp, err := h.http.Do(req)
	if err != nil {
		h.failTransport(x, describeNoAnswer(err, errors.Is(ctx.Err(), context.DeadlineExceeded), h.cfg.timeout()))
	}
	defer resp.Body.Close()
	x.status, x.header = resp.StatusCode, resp.Header
	if resp.ContentLength > MaxBodyBytes {
		h.failTransport(x, fmt.Sprintf("body larger than %d bytes, the most the suite reads: Content-Length announced %d; not read", MaxBodyBytes, resp.ContentLength))
	}
	x.body, err = io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	switch {
	case err != nil:
		h.failTransport(x, describeBrokenBody(err, errors.Is(ctx.Err(), context.DeadlineExceeded), h.cfg.timeout(), len(x.body), resp.ContentLength))
	case len(x.body) > MaxBodyBytes:
		h.failTransport(x, fmt.Sprintf("body larger than %d bytes, the most the suite reads: reading stopped there", MaxBodyBytes))
	}
}

// judge checks a complete answer x to r against the rules that hold for
// every answer, and fails the spec on the first one broken.
func (h *harness) judge(r *request, x *exchange) {
	GinkgoHelper()
	if err := h.validate(r, x); err != nil {
		if errors.As(err, new(*statusError)) && isRedirect(x.status, x.header) {
			h.broken(x, ruleRedirect, h.describeRedirect(x))
		}
		h.broken(x, ruleContract, err.Error())
	}
	if x.status >= 400 {
		if problem := errorProblem(x); problem != "" {
			h.broken(x, ruleErrorShape, problem)
		}
	}
	if r.op == spec.ListPets && x.status == http.StatusOK {
		pets := x.pets()
		if id, dup := firstDuplicate(pets); dup {
			h.broken(x, ruleUniqueIDs, fmt.Sprintf("id %d appears more than once", id))
		}
		limit, rl, asked := h.pageLimit(r)
		x.limit = limit
		if len(pets) > limit {
			h.broken(x, rl, fmt.Sprintf("%s: %d pets, want at most %d", asked, len(pets), limit))
		}
	}
}

// broken fails the spec: x breaks rule r. If x answers a request the
// interface may not cover (a link to another path), it skips the spec
// instead, and says why.
func (h *harness) broken(x *exchange, r rule, detail string) {
	GinkgoHelper()
	if x.lenient {
		Skip(x.redact(fmt.Sprintf("a next link led to %s, whose answer is not one of listPets (%s: %s); the interface does not show how to request a later page, so the check cannot go on", x.url, r.id, detail)))
	}
	Fail(x.report(r, detail))
}

// pageLimit returns the most pets an answer to r, a listPets request, may
// hold: its limit; the default without one; the maximum for a limit out of
// range, not an integer or given twice, which a server may clamp. A page
// that a link led to, and whose URL carries no limit, holds at most what
// the page before it could. It also returns the rule that sets the bound,
// and how the limit was asked for.
func (h *harness) pageLimit(r *request) (int, rule, string) {
	c := h.contract
	values, _ := url.ParseQuery(r.query)
	v, ok := values["limit"]
	switch {
	case !ok && r.pageLimit > 0:
		return r.pageLimit, ruleLimit, fmt.Sprintf("a next page of a list of limit=%d", r.pageLimit)
	case !ok:
		return c.limitDefault, ruleLimitDefault, "no limit"
	}
	asked := "limit=" + strings.Join(v, "&limit=")
	if len(v) == 1 {
		if n, err := strconv.Atoi(v[0]); err == nil && n >= c.limitMin && n <= c.limitMax {
			return n, ruleLimit, asked
		}
	}
	return c.limitMax, ruleLimitBad, asked
}

// validate checks the answer of x against the document: a status
// documented for the operation, its headers, Content-Type and body.
func (h *harness) validate(r *request, x *exchange) error {
	// The router knows the document's base path, whatever the path of
	// the deployment's base URL.
	probe := (&http.Request{
		Method: r.method,
		URL:    &url.URL{Path: h.docBase + r.path, RawQuery: r.query},
		Header: r.header,
	}).WithContext(context.Background())
	route, params, err := h.router.FindRoute(probe)
	if err != nil {
		return fmt.Errorf("%s %s: not an operation of the document: %v", r.method, r.path, err)
	}
	responses := route.Operation.Responses
	if responses.Status(x.status) == nil && responses.Default() == nil {
		return &statusError{status: x.status, op: r.op, documented: documentedStatuses(route.Operation)}
	}
	if problem := invalidJSON(x); problem != "" {
		return fmt.Errorf("%s answered %d: %s", r.op, x.status, problem)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: probe, PathParams: params, Route: route,
		},
		Status: x.status,
		Header: x.header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	in.SetBodyBytes(x.body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s answered %d: %s", r.op, x.status, describeValidation(err))
	}
	return nil
}

// failTransport fails the spec on an answer that did not come in full. The
// MaxTransportFailures-th such failure stops the run: the deployment is not
// answering, and each check left would only wait for its timeout.
func (h *harness) failTransport(x *exchange, detail string) {
	GinkgoHelper()
	msg := x.report(ruleTransport, detail)
	if n := h.transportFailures.Add(1); n >= MaxTransportFailures {
		AbortSuite(msg + fmt.Sprintf("the run stops: %d requests got no complete answer, so the checks left are skipped\n", n))
	}
	Fail(msg)
}

// statusError says that the status of an answer is not documented for its
// operation.
type statusError struct {
	status     int
	op         string
	documented []string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("status %d is not documented for %s (documented: %s)", e.status, e.op, strings.Join(e.documented, ", "))
}

// invalidJSON says why the body of x, served as JSON, is not JSON, or
// returns "". The schema check would say it too, less plainly.
func invalidJSON(x *exchange) string {
	mediaType, _, _ := mime.ParseMediaType(x.header.Get("Content-Type"))
	if len(x.body) == 0 || mediaType != "application/json" && !strings.HasSuffix(mediaType, "+json") {
		return ""
	}
	var v json.RawMessage
	err := json.Unmarshal(x.body, &v)
	var se *json.SyntaxError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &se):
		return fmt.Sprintf("the body is not valid JSON: %s, at byte %d of %d", se, se.Offset, len(x.body))
	default:
		return "the body is not valid JSON: " + err.Error()
	}
}

func documentedStatuses(op *openapi3.Operation) []string {
	var out []string
	for code := range op.Responses.Map() {
		out = append(out, code)
	}
	slices.Sort(out)
	return out
}

// describeValidation shortens a validation error: kin-openapi appends the
// whole schema and value, which a log reader does not need.
func describeValidation(err error) string {
	var re *openapi3filter.ResponseError
	if !errors.As(err, &re) {
		return err.Error()
	}
	msg := re.Reason
	var me openapi3.MultiError
	if errors.As(re.Err, &me) {
		for _, e := range me {
			msg += "; " + describeSchemaError(e)
		}
	} else if re.Err != nil {
		msg += ": " + describeSchemaError(re.Err)
	}
	return msg
}

func describeSchemaError(err error) string {
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		where := strings.Join(se.JSONPointer(), ".")
		if where == "" {
			where = "body"
		}
		return where + ": " + se.Reason
	}
	return err.Error()
}

// errorProblem returns what is wrong with the Error body of x, or "".
// The schema has already been checked; this checks what it cannot say.
func errorProblem(x *exchange) string {
	var e struct {
		Code    *string      `json:"code"`
		Message *string      `json:"message"`
		Status  *json.Number `json:"status"`
	}
	dec := json.NewDecoder(bytes.NewReader(x.body))
	dec.UseNumber()
	if err := dec.Decode(&e); err != nil {
		return "the body is not an Error object: " + err.Error()
	}
	var problems []string
	if e.Code == nil || *e.Code == "" {
		problems = append(problems, "code is missing or empty")
	}
	if e.Message == nil || *e.Message == "" {
		problems = append(problems, "message is missing or empty")
	}
	switch {
	case e.Status == nil:
		problems = append(problems, "status is missing")
	default:
		if n, ok := exactInt(*e.Status); !ok || n != int64(x.status) {
			problems = append(problems, fmt.Sprintf("status is %s, but the HTTP status is %d", e.Status, x.status))
		}
	}
	return strings.Join(problems, "; ")
}
