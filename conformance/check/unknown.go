package check

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// The check of an id no item has: a read of it answers 404 where the
// document says so. A deployment that answers any id with an item, made
// up or another's, passes every check of the items it holds.

// maxUnknownTries bounds the ids UnknownID draws before it gives up on
// one no listed item has.
const maxUnknownTries = 10

// NotFoundDocumented says why a read of an id no item of res has cannot
// be held to 404, or returns "": the resource has no read, or its read
// documents no 404 (nor a 4XX range), so its document does not say what
// such a read gets.
func NotFoundDocumented(res *spec.Resource) string {
	switch {
	case res.Read == nil:
		return fmt.Sprintf("%s has no read of one item", res.Name)
	case res.Read.Op.Responses == nil || res.Read.Op.Responses.Status(http.StatusNotFound) == nil:
		return fmt.Sprintf("%s documents no 404, so its document does not say what a read of an id no item has gets", res.Read.ID)
	}
	return ""
}

// CheckUnknownID reads, through the read of res, an id no item of res
// has, one of the schema of its path parameter that no listed item has:
// it must answer 404 (or 410, gone), where the read documents 404.
func (h *Harness) CheckUnknownID(ctx context.Context, res *spec.Resource) error {
	if why := NotFoundDocumented(res); why != "" {
		return judge.Skipf("%s", why)
	}
	if err := h.Served(res.Read); err != nil {
		return err
	}
	params, err := h.CollectionParams(ctx, res)
	if err != nil {
		return err
	}
	listed, err := h.ListedIDsIn(ctx, res, params)
	if err != nil {
		return err
	}
	id, ok := h.unknownID(res, listedTexts(listed))
	if !ok {
		return judge.Skipf("the suite could not make an id of %s's %s that its schema takes and no listed %s has", res.Read.ID, res.IDParam, spec.Singular(res.Name))
	}
	read := maps.Clone(params)
	read[res.IDParam] = id
	x, err := h.Send(ctx, h.OpRequest(res.Read, read, nil, nil))
	if err != nil {
		return err
	}
	return x.Require(x.Status == http.StatusNotFound || x.Status == http.StatusGone, judge.RuleItemNotFound,
		fmt.Sprintf("%s of %s %s, which no %s has: status %d, want 404", res.Read.ID, res.IDParam, id, spec.Singular(res.Name), x.Status))
}

// unknownID returns an id of the schema of the read's id parameter that
// is none of listed: far above the ids a store gives for an integer, a
// random UUID for a UUID, and a value made from the schema, or a name of
// the run's, for another string.
func (h *Harness) unknownID(res *spec.Resource, listed []string) (string, bool) {
	p := res.Read.Parameter(openapi3.ParameterInPath, res.IDParam)
	var s *openapi3.Schema
	if p != nil && p.Schema != nil {
		s = p.Schema.Value
	}
	opts := spec.SchemaOptions(h.contract.Doc)
	for try := range maxUnknownTries {
		var v any
		switch t := spec.TypeOf(s); {
		case t == "integer" || t == "number":
			lo, hi := int64(900_000_000), int64(999_999_999)
			if s.Max != nil && int64(*s.Max) < hi {
				lo, hi = max(int64(*s.Max)/2, 1), int64(*s.Max)
			}
			if s.Min != nil && int64(*s.Min) > lo {
				lo = int64(*s.Min)
			}
			if hi < lo {
				return "", false
			}
			v = lo + h.rnd.Int64N(hi-lo+1)
		case s != nil && s.Format == "uuid":
			v = h.uuid()
		case try%2 == 0 || s == nil:
			v = "conformance-none-" + h.RunID() + "-" + strconv.Itoa(try)
		default:
			made, err := h.Made(s, res.IDParam)
			if err != nil {
				continue
			}
			v = made
		}
		text := spec.ValueText(v)
		if slices.Contains(listed, text) || s != nil && s.VisitJSON(jsonValue(v), opts...) != nil {
			continue
		}
		return text, true
	}
	return "", false
}

// jsonValue returns v as a decoded JSON value is, numbers as float64, for
// a schema to visit.
func jsonValue(v any) any {
	if n, ok := v.(int64); ok {
		return float64(n)
	}
	return v
}

// uuid returns a random UUID of version 4, from the run's source.
func (h *Harness) uuid() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(h.rnd.UintN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
