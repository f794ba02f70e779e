package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// UnreachableError is returned by Preflight when the base URL gives no
// HTTP answer at all.
type UnreachableError struct {
	URL string
	Err error
}

func (e *UnreachableError) Error() string {
	return "cannot reach " + e.URL + ": " + e.Err.Error()
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// SetupError is returned by Preflight when the answer shows a mistake in
// the run's setup rather than in the deployment: the key is refused in
// every form, or the base URL is not the API's. Judging then would only
// blame the deployment for every check.
type SetupError struct {
	// Answer says what the preflight request got, such as "GET
	// https://h/v1/pets?limit=1 answered 401 Unauthorized".
	Answer string
	// Fix says what to change.
	Fix string
}

func (e *SetupError) Error() string { return e.Answer + ": " + e.Fix }

// maxPreflightTries bounds the operations the preflight tries when the
// first answers 404.
const maxPreflightTries = 3

// preflightBodyBytes is how much of an answer's body the preflight reads:
// enough to tell an HTML page from JSON.
const preflightBodyBytes = 4 << 10

// Preflight sends one request, before any spec runs, to learn whether the
// run can judge the deployment at all: a GET of an operation of the
// document that needs no parameter, a list first, such as GET
// {BaseURL}/pets?limit=1 of the Petstore, with the key as the operation's
// security asks. It returns an *UnreachableError if no status line and
// headers come within the timeout, and a *SetupError if the answer shows
// that the run cannot judge: a body that is an HTML page, a redirect (to a
// login page, or to https), a key refused in every form the document
// gives and in the common others, or a 404 from every operation it tried.
// Otherwise it returns a one-line note on the answer, and the specs judge
// the deployment, even when the answer breaks the contract: a JSON body
// labelled text/html, or a key refused in the form the document gives
// but taken in another, fails checks rather than the setup. A document
// with no operation the preflight can send is said in the note, and the
// run goes on. Preflight follows no redirect.
func Preflight(ctx context.Context, cfg Config) (string, error) {
	if err := cfg.Validate(); err != nil {
		return "", err
	}
	c, err := cfg.contract()
	if err != nil {
		return "", err
	}
	ops := preflightOperations(c)
	if len(ops) == 0 {
		return "no operation of the document can be sent without parameters: the base URL and the key are first tried by the checks", nil
	}
	p := &preflight{cfg: cfg, contract: c, client: judge.NewHTTPClient(cfg.Transport)}
	p.base, _ = cfg.baseURL()
	defer p.client.CloseIdleConnections()

	var missing []string // answers of operations that answered 404
	for i, op := range ops {
		if i == maxPreflightTries {
			break
		}
		a, err := p.send(ctx, op, documentedForm(op))
		if err != nil {
			return "", err
		}
		if err := p.setupMistake(a); err != nil {
			return "", err
		}
		switch a.status {
		case http.StatusNotFound:
			missing = append(missing, a.line)
			continue
		case http.StatusUnauthorized, http.StatusForbidden:
			return p.refused(ctx, op, a)
		}
		note := a.line
		if len(missing) > 0 {
			note = strings.Join(missing, "; ") + " (the checks judge the operation that is missing); " + note
		}
		return p.redact(note), nil
	}
	return "", p.setup(strings.Join(missing, "; "), "the base URL is not the API's: does it end in the version segment, such as /v1?")
}

// preflight sends the requests of a Preflight.
type preflight struct {
	cfg      Config
	contract *spec.Contract
	base     *url.URL
	client   *http.Client
}

// preflightAnswer is what one preflight request got: its status, the
// first bytes of its body, and a line that says so.
type preflightAnswer struct {
	status int
	header http.Header
	body   []byte
	line   string // such as "GET https://h/v1/pets?limit=1 answered 200 OK"
}

// keyPresentation is one way of presenting the key: the schemes of a security
// requirement, or a common form the document may not give.
type keyPresentation struct {
	what    string
	present func(r *http.Request, key string)
}

// documentedForm presents the key as the first security requirement of op
// a request can meet asks, every scheme of it; an operation without one
// gets no key.
func documentedForm(op *spec.Operation) keyPresentation {
	req, ok := request.Requirement(op)
	if !ok {
		return keyPresentation{"no key", func(*http.Request, string) {}}
	}
	return requirementForm(req)
}

// requirementForm presents the key as every scheme of req asks.
func requirementForm(req spec.Requirement) keyPresentation {
	var names []string
	for _, s := range req {
		names = append(names, describePlace(s.Place()))
	}
	return keyPresentation{strings.Join(names, " and "), func(r *http.Request, key string) {
		for _, s := range req {
			s.Present(r, key)
		}
	}}
}

// describePlace names where a credential goes, for messages.
func describePlace(p spec.Place) string {
	switch {
	case p.As == spec.AsBasic:
		return "HTTP basic credentials"
	case p.In == spec.InHeader && strings.EqualFold(p.Name, "Authorization"):
		return "a bearer token"
	}
	return "the " + p.In + " " + p.Name
}

// commonForms are the ways of sending a key that deployments take most
// often, whatever their document says.
var commonForms = []keyPresentation{
	{"a bearer token", func(r *http.Request, key string) { r.Header.Set("Authorization", "Bearer "+key) }},
	{"HTTP basic credentials", func(r *http.Request, key string) { r.SetBasicAuth("", key) }},
	{"HTTP basic credentials, the key as the user", func(r *http.Request, key string) { r.SetBasicAuth(key, "") }},
	{"the bare key in Authorization", func(r *http.Request, key string) { r.Header.Set("Authorization", key) }},
	{"the header X-API-Key", func(r *http.Request, key string) { r.Header.Set("X-API-Key", key) }},
	{"the query api_key", func(r *http.Request, key string) {
		q := r.URL.Query()
		q.Set("api_key", key)
		r.URL.RawQuery = q.Encode()
	}},
}

// refused goes on from a in answer to op, which refused the key in the
// form the document gives first: the key may be taken in another form the
// document gives, and then the run judges. If it is taken only in a form
// the document does not give, the deployment breaks the contract, which
// the checks will say, and the run judges too. If no form is taken, the
// run cannot judge: the key is wrong.
func (p *preflight) refused(ctx context.Context, op *spec.Operation, a preflightAnswer) (string, error) {
	tried := map[string]bool{documentedForm(op).what: true}
	for _, req := range op.Requirements[1:] {
		f := requirementForm(req)
		// Where the key is optional, a refused key is a wrong one.
		if len(req) == 0 || tried[f.what] {
			continue
		}
		tried[f.what] = true
		other, err := p.send(ctx, op, f)
		if err != nil {
			return "", err
		}
		if accepted(other.status) {
			return p.redact(a.line + "; " + other.line + ", with the key as " + f.what + ", which the document also gives"), nil
		}
	}
	for _, f := range commonForms {
		if tried[f.what] {
			continue
		}
		other, err := p.send(ctx, op, f)
		if err != nil {
			return "", err
		}
		if accepted(other.status) {
			return p.redact(fmt.Sprintf("%s, with the key as %s, as the document asks; %s with the key as %s, which the document does not give: the deployment is judged, and its checks will fail", a.line, documentedForm(op).what, other.line, f.what)), nil
		}
	}
	return "", p.setup(a.line, "the API key was refused; check --api-key or "+keyEnvName+". A deployment that refuses every key looks the same: the suite cannot judge it without a key it accepts (it was sent as "+documentedForm(op).what+", as the document asks, and in the common other forms)")
}

// accepted reports whether a status says that a key was taken.
func accepted(status int) bool {
	return status != http.StatusUnauthorized && status != http.StatusForbidden && status != http.StatusNotFound
}

// setupMistake returns the *SetupError of an answer that shows that the
// run cannot judge the deployment: a redirect, or a body that is an HTML
// page. A body served as text/html that is not HTML, such as JSON, is the
// deployment's fault, for the checks to judge.
func (p *preflight) setupMistake(a preflightAnswer) error {
	switch {
	case judge.IsRedirect(a.status, a.header):
		return p.setup(a.line, "a redirect to "+a.header.Get("Location")+", which the suite does not follow: is the base URL right (https rather than http, or the API rather than a login page)?")
	case looksLikeHTML(a.body):
		return p.setup(a.line, "an HTML page, not the API: is the base URL the API's, such as https://petstore.example.com/v1?")
	}
	return nil
}

// looksLikeHTML reports whether a body is an HTML page, whatever its
// Content-Type says.
func looksLikeHTML(body []byte) bool {
	return strings.HasPrefix(http.DetectContentType(body), "text/html")
}

// send sends a GET of op with the key presented as f, and reads the first
// bytes of the answer.
func (p *preflight) send(ctx context.Context, op *spec.Operation, f keyPresentation) (preflightAnswer, error) {
	u := *p.base
	u.RawPath = ""
	u.Path, _ = url.PathUnescape(judge.OperationBase(p.base, p.contract, op))
	u.Path += op.Path
	if res := op.Resource; res != nil && op.Role == spec.RoleList && res.Paging.Limit != "" {
		u.RawQuery = url.Values{res.Paging.Limit: {strconv.Itoa(res.Paging.Min)}}.Encode()
	}
	ctx, cancel := context.WithTimeout(ctx, p.cfg.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return preflightAnswer{}, &UnreachableError{URL: u.String(), Err: err}
	}
	f.present(req, p.cfg.APIKey)
	shown := judge.RedactKey(req.URL.String(), p.cfg.APIKey)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "petstore-conformance")
	resp, err := p.client.Do(req)
	if err != nil {
		msg := judge.DescribeNoAnswer(err, errors.Is(ctx.Err(), context.DeadlineExceeded), p.cfg.timeout())
		return preflightAnswer{}, &UnreachableError{URL: judge.RedactKey(u.String(), p.cfg.APIKey), Err: redactError(msg, err, p.cfg.APIKey)}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, preflightBodyBytes))
	return preflightAnswer{
		status: resp.StatusCode,
		header: resp.Header,
		body:   body,
		line:   fmt.Sprintf("GET %s answered %d %s", shown, resp.StatusCode, http.StatusText(resp.StatusCode)),
	}, nil
}

// setup returns the *SetupError of an answer, the key redacted.
func (p *preflight) setup(answer, fix string) error {
	return &SetupError{Answer: p.redact(answer), Fix: p.redact(fix)}
}

func (p *preflight) redact(s string) string { return judge.RedactKey(s, p.cfg.APIKey) }

// preflightOperations are the operations the preflight may send: GETs
// that need no path parameter and no other required parameter, lists of
// resources first, then those that take a key before those that do not.
func preflightOperations(c *spec.Contract) []*spec.Operation {
	var lists, secured, public []*spec.Operation
	for _, op := range c.Operations {
		if op.Method != http.MethodGet || request.NeedsParameters(op) || op.Success == 0 {
			continue
		}
		switch {
		case op.Role == spec.RoleList:
			lists = append(lists, op)
		case len(op.Requirements) > 0:
			secured = append(secured, op)
		default:
			public = append(public, op)
		}
	}
	return append(append(lists, secured...), public...)
}

// keyEnvName is the variable the commands read the key from.
const keyEnvName = "PETSTORE_API_KEY"

// redactedError is an error whose message has the API key replaced by
// $PETSTORE_API_KEY.
type redactedError struct {
	msg string
	err error // what msg describes, nil if its message holds the key
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }

// redactError returns an error that says msg, about err, with the key
// redacted. It unwraps to err, unless err's own message holds the key.
func redactError(msg string, err error, key string) error {
	if key != "" && strings.Contains(err.Error(), key) {
		err = nil
	}
	return redactedError{msg: judge.RedactKey(msg, key), err: err}
}
