package check

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// The checks of every list of the document: a page holds as many items
// as its limit asks, when that many exist, and a filter returns only the
// items of the value asked for. The client holds each page to at most its
// limit, whatever check asked for it.

// censusLimit is the limit the suite counts the items of a list with: the
// largest the document allows, or 100 where it sets none.
func censusLimit(p spec.Paging) int {
	if p.Max > 0 {
		return p.Max
	}
	return 100
}

// GenericList reports whether the generic checks of lists judge the list
// of res: all lists but the Petstore's listPets, which its own checks
// judge where the document has the Petstore's operations.
func (c Contract) GenericList(res *spec.Resource) bool {
	return res.List != nil && !(c.IsPetstore && res.List.ID == spec.ListPets)
}

// listPage sends a list of res with query, with the path parameters of
// its collection, and returns the answer and its items; an answer that is
// not a 200 breaks rule r.
func (h *Harness) listPage(ctx context.Context, res *spec.Resource, query url.Values, r judge.Rule) (*judge.Exchange, []judge.Item, error) {
	params, err := h.CollectionParams(ctx, res)
	if err != nil {
		return nil, nil, err
	}
	return h.listPageOf(ctx, res, params, query, r)
}

// listPageOf is listPage with the path parameters params.
func (h *Harness) listPageOf(ctx context.Context, res *spec.Resource, params map[string]string, query url.Values, r judge.Rule) (*judge.Exchange, []judge.Item, error) {
	x, err := h.Send(ctx, h.OpRequest(res.List, params, query, nil))
	if err != nil {
		return x, nil, err
	}
	if err := x.Require(x.Status == x.Success(), r, fmt.Sprintf("%s %s: status %d, want %d", res.List.ID, query.Encode(), x.Status, x.Success())); err != nil {
		return x, nil, err
	}
	items, err := x.Items()
	return x, items, err
}

// fillPage returns x and page, a page of res's list asked with query,
// or, where it holds fewer than want items, the page asked again within
// the settle time until it holds them: a page short of its limit may
// hold the place of an item created a moment before, which an eventually
// consistent server does not show yet.
func (h *Harness) fillPage(ctx context.Context, res *spec.Resource, query url.Values, x *judge.Exchange, page []judge.Item, want int) (*judge.Exchange, []judge.Item, error) {
	if len(page) >= want {
		return x, page, nil
	}
	_, err := h.settle(ctx, func() (bool, error) {
		var err error
		x, page, err = h.listPage(ctx, res, query, judge.RuleListLimit)
		return len(page) >= want, err
	})
	return x, page, err
}

// CheckListLimit lists the items of res with a limit below the number
// listed, and without one where the document gives a default: each page
// must hold as many items as asked for, or all of them when fewer exist.
func (h *Harness) CheckListLimit(ctx context.Context, res *spec.Resource) error {
	p := res.Paging
	count := url.Values{p.Limit: {strconv.Itoa(censusLimit(p))}}
	_, before, err := h.listPage(ctx, res, count, judge.RuleListLimit)
	if err != nil {
		return err
	}
	hi := min(len(before)-1, censusLimit(p)-1)
	if hi < p.Min {
		return judge.Skipf("the list of %s shows %d items: too few to tell whether %s is honoured", res.Name, len(before), p.Limit)
	}
	limit := p.Min + h.rnd.IntN(hi-p.Min+1)
	limited := url.Values{p.Limit: {strconv.Itoa(limit)}}
	x, page, err := h.listPage(ctx, res, limited, judge.RuleListLimit)
	if err != nil {
		return err
	}
	var plain *judge.Exchange
	var plainPage []judge.Item
	if p.LimitSchema.Default != nil {
		if plain, plainPage, err = h.listPage(ctx, res, url.Values{}, judge.RuleListLimit); err != nil {
			return err
		}
	}
	_, after, err := h.listPage(ctx, res, count, judge.RuleListLimit)
	if err != nil {
		return err
	}
	// Others may remove items meanwhile: judge by the fewer.
	available := min(len(before), len(after))
	if x, page, err = h.fillPage(ctx, res, limited, x, page, min(limit, available)); err != nil {
		return err
	}
	if plain != nil {
		if plain, plainPage, err = h.fillPage(ctx, res, url.Values{}, plain, plainPage, min(p.Default, available)); err != nil {
			return err
		}
	}
	if err := x.Require(len(page) >= min(limit, available), judge.RuleListLimit, fmt.Sprintf("%s=%d gave %d items, but %d exist (seen with %s=%d; asked again for %v)", p.Limit, limit, len(page), available, p.Limit, censusLimit(p), h.cfg.Settle)); err != nil {
		return err
	}
	if plain == nil {
		return nil
	}
	return plain.Require(len(plainPage) >= min(p.Default, available), judge.RuleListLimit, fmt.Sprintf("without %s, whose default is %d, the list gave %d items, but %d exist (seen with %s=%d; asked again for %v)", p.Limit, p.Default, len(plainPage), available, p.Limit, censusLimit(p), h.cfg.Settle))
}

// FilterValue is a value a check of a filter asks for: one of its
// enumeration, or, where value is "", one a listed item has.
type FilterValue struct {
	filter spec.Filter
	value  string
}

// FilterValues returns the values the checks of the filters of res ask
// for: each value of an enumeration, or a sample of a long one; true and
// false; and for a number, one a listed item has. A string filter without
// an enumeration may search rather than match, so it is not judged; nor
// is a value of an enumeration that spells the property's values another
// way, as "1" of a boolean.
func FilterValues(res *spec.Resource) []FilterValue {
	var out []FilterValue
	for _, f := range res.Filters {
		switch t := spec.TypeOf(f.Schema); {
		case len(f.Enum()) > 0:
			for _, v := range sampleOf(slices.DeleteFunc(f.Enum(), func(v string) bool { return !f.Spells(v) })) {
				out = append(out, FilterValue{f, v})
			}
		case t == "boolean" && f.Takes(true):
			out = append(out, FilterValue{f, "true"}, FilterValue{f, "false"})
		case t == "integer" || t == "number":
			out = append(out, FilterValue{f, ""})
		}
	}
	return out
}

// Name names a filterValue in a check's name.
func (fv FilterValue) Name() string {
	if fv.value == "" {
		return fv.filter.Name() + "= a value a listed item has"
	}
	return fv.filter.Name() + "=" + fv.value
}

// CheckListFilter lists the items of res filtered by fv: each must have
// the value asked for, and some must come back when the unfiltered list
// shows one that has it. Another client may change that one meanwhile: a
// fresh listing judges again.
func (h *Harness) CheckListFilter(ctx context.Context, res *spec.Resource, fv FilterValue) error {
	name := fv.filter.Name()
	count := url.Values{}
	if p := res.Paging; p.Limit != "" {
		count.Set(p.Limit, strconv.Itoa(censusLimit(p)))
	}
	for attempt := 1; ; attempt++ {
		_, census, err := h.listPage(ctx, res, count, judge.RuleListFilter)
		if err != nil {
			return err
		}
		value := fv.value
		var shown *judge.Item
		for _, it := range census {
			if v, ok := it[name]; ok && v != nil && (value == "" && fv.filter.Takes(v) || spec.ValueText(v) == value) {
				shown, value = &it, spec.ValueText(v)
				break
			}
		}
		if value == "" {
			return judge.Skipf("no %s listed has %s, to filter the list by", spec.Singular(res.Name), name)
		}
		query := url.Values{name: {value}}
		for k, v := range count {
			query[k] = v
		}
		var x *judge.Exchange
		var page []judge.Item
		found, err := h.settle(ctx, func() (bool, error) {
			var err error
			if x, page, err = h.listPage(ctx, res, query, judge.RuleListFilter); err != nil {
				return false, err
			}
			for _, it := range page {
				if !h.showsFilter(res, it, name) {
					continue // judged by its read, in checkRelabelled
				}
				if err := x.Require(spec.ValueText(it[name]) == value, judge.RuleListFilter, fmt.Sprintf("asked for %s=%s, got %s", name, value, it)); err != nil {
					return false, err
				}
			}
			return shown == nil || len(page) > 0, nil
		})
		switch {
		case err != nil:
			return err
		case found:
			// Each item shows the value asked for; each must have it too.
			params, err := h.CollectionParams(ctx, res)
			if err != nil {
				return err
			}
			return h.checkRelabelled(ctx, res, params, name, value, x, page, judge.RuleListFilter)
		case attempt == 2:
			return x.Require(false, judge.RuleListFilter, fmt.Sprintf("the list shows %s, but %s=%s returns no %s, again when listed afresh", *shown, name, value, spec.Singular(res.Name)))
		}
	}
}

// showsFilter reports whether it, an item the list of res shows, can be
// held to the value of the filter name as listed: it has the property, or
// the schema of a listed item declares it. A list may show each item
// shorter than its read, without the property it is filtered by, as
// Asana's projects, filtered by archived, list gid, name and
// resource_type only: such an item is held to its read.
func (h *Harness) showsFilter(res *spec.Resource, it judge.Item, name string) bool {
	if _, ok := it[name]; ok {
		return true
	}
	s := h.listedSchema(res)
	return s == nil || slices.ContainsFunc(h.contract.Properties(s), func(p spec.Property) bool { return p.Name == name })
}
