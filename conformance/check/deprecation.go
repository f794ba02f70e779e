package check

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// The checks of getPet's deprecation headers, on a 200 and on a 404.

// deprecationDate is an RFC 9745 Deprecation value: "@" and unix seconds.
var deprecationDate = regexp.MustCompile(`^@(-?[0-9]+)$`)

// deprecatedAnswer is an answer of getPet whose deprecation headers the
// checks judge.
type deprecatedAnswer struct {
	Name string
	Get  func(ctx context.Context, h *Harness) (*judge.Exchange, error)
}

// DeprecatedAnswers are the answers of getPet the checks judge.
var DeprecatedAnswers = []deprecatedAnswer{
	{"on a 200 for a listed pet", func(ctx context.Context, h *Harness) (*judge.Exchange, error) {
		return h.readListed(ctx)
	}},
	{"on a 404 for an id no pet has", func(ctx context.Context, h *Harness) (*judge.Exchange, error) {
		x, err := h.getPet(ctx, h.absentID())
		if err != nil {
			return x, err
		}
		return x, x.Require(x.Status == http.StatusNotFound, judge.RuleNotFound, fmt.Sprintf("status %d, want 404", x.Status))
	}},
}

// CheckSunset judges the Sunset header of an answer, where present: an
// HTTP-date on the removal day.
func (h *Harness) CheckSunset(ctx context.Context, get func(context.Context, *Harness) (*judge.Exchange, error)) error {
	x, err := get(ctx, h)
	if err != nil {
		return err
	}
	v := x.Header.Get("Sunset")
	if v == "" {
		return nil
	}
	t, parseErr := http.ParseTime(v)
	if err := x.Require(parseErr == nil, judge.RuleSunset, fmt.Sprintf("Sunset %q is not an HTTP-date", v)); err != nil {
		return err
	}
	return x.Require(t.UTC().Format(time.DateOnly) == h.contract.SunsetDay, judge.RuleSunset, fmt.Sprintf("Sunset %q is not on %s", v, h.contract.SunsetDay))
}

// CheckDeprecation judges the Deprecation header of an answer, where
// present: an RFC 9745 date no later than the Sunset.
func (h *Harness) CheckDeprecation(ctx context.Context, get func(context.Context, *Harness) (*judge.Exchange, error)) error {
	x, err := get(ctx, h)
	if err != nil {
		return err
	}
	v := x.Header.Get("Deprecation")
	if v == "" {
		return nil
	}
	m := deprecationDate.FindStringSubmatch(v)
	if err := x.Require(m != nil, judge.RuleDeprecation, fmt.Sprintf("Deprecation %q is not @<unix seconds>", v)); err != nil {
		return err
	}
	secs, parseErr := strconv.ParseInt(m[1], 10, 64)
	if err := x.Require(parseErr == nil, judge.RuleDeprecation, fmt.Sprintf("Deprecation %q is out of range", v)); err != nil {
		return err
	}
	sunset := h.contract.Deprecation.Sunset
	if t, err := http.ParseTime(x.Header.Get("Sunset")); err == nil {
		sunset = t
	}
	if err := x.Require(secs <= sunset.Unix(), judge.RuleDeprecation,
		fmt.Sprintf("Deprecation %q (%s) is after the Sunset (%s)", v, time.Unix(secs, 0).UTC().Format(time.RFC3339), sunset.UTC().Format(time.RFC3339))); err != nil {
		return err
	}
	now := h.answeredAt(x)
	return x.Require(!time.Unix(secs, 0).After(now), judge.RuleDeprecation,
		fmt.Sprintf("Deprecation %q (%s) is in the future (the answer came at %s): the interface says getPet is deprecated already", v, time.Unix(secs, 0).UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339)))
}

// clockSkew is how far the clocks of the suite and of a deployment may be
// apart without a date of the deployment's being judged in the future.
const clockSkew = time.Minute

// answeredAt returns when x was answered, as late as either clock says:
// the suite's, or the deployment's Date, so that a deployment whose clock
// is ahead is not blamed for it, with clockSkew to spare.
func (h *Harness) answeredAt(x *judge.Exchange) time.Time {
	now := h.cfg.Now()
	if date, err := http.ParseTime(x.Header.Get("Date")); err == nil && date.After(now) {
		now = date
	}
	return now.Add(clockSkew)
}

// checkDeprecatedAnswer judges the Deprecation header of x, an answer of
// op, where the document says op is deprecated and the header is there: a
// date of deprecation, RFC 9745's @<unix seconds> or an HTTP-date of its
// drafts, must not be in the future. Other values, such as the drafts'
// "true", say no date.
func (h *Harness) checkDeprecatedAnswer(op *spec.Operation, x *judge.Exchange) error {
	v := x.Header.Get("Deprecation")
	if op.Deprecation == nil || v == "" {
		return nil
	}
	var at time.Time
	if m := deprecationDate.FindStringSubmatch(v); m != nil {
		secs, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return nil
		}
		at = time.Unix(secs, 0)
	} else if t, err := http.ParseTime(v); err == nil {
		at = t
	} else {
		return nil
	}
	now := h.answeredAt(x)
	return x.Require(!at.After(now), judge.RuleOpDeprecation, fmt.Sprintf("Deprecation %q (%s) is in the future (the answer came at %s), but the document says %s is deprecated already", v, at.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339), op.ID))
}

// CheckStrictDeprecation judges the headers of an answer as petmock sends
// them: the document's Deprecation and Sunset, and a successor-version
// Link.
func (h *Harness) CheckStrictDeprecation(ctx context.Context, get func(context.Context, *Harness) (*judge.Exchange, error)) error {
	d := h.contract.Deprecation
	x, err := get(ctx, h)
	if err != nil {
		return err
	}
	sunset, deprecation := d.Sunset.UTC().Format(http.TimeFormat), "@"+strconv.FormatInt(d.Since.Unix(), 10)
	if err := x.Require(x.Header.Get("Sunset") == sunset, judge.RuleStrictDeprecation, fmt.Sprintf("Sunset %q, want %q", x.Header.Get("Sunset"), sunset)); err != nil {
		return err
	}
	if err := x.Require(x.Header.Get("Deprecation") == deprecation, judge.RuleStrictDeprecation, fmt.Sprintf("Deprecation %q, want %q", x.Header.Get("Deprecation"), deprecation)); err != nil {
		return err
	}
	return x.Require(linkTarget(x.Header, "successor-version") != "", judge.RuleStrictDeprecation, `no Link with rel="successor-version"`)
}
