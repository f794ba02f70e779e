package check

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"strconv"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// A filtered page may show only items of the value asked for and still
// lie: a deployment that fills a page of status=sold with an available pet
// relabelled sold passes every look at the filtered page alone. The item's
// other views tell: the unfiltered list, and its read.

// maxFilterReads bounds the items of a filtered page that the unfiltered
// list does not show and that are read on their own.
const maxFilterReads = 10

// checkRelabelled holds the items of page, which the list of res filtered
// by name=value returned, each with that value, to their other views: the
// unfiltered list, with the path parameters params, and the read of each
// item it does not show, up to maxFilterReads. An item another view shows
// with another value is looked at again, within the settle window, as
// another client may have changed it meanwhile, and x, the filtered page,
// breaks r only if a fresh filtered list still holds it with value while
// its other view still shows another.
func (h *Harness) checkRelabelled(ctx context.Context, res *spec.Resource, params map[string]string, name, value string, x *judge.Exchange, page []judge.Item, r judge.Rule) error {
	count := url.Values{}
	if p := res.Paging; p.Limit != "" {
		count.Set(p.Limit, strconv.Itoa(censusLimit(p)))
	}
	_, census, err := h.listPageOf(ctx, res, params, count, r)
	if err != nil {
		return err
	}
	listed := map[string]judge.Item{}
	for _, it := range census {
		listed[it.ID(res.IDProperty)] = it
	}
	reads := 0
	for _, it := range page {
		id := it.ID(res.IDProperty)
		other, where, err := h.otherView(ctx, res, params, listed, name, id, &reads)
		if err != nil || other == nil || spec.ValueText(other[name]) == value {
			if err != nil {
				return err
			}
			continue
		}
		// Another client may have changed it: a fresh look, within the
		// settle window, must still see the filter lie.
		var still bool
		if _, err := h.settle(ctx, func() (bool, error) {
			fresh, err := h.filteredHolds(ctx, res, params, name, value, id, r)
			if err != nil || !fresh {
				still = false
				return true, err
			}
			_, census, err := h.listPageOf(ctx, res, params, count, r)
			if err != nil {
				return false, err
			}
			listed = map[string]judge.Item{}
			for _, c := range census {
				listed[c.ID(res.IDProperty)] = c
			}
			n := 0
			if other, where, err = h.otherView(ctx, res, params, listed, name, id, &n); err != nil {
				return false, err
			}
			still = other != nil && spec.ValueText(other[name]) != value
			return !still, nil
		}); err != nil {
			return err
		}
		if still {
			return x.Require(false, r, fmt.Sprintf("%s lists %s %s under %s=%s, but %s shows it with %s %s, again when looked at afresh (for %v)",
				res.List.ID, res.IDProperty, id, name, value, where, name, judge.JSONText(other[name]), h.cfg.Settle))
		}
	}
	return nil
}

// otherView returns the item of id as listed, unfiltered, where that
// shows its property name, or else as its read answers it, while fewer
// than maxFilterReads were read, and names the view; nil where neither
// shows it.
func (h *Harness) otherView(ctx context.Context, res *spec.Resource, params map[string]string, listed map[string]judge.Item, name, id string, reads *int) (judge.Item, string, error) {
	if it, ok := listed[id]; ok && h.showsFilter(res, it, name) {
		return it, res.List.ID + " unfiltered", nil
	}
	if !readsItem(res) || h.Served(res.Read) != nil || *reads >= maxFilterReads {
		return nil, "", nil
	}
	*reads++
	read := map[string]string{res.IDParam: id}
	maps.Copy(read, params)
	read[res.IDParam] = id
	x, err := h.Send(ctx, h.OpRequest(res.Read, read, nil, nil))
	if err != nil || x.Status != x.Success() {
		return nil, "", err
	}
	it, err := x.Item()
	return it, res.Read.ID, err
}

// filteredHolds reports whether a fresh list of res filtered by
// name=value holds the item of id, as the value asked for where it shows
// its value.
func (h *Harness) filteredHolds(ctx context.Context, res *spec.Resource, params map[string]string, name, value, id string, r judge.Rule) (bool, error) {
	query := url.Values{name: {value}}
	if p := res.Paging; p.Limit != "" {
		query.Set(p.Limit, strconv.Itoa(censusLimit(p)))
	}
	_, page, err := h.listPageOf(ctx, res, params, query, r)
	if err != nil {
		return false, err
	}
	for _, it := range page {
		if it.ID(res.IDProperty) == id && (spec.ValueText(it[name]) == value || !h.showsFilter(res, it, name)) {
			return true, nil
		}
	}
	return false, nil
}
