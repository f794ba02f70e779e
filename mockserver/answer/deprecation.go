package answer

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// Deprecation holds the headers every answer of a deprecated operation
// carries, as far as the document gives their facts: Deprecation (RFC
// 9745), Sunset (RFC 8594) and a Link to the replacement (RFC 8288,
// rel="successor-version").
type Deprecation struct {
	// deprecation is "@<unix seconds>", and sunset an HTTP-date, each as
	// a header's values, shared by every answer; nil when the document
	// gives no date or no sunset.
	deprecation []string
	sunset      []string
	sunsetTime  time.Time // zero when there is no sunset
	// successor is the replacement, when the document names one, and
	// successorPath the path of its answers, such as "/v1/pets".
	successor     *spec.Operation
	successorPath string
}

// NewDeprecation reads the deprecation of op, whose successor is served
// below base.
func NewDeprecation(c *spec.Contract, op *spec.Operation, base string) *Deprecation {
	d := op.Deprecation
	dep := &Deprecation{sunsetTime: d.Sunset}
	if !d.Since.IsZero() {
		dep.deprecation = []string{"@" + strconv.FormatInt(d.Since.Unix(), 10)}
	}
	if !d.Sunset.IsZero() {
		dep.sunset = []string{d.Sunset.UTC().Format(http.TimeFormat)}
	}
	if d.ReplacedBy != "" {
		// Only a GET can be followed as a link; a replacement of another
		// method is named in the answer after the sunset, not linked.
		if next := c.Operation(d.ReplacedBy); next != nil && next.Method == http.MethodGet && len(next.Template.Params()) == 0 {
			dep.successor, dep.successorPath = next, base+next.Path
		}
	}
	return dep
}

// SetHeaders sets the deprecation headers. The Link names the replacement,
// with query when the answer is about an item that the replacement can
// select, such as status=sold for a sold pet.
func (d *Deprecation) SetHeaders(h http.Header, r *http.Request, query []string) {
	if d.deprecation != nil {
		h["Deprecation"] = d.deprecation
	}
	if d.sunset != nil {
		h["Sunset"] = d.sunset
	}
	if d.successor == nil {
		return
	}
	b := make([]byte, 0, 96+len(d.successorPath))
	b = edge.AppendOrigin(append(b, '<'), r)
	b = append(b, d.successorPath...)
	for i := 0; i+1 < len(query); i += 2 {
		sep := byte('&')
		if i == 0 {
			sep = '?'
		}
		b = append(b, sep)
		b = append(b, url.QueryEscape(query[i])...)
		b = append(b, '=')
		b = append(b, url.QueryEscape(query[i+1])...)
	}
	b = append(b, `>; rel="successor-version"`...)
	h["Link"] = []string{string(b)}
}

// SuccessorQuery returns the query, as name, value pairs, that selects an
// item of r whose filter keys are keys in the replacement: its values of
// the filters the replacement has, when the replacement is r's list.
func (d *Deprecation) SuccessorQuery(r *spec.Resource, keys []string) []string {
	if d.successor == nil || d.successor != r.List {
		return nil
	}
	var q []string
	for i, f := range r.Filters {
		if keys[i] != shape.AbsentKey {
			q = append(q, f.Name(), keys[i])
		}
	}
	return q
}

// Removed reports whether the operation is gone at now: its sunset has
// come.
func (d *Deprecation) Removed(now time.Time) bool {
	return !d.sunsetTime.IsZero() && !now.Before(d.sunsetTime)
}

// Gone is the answer to a deprecated operation after its sunset. The
// headers set before still point to the replacement.
func (d *Deprecation) Gone(operationID string) *edge.Error {
	if d.successor == nil {
		return edge.NewError(http.StatusGone, operationID, "removed on %s", d.sunsetTime.Format(time.DateOnly))
	}
	with := ""
	if r := d.successor.Resource; r != nil && r.List == d.successor && len(r.Filters) > 0 {
		var names []string
		for _, f := range r.Filters {
			names = append(names, f.Name())
		}
		with = " with the " + strings.Join(names, " and ") + " filter"
	}
	return edge.NewError(http.StatusGone, operationID, "removed on %s; use %s %s%s instead, as the Link header says",
		d.sunsetTime.Format(time.DateOnly), d.successor.Method, d.successorPath, with)
}
