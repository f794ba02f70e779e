package replay

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// DefaultTimeout bounds each request replayed, from sending it to the
// last byte of its answer.
const DefaultTimeout = 10 * time.Second

// redacted is how petmock's journal shows a value it hid.
const redacted = "[redacted]"

// Config says where the requests are replayed, and what their answers
// are judged by.
type Config struct {
	// Base is the deployment's base URL, with the version segment, such as
	// https://staging.example/v1, without a trailing slash.
	Base *url.URL
	// APIKey is sent where the app sent a key of petmock's, and in place
	// of every value the journal hid.
	APIKey string
	// Contract is the document the answers are judged by, and whose base
	// path the journal's paths are below.
	Contract *spec.Contract
	// Strict holds the answers to petmock's choices of headers too, as
	// conformance --strict does.
	Strict bool
	// ReadOnly replays only GET requests, and skips the others, saying
	// so: for production.
	ReadOnly bool
	// Timeout bounds each request; zero means DefaultTimeout.
	Timeout time.Duration
	// Transport sends the requests; nil means the suite's own.
	Transport http.RoundTripper
}

// Outcome is what became of one request replayed.
type Outcome int

// The outcomes.
const (
	// Passed: the deployment's answer is one the document allows.
	Passed Outcome = iota
	// Failed: the answer breaks the document, or did not come.
	Failed
	// Skipped: the request was not sent, and Note says why.
	Skipped
)

// String returns the outcome as a line of the report begins: ok, FAIL or
// skip.
func (o Outcome) String() string {
	return [...]string{"ok", "FAIL", "skip"}[o]
}

// Result is the verdict on one request of the journal.
type Result struct {
	// N is the request's place in the journal, oldest first, from 1.
	N int
	// Method, Path and Query are the request as the app sent it to
	// petmock; Sent is its path and query as replayed, below the base URL,
	// an id petmock gave replaced by the deployment's.
	Method, Path, Query string
	Sent                string
	// Operation is the id of the request's operation; "" for none.
	Operation string
	// Journaled is petmock's status, and Status the deployment's, 0 for
	// none.
	Journaled, Status int
	Outcome           Outcome
	// Verdict is the suite's report of a failure: a *judge.Broken names
	// the rule broken, with a curl line that repeats the request.
	Verdict error
	// Note says why a request was skipped, or, of one sent, what differs
	// from what petmock answered, such as another status.
	Note string
}

// Run replays reqs, oldest first, against the deployment cfg names, and
// returns a Result for each. It stops early only when ctx is done, or when
// the deployment stops answering (judge.MaxTransportFailures requests
// without a complete answer): the requests left are skipped, saying so.
func Run(ctx context.Context, cfg Config, reqs []Request) ([]Result, error) {
	if cfg.Base == nil || cfg.Contract == nil {
		return nil, errors.New("replay: a base URL and a document are required")
	}
	checker, err := answercheck.New(cfg.Contract, cfg.Strict)
	if err != nil {
		return nil, fmt.Errorf("document: %w", err)
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	client := judge.NewClient(judge.Config{
		Base: cfg.Base, APIKey: cfg.APIKey, ReadOnly: cfg.ReadOnly, MaxCreates: len(reqs) + 1, Timeout: timeout,
		Transport: cfg.Transport, Contract: cfg.Contract, Checker: checker,
	})
	defer client.CloseIdleConnections()
	r := &replayer{cfg: cfg, client: client, ids: newIDs()}
	out := make([]Result, 0, len(reqs))
	stopped := ""
	for i, x := range reqs {
		res := Result{N: i + 1, Method: x.Method, Path: x.Path, Query: x.Query, Journaled: x.Status}
		switch {
		case stopped != "":
			res.Outcome, res.Note = Skipped, stopped
		case ctx.Err() != nil:
			stopped = "not sent: the replay was stopped"
			res.Outcome, res.Note = Skipped, stopped
		default:
			r.replay(ctx, x, &res)
			var aborted *judge.Aborted
			if errors.As(res.Verdict, &aborted) {
				stopped = "not sent: " + strings.TrimSpace(aborted.Reason)
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// replayer replays the requests of one journal.
type replayer struct {
	cfg    Config
	client *judge.Client
	ids    *ids
}

// replay sends x, and judges its answer, into res.
func (r *replayer) replay(ctx context.Context, x Request, res *Result) {
	c := r.cfg.Contract
	method := strings.ToUpper(x.Method)
	rel, below := strings.CutPrefix(x.Path, c.Base)
	if c.Base == "" {
		rel, below = x.Path, true
	}
	if !below || rel != "" && rel[0] != '/' {
		res.Outcome, res.Note = Skipped, "outside the document's base path "+c.Base+": no operation of the document"
		return
	}
	op, params := operationOf(c, method, rel)
	if op == nil {
		res.Outcome, res.Note = Skipped, "no operation of the document has this method and path"
		return
	}
	res.Operation = op.ID
	skip := func(why string) {
		res.Outcome, res.Note = Skipped, why
		r.ids.learn(op, x, nil, res.N, why)
	}
	if r.cfg.ReadOnly && method != http.MethodGet {
		skip("a " + method + ", which a read-only replay does not send")
		return
	}
	if x.Request.Truncated {
		skip("the journal kept only the first 4 KiB of its body")
		return
	}
	if strings.Contains(rel, redacted) || strings.Contains(rel, url.PathEscape(redacted)) {
		skip("its path holds a value the journal hid")
		return
	}
	rel, why := r.ids.rewritePath(op, rel, params)
	if why != "" {
		skip(why)
		return
	}
	var body []byte
	if x.Request.Body != "" {
		// A body is sent as it is: the key goes in it as it is, and the
		// reports hide it.
		body = []byte(r.ids.rewriteBody(strings.ReplaceAll(x.Request.Body, redacted, r.cfg.APIKey)))
	}
	req := judge.NewRequest(op.ID, method, rel, "", body)
	query := r.credentials(req, op, x)
	req.Query = query
	res.Sent = rel
	if query != "" {
		res.Sent += "?" + query
	}
	answer, verdict := r.client.Send(ctx, req)
	if answer != nil {
		res.Status = answer.Status
	}
	var skipped *judge.Skipped
	switch {
	case errors.As(verdict, &skipped):
		skip(skipped.Reason)
		return
	case verdict != nil:
		res.Outcome, res.Verdict = Failed, verdict
	}
	r.ids.learn(op, x, answer, res.N, "")
	if res.Outcome == Passed {
		res.Note = differs(x, res.Status)
	}
}

// differs says how the deployment's status differs from petmock's, in a
// way a team looks at, or "": another class of status, or a fault or an
// expectation of petmock's that answered instead.
func differs(x Request, status int) string {
	switch {
	case x.Fault != "":
		return fmt.Sprintf("petmock answered it with the fault %s", x.Fault)
	case x.Expectation != 0 && x.Status/100 != status/100:
		return fmt.Sprintf("petmock's expectation %d answered %d", x.Expectation, x.Status)
	case x.Status/100 != status/100:
		return fmt.Sprintf("petmock answered %d", x.Status)
	}
	return ""
}

// operationOf returns the operation of method and path, below the base
// path, with its path parameters: of the operations whose template
// matches, the one of the fewest parameters, as a router prefers
// /pets/mine to /pets/{petId}.
func operationOf(c *spec.Contract, method, path string) (*spec.Operation, map[string]string) {
	if method == http.MethodHead {
		method = http.MethodGet
	}
	var found *spec.Operation
	var params map[string]string
	for _, op := range c.Operations {
		if op.Method != method {
			continue
		}
		p, ok := op.Template.Match(path)
		if ok && (found == nil || len(p) < len(params)) {
			found, params = op, p
		}
	}
	return found, params
}

// dropped are the headers a replay does not send as the app did: those
// of the connection and the framing, which the client sets itself; the
// proxies' in front of petmock; and Prefer, which steers petmock and means
// nothing to a deployment.
var dropped = []string{"Host", "Content-Length", "Connection", "Keep-Alive", "Transfer-Encoding", "Te", "Trailer", "Upgrade",
	"Proxy-Connection", "Accept-Encoding", "User-Agent", "Prefer", "Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto"}

// credentials gives req the headers of x, but for dropped and the
// credentials of the document's schemes, and the run's key as op asks for
// it, where the app sent one of petmock's; every value the journal hid is
// the key. It returns the query to send: x's, likewise.
func (r *replayer) credentials(req *judge.Request, op *spec.Operation, x Request) string {
	h := http.Header{}
	for name, values := range x.Request.Header {
		name = http.CanonicalHeaderKey(name)
		if isDropped(name) {
			continue
		}
		for _, v := range values {
			if name == "Cookie" && v == redacted {
				// The journal hid every cookie: the app's session is
				// not the deployment's anyway.
				continue
			}
			h.Add(name, strings.ReplaceAll(v, redacted, judge.KeyVar))
		}
	}
	// The key in a query goes escaped, as the client puts it in place.
	hiddenInQuery := strings.NewReplacer(redacted, url.QueryEscape(judge.KeyVar), url.QueryEscape(redacted), url.QueryEscape(judge.KeyVar))
	in := &http.Request{Header: h, URL: &url.URL{RawQuery: hiddenInQuery.Replace(x.Query)}}
	keyed := false
	for _, s := range schemes(r.cfg.Contract) {
		keyed = keyed || credentialIn(s, x)
		s.Withdraw(in)
	}
	req.Header, req.Basic = h, nil
	if !keyed {
		return in.URL.RawQuery
	}
	for _, s := range requirement(op) {
		if s.Place().As == spec.AsBasic {
			place := s.Place()
			req.Basic, req.BasicKey = &place, judge.KeyVar
			continue
		}
		s.Present(in, judge.KeyVar)
	}
	// Present escapes the key it puts in a query as the client expects.
	return in.URL.RawQuery
}

// isDropped reports whether the header name is one a replay sets itself.
func isDropped(name string) bool {
	for _, d := range dropped {
		if strings.EqualFold(d, name) {
			return true
		}
	}
	return false
}

// schemes returns the security schemes of c's operations.
func schemes(c *spec.Contract) []*spec.Scheme {
	seen := map[string]bool{}
	var out []*spec.Scheme
	for _, op := range c.Operations {
		for _, req := range op.Requirements {
			for _, s := range req {
				if !seen[s.Name] {
					seen[s.Name] = true
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// requirement returns the first alternative of op's security that a key
// meets; none for a public operation.
func requirement(op *spec.Operation) spec.Requirement {
	for _, req := range op.Requirements {
		ok := len(req) > 0
		for _, s := range req {
			ok = ok && s.Unsupported == ""
		}
		if ok {
			return req
		}
	}
	return nil
}

// credentialIn reports whether x carried the credential of s, as the app
// sent it to petmock.
func credentialIn(s *spec.Scheme, x Request) bool {
	where, name, _ := s.Credential("")
	switch where {
	case spec.InQuery:
		q, _ := url.ParseQuery(x.Query)
		return q.Has(name)
	case spec.InCookie:
		in := &http.Request{Header: x.Request.Header}
		_, err := in.Cookie(name)
		return err == nil || strings.Contains(x.Request.Header.Get("Cookie"), redacted)
	}
	return x.Request.Header.Get(name) != ""
}
