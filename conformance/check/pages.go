package check

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/conformance/judge"
)

// maxWalk bounds the pages of one walk, so that a run against a large
// catalogue ends.
const maxWalk = 200

// walkEnd says how a walk through the pages of listPets ended.
type walkEnd int

const (
	// walkStopped: visit asked to stop.
	walkStopped walkEnd = iota
	// walkComplete: the last page held fewer pets than its limit and
	// linked to no next page, so every pet was seen.
	walkComplete
	// walkCut: pets may remain unseen, for a reason walk gives.
	walkCut
)

// walked is how a walk through the pages of a list ended: end, the last
// page visited and, if the walk was cut, why.
type walked struct {
	end  walkEnd
	last *judge.Exchange
	why  string
	// full says that the walk was cut at a last page as full as its
	// limit that links to no next one: the list may end there, or go on
	// in pages the suite cannot reach.
	full bool
}

// walk visits first, an answer of listPets, then each page that its
// rel="next" links lead to, at most maxWalk pages in all, until visit
// returns false or a page is the last. It returns how the walk ended, or
// the verdict of the first page or visit that was not passed: a page that
// is not a 200 breaks rule r.
//
// The interface does not show how to request a later page. The suite
// follows rel="next" links (RFC 8288), the one way it can find without
// guessing; see nextPage for which.
func (h *Harness) walk(ctx context.Context, first *judge.Exchange, r judge.Rule, visit func(x *judge.Exchange, page []judge.Pet) (bool, error)) (walked, error) {
	return h.walkPages(ctx, first, r, func(x *judge.Exchange) (bool, int, error) {
		page, err := x.Pets()
		if err != nil {
			return false, 0, err
		}
		more, err := visit(x, page)
		return more, len(page), err
	})
}

// walkItems is walk for the list of any resource.
func (h *Harness) walkItems(ctx context.Context, first *judge.Exchange, r judge.Rule, visit func(x *judge.Exchange, page []judge.Item) (bool, error)) (walked, error) {
	return h.walkPages(ctx, first, r, func(x *judge.Exchange) (bool, int, error) {
		page, err := x.Items()
		if err != nil {
			return false, 0, err
		}
		more, err := visit(x, page)
		return more, len(page), err
	})
}

// walkPages is walk, whatever the items: visit returns whether to go on,
// and the number of items of the page.
//
// Whatever the check, a walk holds the links to what every walk needs: a
// next link never leads back to a page the walk has visited, and a page
// shorter than its limit, the last, links to no next page: one that does,
// to a page that holds nothing and links nowhere, has its link on the
// last page.
func (h *Harness) walkPages(ctx context.Context, first *judge.Exchange, r judge.Rule, visit func(x *judge.Exchange) (bool, int, error)) (walked, error) {
	x := first
	visited := map[string]bool{first.URL: true}
	var before *judge.Exchange // the page that linked to x
	beforeN := 0               // its items
	for pages := 1; ; pages++ {
		if x.Status != x.Success() {
			return walked{}, x.Breaks(r, fmt.Sprintf("status %d, want %d", x.Status, x.Success()))
		}
		more, n, err := visit(x)
		switch {
		case err != nil:
			return walked{}, err
		case n == 0 && before != nil && before.Limit > 0 && beforeN < before.Limit && nextTarget(x) == "":
			return walked{}, &lateEnd{before.Breaks(judge.RulePagesEnd, fmt.Sprintf("a page of %d items, fewer than its limit of %d, links to a next page, %s, which holds none and links nowhere: the link is on the last page (walked again for %v)", beforeN, before.Limit, x.URL, h.cfg.Settle))}
		case !more:
			return walked{end: walkStopped, last: x}, nil
		}
		if nextTarget(x) == "" {
			_, more := x.NextInBody()
			switch {
			case more != nil && *more:
				return walked{end: walkCut, last: x, why: fmt.Sprintf("a page of %d items says more follow, and neither a next link nor a cursor the list takes back leads to them", n)}, nil
			case more != nil || x.Limit == 0 || n < x.Limit:
				return walked{end: walkComplete, last: x}, nil
			}
			return walked{end: walkCut, last: x, full: true, why: fmt.Sprintf("a page of %d items, as many as its limit, carries no rel=\"next\" link, and the interface does not show how else to request the next page", n)}, nil
		}
		if pages == maxWalk {
			return walked{end: walkCut, last: x, why: fmt.Sprintf("the walk stops after %d pages", maxWalk)}, nil
		}
		next, why, err := h.nextPage(ctx, x)
		switch {
		case err != nil:
			return walked{}, err
		case next == nil:
			return walked{end: walkCut, last: x, why: why}, nil
		case visited[next.URL]:
			return walked{}, x.Breaks(judge.RulePagesLoop, fmt.Sprintf("the next link of page %d leads back to %s, a page this walk has visited: the walk would never end", pages, next.URL))
		}
		visited[next.URL] = true
		before, beforeN, x = x, n, next
	}
}

// nextTarget returns where the page x says its next page is: its Link
// header's rel="next", else, for a list whose answer is an envelope, the
// next link or the cursor the body holds (see judge.Exchange.NextInBody);
// "" where it says there is none, or nothing.
func nextTarget(x *judge.Exchange) string {
	if target := linkTarget(x.Header, "next"); target != "" {
		return target
	}
	target, _ := x.NextInBody()
	return target
}

// lateEnd is the verdict on a walk that met a page shorter than its limit
// that links to a next page holding nothing: the link is on the last page,
// or the deployment counted writes it does not list yet, as an eventually
// consistent one may. A check walks again within the settle window
// (settleWalks), and the verdict stands only if the last walk meets it too.
type lateEnd struct{ verdict error }

func (e *lateEnd) Error() string { return e.verdict.Error() }
func (e *lateEnd) Unwrap() error { return e.verdict }

// settleWalks is settle for a probe that walks a list's pages: a walk that
// ends as lateEnd says is walked again, within the window, as a write
// shown late may explain it, and its verdict is returned only if the last
// walk ends so too.
func (h *Harness) settleWalks(ctx context.Context, probe func() (bool, error)) (bool, error) {
	var late error
	done, err := h.settle(ctx, func() (bool, error) {
		done, err := probe()
		if le := (*lateEnd)(nil); errors.As(err, &le) {
			late = err
			return false, nil
		}
		late = nil
		return done, err
	})
	if err == nil && !done && late != nil {
		return false, late
	}
	return done, err
}

// nextPage follows the rel="next" link of x, a page of listPets, and
// returns the page it leads to. It returns nil and why not if there is no
// such link or the suite does not follow it; the reason has the key
// redacted. The error is the verdict on the page, or on the link.
//
// The API key goes to the base URL's origin only, so a link to another
// origin is never followed. A link to listPets itself, {base}/pets, is
// followed and its answer judged as listPets'. A link to another path under
// the base URL is followed too, with the key, since that origin has it
// already; but the interface does not show that path, so an answer that is
// not one of listPets skips the check instead of failing it. Anything else
// is not followed. In a strict run every link must lead to listPets on
// the base URL's origin, as petmock's do, and any other breaks
// strict.pagination.
func (h *Harness) nextPage(ctx context.Context, x *judge.Exchange) (*judge.Exchange, string, error) {
	target := nextTarget(x)
	if target == "" {
		return nil, "no rel=\"next\" link", nil
	}
	from, _ := url.Parse(x.URL)
	u, err := from.Parse(target)
	var why string
	lenient := false
	switch {
	case err != nil:
		why = fmt.Sprintf("the next link %q is not a URL", target)
	case judge.Origin(u) != judge.Origin(h.Base()):
		why = fmt.Sprintf("the next link leads to another origin, %s; the API key is sent to %s only", u.Redacted(), judge.Origin(h.Base()))
	case u.EscapedPath() == h.OperationBase(x.Op)+x.Path:
	case h.cfg.Strict:
		why = fmt.Sprintf("the next link leads to %s, not to %s at %s%s", u.Redacted(), x.Op, h.Base(), x.Path)
	case strings.HasPrefix(u.Path, h.Base().Path+"/"):
		lenient = true
	default:
		why = fmt.Sprintf("the next link leads to %s, outside the base URL %s", u.Redacted(), h.Base())
	}
	if why != "" {
		if h.cfg.Strict {
			return nil, "", x.Breaks(judge.RuleStrictPagination, why)
		}
		return nil, judge.RedactKey(why, h.cfg.APIKey), nil
	}
	u.User, u.Fragment = nil, ""
	r := judge.NewRequest(x.Op, http.MethodGet, x.Path, u.RawQuery, nil)
	if op := h.contract.Operation(x.Op); op != nil {
		h.Credentials(op, judge.KeyVar)(r)
		// The page before's header parameters go with the link, as
		// Apideck's x-apideck-app-id, which each of its pages requires.
		for _, p := range op.Parameters {
			if p.In == openapi3.ParameterInHeader && http.CanonicalHeaderKey(p.Name) != "Authorization" && r.Header.Get(p.Name) == "" {
				for _, v := range x.RequestHeader.Values(p.Name) {
					r.Header.Add(p.Name, v)
				}
			}
		}
	}
	if r.Query != u.RawQuery {
		// The key goes in the query, as HubSpot's hapikey, which a next
		// link need not carry: it is added to the link's.
		u.RawQuery = r.Query
	}
	r.Target, r.PageLimit, r.Lenient = u, x.Limit, lenient
	next, err := h.Send(ctx, r)
	return next, "", err
}
