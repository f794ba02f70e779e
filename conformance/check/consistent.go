package check

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strconv"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// The checks of consistency across views: an item listed, filtered or
// not, reads the same through its resource's read.

// CheckListedReadsSame takes an item from the list of res, filtered by
// filter where it is not nil, and reads it: every property the list shows
// must read the same. Another client may change or remove the item
// between the two: where they disagree, the list is read afresh, and only
// a read that disagrees with it too fails; an item gone from it is left
// for another. An item the read does not find yet gets the settle
// window to show.
func (h *Harness) CheckListedReadsSame(ctx context.Context, res *spec.Resource, filter *spec.Filter) error {
	if err := h.Served(res.Read); err != nil {
		return err
	}
	if !readsItem(res) {
		return judge.Skipf("%s documents no body of the item it reads, to compare with the list", res.Read.ID)
	}
	params, err := h.CollectionParams(ctx, res)
	if err != nil {
		return err
	}
	query := url.Values{}
	if p := res.Paging; p.Limit != "" {
		query.Set(p.Limit, strconv.Itoa(censusLimit(p)))
	}
	for range maxListedTries {
		_, listed, err := h.listPageOf(ctx, res, params, query, judge.RuleItemSame)
		if err != nil {
			return err
		}
		if filter != nil && !query.Has(filter.Name()) {
			for _, it := range listed {
				if v, ok := it[filter.Name()]; ok && v != nil && filter.Takes(v) {
					query.Set(filter.Name(), spec.ValueText(v))
					break
				}
			}
			if !query.Has(filter.Name()) {
				return judge.Skipf("no %s listed has a %s its filter takes, to list by", spec.Singular(res.Name), filter.Name())
			}
			if _, listed, err = h.listPageOf(ctx, res, params, query, judge.RuleItemSame); err != nil {
				return err
			}
		}
		if len(listed) == 0 {
			return judge.Skipf("%s %s lists no %s to read", res.List.ID, query.Encode(), spec.Singular(res.Name))
		}
		it := listed[h.rnd.IntN(len(listed))]
		id := it.ID(res.IDProperty)
		read := maps.Clone(params)
		read[res.IDParam] = id
		x, err := h.Send(ctx, h.OpRequest(res.Read, read, nil, nil))
		if err != nil {
			return err
		}
		var got judge.Item
		if x.Status == x.Success() {
			if got, err = x.Item(); err != nil {
				return err
			}
			if judge.Differences(got, h.readable(res, it)) == "" {
				return nil
			}
		}
		fresh, err := h.listedAgain(ctx, res, params, query, id)
		switch {
		case err != nil:
			return err
		case fresh == nil:
			continue // removed, or changed out of the filter, meanwhile
		}
		// An item listed still, but not found, may be one just created
		// that the read shows within the settle window.
		if x.Status == http.StatusNotFound {
			if _, err := h.settle(ctx, func() (bool, error) {
				var err error
				x, err = h.Send(ctx, h.OpRequest(res.Read, read, nil, nil))
				return x.Status != http.StatusNotFound, err
			}); err != nil {
				return err
			}
			if x.Status == x.Success() {
				if got, err = x.Item(); err != nil {
					return err
				}
			}
		}
		if err := x.Require(x.Status == x.Success(), judge.RuleItemSame, fmt.Sprintf("%s of the %s %s lists (%s %s): status %d, want %d; it is listed still", res.Read.ID, spec.Singular(res.Name), res.List.ID, res.IDProperty, id, x.Status, x.Success())); err != nil {
			return err
		}
		// What a list shows that the read's schema does not declare, as
		// VTEX's credit accounts listed with a document their read does
		// not hold, is not asked of the read.
		diff := judge.Differences(got, h.readable(res, fresh))
		return x.Require(diff == "", judge.RuleItemSame, fmt.Sprintf("the %s %s %s lists reads otherwise through %s, again when listed afresh: %s", spec.Singular(res.Name), id, res.List.ID, res.Read.ID, diff))
	}
	return judge.Skipf("the last %d %s listed were gone before %s could read them: other clients are changing them, so %s could not be judged", maxListedTries, res.Name, res.Read.ID, res.Read.ID)
}

// listedAgain lists res afresh with query and returns the item of id as
// listed, or nil if it is not on the first page.
func (h *Harness) listedAgain(ctx context.Context, res *spec.Resource, params map[string]string, query url.Values, id string) (judge.Item, error) {
	_, listed, err := h.listPageOf(ctx, res, params, query, judge.RuleItemSame)
	if err != nil {
		return nil, err
	}
	for _, it := range listed {
		if it.ID(res.IDProperty) == id {
			return it, nil
		}
	}
	return nil, nil
}
