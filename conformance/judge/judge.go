package judge

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// The suite's client judges every answer it receives, in one place, before
// any check looks at it: judge and what it calls.

// judge checks a complete answer x to r against the rules that hold for
// every answer, and returns the verdict on the first one broken.
func (c *Client) judge(r *Request, x *Exchange) error {
	if c.cfg.Seen != nil {
		c.cfg.Seen(r.op, x.Status)
	}
	if c.missing(r, x.Status) {
		return x.Breaks(RuleOpExists, fmt.Sprintf("%s %s answered %d: the operation %s, which the document describes, is missing", r.method, x.URL, x.Status, r.op))
	}
	violations, err := c.check(r, x)
	if err != nil {
		return x.Breaks(RuleContract, err.Error())
	}
	if len(violations) > 0 && violations[0].Rule == answercheck.RuleStatus && slices.Contains(r.calledFor, x.Status) {
		// A status HTTP requires, which r called for: its body is held
		// to the document's error body, as an error the operation does
		// not document (calledfor.go).
		violations = c.cfg.Checker.CheckError(c.probe(r), answercheck.Answer{Status: x.Status, Header: x.Header, Body: x.body})
	}
	if len(violations) > 0 {
		switch v := violations[0]; {
		case v.Rule == answercheck.RuleUncheckable:
			// The validator cannot compile the schema: the body cannot
			// be judged, and the check that needed it says so.
			return &Skipped{Reason: x.redact(fmt.Sprintf("%s: the validator cannot read the schema the document gives this answer (%s), so the body cannot be judged", r.op, v.Message))}
		case v.Rule == answercheck.RuleStatus && IsRedirect(x.Status, x.Header):
			return x.Breaks(RuleRedirect, c.describeRedirect(x))
		case v.Rule == answercheck.RuleErrorShape:
			return x.Breaks(RuleErrorShape, v.Message)
		default:
			return x.Breaks(RuleContract, v.Message)
		}
	}
	petstoreList := c.cfg.Pets != nil && r.op == spec.ListPets
	if op := c.cfg.Contract.Operation(r.op); op != nil && op.Role == spec.RoleList && !petstoreList && x.Status == http.StatusOK {
		return c.judgeList(op.Resource, r, x)
	}
	if petstoreList && x.Status == http.StatusOK {
		pets, err := x.Pets()
		if err != nil {
			return err
		}
		if id, dup := firstDuplicate(pets); dup {
			return x.Breaks(RuleUniqueIDs, fmt.Sprintf("id %d appears more than once", id))
		}
		limit, rl, asked := c.pageLimit(r)
		x.Limit = limit
		if len(pets) > limit {
			return x.Breaks(rl, fmt.Sprintf("%s: %d pets, want at most %d", asked, len(pets), limit))
		}
	}
	return nil
}

// Breaks returns the verdict that x breaks rule r. If x answers a request
// the interface may not cover (a link to another path), the check is
// skipped instead, saying why.
func (x *Exchange) Breaks(r Rule, detail string) error {
	if x.lenient {
		return &Skipped{Reason: x.redact(fmt.Sprintf("a next link led to %s, whose answer is not one of listPets (%s: %s); the interface does not show how to request a later page, so the check cannot go on", x.URL, r.ID, detail))}
	}
	return breaks(x, r, detail)
}

// pageLimit returns the most pets an answer to r, a listPets request, may
// hold: its limit; the default without one; the maximum for a limit out of
// range, not an integer or given twice, which a server may clamp. A page
// that a link led to, and whose URL carries no limit, holds at most what
// the page before it could. It also returns the rule that sets the bound,
// and how the limit was asked for.
func (c *Client) pageLimit(r *Request) (int, Rule, string) {
	p := c.cfg.Pets
	values, _ := url.ParseQuery(r.Query)
	v, ok := values["limit"]
	switch {
	case !ok && r.PageLimit > 0:
		return r.PageLimit, RuleLimit, fmt.Sprintf("a next page of a list of limit=%d", r.PageLimit)
	case !ok:
		return p.Default, RuleLimitDefault, "no limit"
	}
	asked := "limit=" + strings.Join(v, "&limit=")
	if len(v) == 1 {
		if n, err := strconv.Atoi(v[0]); err == nil && n >= p.Min && n <= p.Max {
			// A next link that asks for more than the page before it
			// could hold gives no leave to send more.
			if r.PageLimit > 0 && n > r.PageLimit {
				return r.PageLimit, RuleLimit, fmt.Sprintf("a next page of a list of limit=%d, whose link asks %s", r.PageLimit, asked)
			}
			return n, RuleLimit, asked
		}
	}
	return p.Max, RuleLimitBad, asked
}

// judgeList checks x, a 200 of the list of res asked for by r, against
// what holds for every page of a list: its ids are unique, and it holds
// no more items than its limit.
func (c *Client) judgeList(res *spec.Resource, r *Request, x *Exchange) error {
	x.Limit = c.listLimit(res, r)
	items, err := x.Items()
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		id := it.ID(res.IDProperty)
		if id == "" {
			continue
		}
		if seen[id] {
			return x.Breaks(RuleUniqueIDs, fmt.Sprintf("%s %s appears more than once", res.IDProperty, id))
		}
		seen[id] = true
	}
	if x.Limit > 0 && len(items) > x.Limit {
		return x.Breaks(RuleListLimit, fmt.Sprintf("%s: %d items, want at most %d", describeLimit(res, r, x.Limit), len(items), x.Limit))
	}
	return nil
}

// describeLimit says how the limit of a page of the list of res asked for
// by r came about, for messages.
func describeLimit(res *spec.Resource, r *Request, limit int) string {
	values, _ := url.ParseQuery(r.Query)
	v, ok := values[res.Paging.Limit]
	switch {
	case ok && r.PageLimit > 0:
		return fmt.Sprintf("a next page of a list of %s=%d, whose link asks %s=%s", res.Paging.Limit, r.PageLimit, res.Paging.Limit, strings.Join(v, ","))
	case r.PageLimit > 0:
		return fmt.Sprintf("a next page of a list of %s=%d", res.Paging.Limit, r.PageLimit)
	case ok:
		return res.Paging.Limit + "=" + strings.Join(v, "&"+res.Paging.Limit+"=")
	}
	return fmt.Sprintf("no %s, whose default is %d", res.Paging.Limit, limit)
}

// documents reports whether the operation of id documents status.
func (c *Client) documents(id string, status int) bool {
	op := c.cfg.Contract.Operation(id)
	return op != nil && op.Documents(status)
}

// listLimit returns the most items a page of a list asked for by r may
// hold, or 0 when nothing bounds it: the limit asked for when the
// document allows it, and no more than the page before it for a page a
// next link led to; without one, the default the document gives, else its
// largest limit. A server may clamp a limit out of range to the largest.
func (c *Client) listLimit(res *spec.Resource, r *Request) int {
	p := res.Paging
	if p.Limit == "" {
		return 0
	}
	values, _ := url.ParseQuery(r.Query)
	v, ok := values[p.Limit]
	n := p.Max
	switch {
	case !ok && r.PageLimit > 0:
		return r.PageLimit
	case !ok && p.LimitSchema.Default != nil:
		n = p.Default
	case !ok:
	default:
		if asked, err := strconv.Atoi(v[0]); err == nil && len(v) == 1 && asked >= p.Min && (p.Max == 0 || asked <= p.Max) {
			n = asked
		}
	}
	if r.PageLimit > 0 && (n == 0 || n > r.PageLimit) {
		n = r.PageLimit
	}
	return n
}

// check checks the answer of x against the document: a status documented
// for the operation, its headers, Content-Type and body, and the shape of
// an error. It returns what x breaks, first what a reader would fix first.
func (c *Client) check(r *Request, x *Exchange) ([]answercheck.Violation, error) {
	return c.cfg.Checker.Check(c.probe(r), answercheck.Answer{Status: x.Status, Header: x.Header, Body: x.body})
}

// probe returns r as the checker finds its operation: below the
// document's base path, which the checker's router knows, whatever the
// path of the deployment's base URL.
func (c *Client) probe(r *Request) *http.Request {
	u := &url.URL{RawQuery: r.Query}
	base := c.cfg.Contract.Base
	if op := c.cfg.Contract.Operation(r.op); op != nil {
		base = op.Base
	}
	setPath(u, base+r.Path)
	return (&http.Request{Method: r.method, URL: u, Header: r.Header}).WithContext(context.Background())
}

// missing reports whether status, the answer to r, says that r's
// operation is not served: a 404 or a 405 to a valid request of an
// operation the document describes, which the operation does not document.
// One it documents is an answer it may give, such as the 405 "Invalid
// input" that is all Swagger Petstore documents of addPet. A 404 to a
// path that names something the suite made up is not missing either,
// where the operation documents a 404 or by default, or r called for one.
func (c *Client) missing(r *Request, status int) bool {
	if !r.MustExist || status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
		return false
	}
	if op := c.cfg.Contract.Operation(r.op); op != nil && slices.Contains(op.Statuses, status) {
		return false
	}
	return status != http.StatusNotFound || !r.MadeUp || !c.documents(r.op, status) && !slices.Contains(r.calledFor, status)
}

// ErrNoOperation says that a request is no operation of the document, so
// that nothing in the document says what its answer should be.
var ErrNoOperation = answercheck.ErrNoOperation

// MaxReportedSchemaErrors is how many of the schema errors of one answer
// a failure lists; it says how many more there are.
const MaxReportedSchemaErrors = answercheck.MaxReportedSchemaErrors

// IsJSON reports whether a media type is JSON: application/json, or one
// whose subtype ends in +json.
func IsJSON(mediaType string) bool {
	return mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")
}

// jsonValues counts the values of a JSON text, stopping once it passes
// limit: each array element, object member and the top value. Strings are
// skipped whole, escapes included.
func jsonValues(b []byte, limit int) int {
	n := 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ',' || c == '[' || c == '{':
			n++
			if n > limit {
				return n
			}
		}
	}
	return n + 1
}
