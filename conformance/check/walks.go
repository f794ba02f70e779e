package check

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// The checks of a list's pages, wherever the deployment links one page to
// the next: a walk through them to the end, filtered or not, shows each
// item once, the items listed before and after it and those the run
// created among them, never an item the filter leaves out, and never more
// items on a page than the first could hold. Every walk holds the links
// themselves to what walkPages does: no loop, no link on the last page.

// walkProbe is how many items a walk that may create looks for.
const walkProbe = 3

// walkSize returns the limit of the pages of a walk of a list that counts
// listed items: about four pages of them, the last one short where it can
// be, so that a link on it shows; or the largest pages, where they fill
// one. Zero asks for no limit, for a list that has none.
func walkSize(listed int, p spec.Paging) int {
	switch {
	case p.Limit == "":
		return 0
	case listed >= censusLimit(p):
		return censusLimit(p)
	}
	size := max(p.Min, (listed+3)/4, 1)
	for s := size; s > max(p.Min, 1); s-- {
		if listed%s != 0 {
			return s
		}
	}
	return size
}

// WalkFilters returns the filters of res whose walks are judged: those
// whose values are matched, not searched for (see filterValues).
func WalkFilters(res *spec.Resource) []spec.Filter {
	var out []spec.Filter
	for _, f := range res.Filters {
		if t := spec.TypeOf(f.Schema); len(f.Enum()) > 0 || t == "boolean" || t == "integer" || t == "number" {
			out = append(out, f)
		}
	}
	return out
}

// walkView is what a walk through the pages of a list asks for.
type walkView struct {
	filter       *spec.Filter // nil for every item
	value        string       // the filter's value
	created      []string     // ids of items the run created, which the walk must see
	params       map[string]string
	query, count url.Values // of the walk's pages, and of a count of the items listed
}

// CheckPages walks the pages of the list of res, filtered by filter where
// it is not nil, to the end, and judges what it sees. With create it
// first creates items for the walk to find, with the same value of the
// filter, so that the walk spans pages; a read-only run walks what is
// listed.
//
// Other clients may write to the list meanwhile, and with pages by offset
// a write shifts the pages after it: an item then shows twice, or not at
// all, through no fault of the deployment. So what a walk saw is judged
// only when a count of the list's first items is the same before it and
// after; the walk is walked again, within the settle window, until one
// is, and a list that changes during every walk is not judged.
func (h *Harness) CheckPages(ctx context.Context, res *spec.Resource, filter *spec.Filter, create bool) error {
	v, err := h.walkView(ctx, res, filter, create)
	if err != nil {
		return err
	}
	var a walkAttempt
	if _, err := h.settleWalks(ctx, func() (bool, error) {
		var err error
		if a, err = h.walkOnce(ctx, res, v); err != nil {
			return false, err
		}
		// Items the run created may take the settle window to show.
		return a.stable && (a.repeated != "" || a.w.end != walkComplete || len(a.missingCreated) == 0 && a.missingOther == ""), nil
	}); err != nil {
		return err
	}
	switch {
	case !a.stable:
		return judge.Skipf("the list %s %s changed during every walk of its pages, as another client writes to it: what a walk misses or shows twice cannot be told from the shift of its pages", res.List.ID, v.count.Encode())
	case a.repeated != "":
		return a.at.Breaks(judge.RulePagesRepeat, fmt.Sprintf("%s %s shows on two pages of the walk of %s %s", res.IDProperty, a.repeated, res.List.ID, v.query.Encode()))
	case a.w.end != walkComplete:
		return judge.Skipf("cannot tell whether the walk of %s %s sees every item: %s", res.List.ID, v.query.Encode(), a.w.why)
	case len(a.missingCreated) > 0:
		return a.w.last.Breaks(judge.RulePagesComplete, fmt.Sprintf("the walk of %s %s to its last page shows no %s %s, which the run created (walked again for %v)", res.List.ID, v.query.Encode(), res.IDProperty, strings.Join(a.missingCreated, ", "), h.cfg.Settle))
	case a.missingOther != "":
		return a.w.last.Breaks(judge.RulePagesComplete, fmt.Sprintf("walking %s %s to its last page twice, in pages of two sizes: %s (walked again for %v)", res.List.ID, v.query.Encode(), a.missingOther, h.cfg.Settle))
	case a.missingListed != "":
		return a.w.last.Breaks(judge.RulePagesComplete, fmt.Sprintf("the walk of %s %s to its last page shows no %s %s, which %s %s listed before the walk and after it", res.List.ID, v.query.Encode(), res.IDProperty, a.missingListed, res.List.ID, v.count.Encode()))
	}
	return nil
}

// walkAttempt is what one walk through a list's pages saw.
type walkAttempt struct {
	w walked
	// stable says that a count of the list's first items was the same
	// before the walk and after.
	stable bool
	// repeated is an id the walk saw twice, the second time on page at.
	repeated string
	at       *judge.Exchange
	// missingCreated are ids the run created that the walk did not see;
	// missingListed one the counts before and after saw and it did not;
	// missingOther says which item one of two walks in pages of other
	// sizes saw and the other did not.
	missingCreated []string
	missingListed  string
	missingOther   string
}

// walkOnce counts the first items of the list of res, walks its pages as
// v asks, and counts again; where the walk went over more than one page,
// it walks them again in pages of another size in between, whose next
// links end each page elsewhere, so that a cursor that skips an item at
// one page's end, deep in a long list, shows. Its error is the verdict on
// a page that breaks what holds whatever the list's changes: a filter left
// out, a page over its limit, a loop, a link on the last page.
func (h *Harness) walkOnce(ctx context.Context, res *spec.Resource, v walkView) (walkAttempt, error) {
	var a walkAttempt
	_, before, err := h.listPageOf(ctx, res, v.params, v.count, judge.RulePagesComplete)
	if err != nil {
		return a, err
	}
	size := walkSize(len(before), res.Paging)
	one, err := h.walkSeen(ctx, res, v, size)
	if err != nil {
		return a, err
	}
	a.w, a.repeated, a.at = one.w, one.repeated, one.at
	seen := one.seen
	var other walkSeen
	if size2, ok := otherSize(size, res.Paging); ok && one.pages > 1 && one.w.end == walkComplete && one.repeated == "" {
		if other, err = h.walkSeen(ctx, res, v, size2); err != nil {
			return a, err
		}
		if other.repeated != "" {
			a.repeated, a.at = other.repeated, other.at
		}
	}
	_, after, err := h.listPageOf(ctx, res, v.params, v.count, judge.RulePagesComplete)
	if err != nil {
		return a, err
	}
	a.stable = sameIDs(before, after, res.IDProperty)
	// A list that ends with a full page needs no next link: the walk is
	// complete when it saw all the count saw, and the count saw the whole
	// list.
	if a.w.full && len(before) < censusLimit(res.Paging) && !slices.ContainsFunc(before, func(it judge.Item) bool { return !seen[it.ID(res.IDProperty)] }) {
		a.w.end = walkComplete
	}
	for _, id := range v.created {
		if !seen[id] {
			a.missingCreated = append(a.missingCreated, id)
		}
	}
	for _, it := range before {
		if id := it.ID(res.IDProperty); !seen[id] {
			a.missingListed = id
			break
		}
	}
	if other.seen != nil && other.w.end == walkComplete {
		for _, w := range [][2]walkSeen{{one, other}, {other, one}} {
			if id := firstMissing(w[0], w[1]); id != "" {
				a.missingOther = fmt.Sprintf("the walk in pages of %d shows no %s %s, which the walk in pages of %d showed", w[1].size, res.IDProperty, id, w[0].size)
				break
			}
		}
	}
	return a, nil
}

// walkSeen is what one walk through a list's pages of one size saw.
type walkSeen struct {
	w     walked
	size  int
	pages int
	seen  map[string]bool
	order []string // ids as seen, first time each
	// repeated is an id the walk saw twice, the second time on page at.
	repeated string
	at       *judge.Exchange
}

// walkSeen walks the pages of the list of res as v asks, in pages of
// size, or of the list's own size for 0, and returns what it saw. Its
// error is the verdict on a page that breaks what holds whatever the
// list's changes.
func (h *Harness) walkSeen(ctx context.Context, res *spec.Resource, v walkView, size int) (walkSeen, error) {
	out := walkSeen{size: size, seen: map[string]bool{}}
	query := maps.Clone(v.query)
	if p := res.Paging; p.Limit != "" {
		query.Set(p.Limit, strconv.Itoa(size))
	}
	first, err := h.Send(ctx, h.OpRequest(res.List, v.params, query, nil))
	if err != nil {
		return out, err
	}
	out.w, err = h.walkItems(ctx, first, judge.RulePagesComplete, func(x *judge.Exchange, page []judge.Item) (bool, error) {
		out.pages++
		for _, it := range page {
			if v.filter != nil && h.showsFilter(res, it, v.filter.Name()) {
				if err := x.Require(spec.ValueText(it[v.filter.Name()]) == v.value, judge.RuleListFilter, fmt.Sprintf("a page of the walk of %s %s holds %s", res.List.ID, query.Encode(), it)); err != nil {
					return false, err
				}
			}
			id := it.ID(res.IDProperty)
			if out.seen[id] && out.repeated == "" {
				out.repeated, out.at = id, x
			}
			if !out.seen[id] {
				out.order = append(out.order, id)
			}
			out.seen[id] = true
		}
		return true, nil
	})
	return out, err
}

// otherSize returns a size of pages other than size that the list's
// limit takes, one less where it can be, so that the pages of the two
// walks end at other items; false where there is none, or no limit.
func otherSize(size int, p spec.Paging) (int, bool) {
	switch {
	case p.Limit == "" || size == 0:
		return 0, false
	case size-1 >= max(p.Min, 1):
		return size - 1, true
	case size+1 <= censusLimit(p):
		return size + 1, true
	}
	return 0, false
}

// firstMissing returns the first id a saw that b did not, or "".
func firstMissing(a, b walkSeen) string {
	for _, id := range a.order {
		if !b.seen[id] {
			return id
		}
	}
	return ""
}

// sameIDs reports whether two lists hold the items of the same ids, in
// the same order.
func sameIDs(a, b []judge.Item, prop string) bool {
	return slices.EqualFunc(a, b, func(x, y judge.Item) bool { return x.ID(prop) == y.ID(prop) })
}

// walkView returns what a walk of the list of res asks for: with create,
// items the run creates for it, all with the filter's value of the first,
// and otherwise a value of the filter a listed item has.
func (h *Harness) walkView(ctx context.Context, res *spec.Resource, filter *spec.Filter, create bool) (walkView, error) {
	v := walkView{filter: filter, query: url.Values{}, count: url.Values{}}
	var err error
	if v.params, err = h.CollectionParams(ctx, res); err != nil {
		return v, err
	}
	if p := res.Paging; p.Limit != "" {
		v.count.Set(p.Limit, strconv.Itoa(censusLimit(p)))
	}
	switch {
	case create:
		var value any
		for range walkProbe {
			created, _, err := h.createItemWith(ctx, res, func(body map[string]any) {
				if filter != nil && value != nil {
					if _, ok := body[filter.Name()]; ok {
						body[filter.Name()] = h.sentAs(res, filter.Name(), value)
					}
				}
			})
			if err != nil {
				return v, err
			}
			h.keep(res, v.params, created)
			if filter == nil {
				v.created = append(v.created, created.ID(res.IDProperty))
				continue
			}
			if value == nil && filter.Takes(created[filter.Name()]) {
				value = created[filter.Name()]
			}
			if value != nil && spec.ValueText(created[filter.Name()]) == spec.ValueText(value) {
				v.created = append(v.created, created.ID(res.IDProperty))
			}
		}
		if filter != nil {
			if value == nil {
				return v, judge.Skipf("the %s created has no %s its filter takes, to walk the list filtered by", spec.Singular(res.Name), filter.Name())
			}
			v.value = spec.ValueText(value)
		}
	case filter != nil:
		_, listed, err := h.listPageOf(ctx, res, v.params, v.count, judge.RulePagesComplete)
		if err != nil {
			return v, err
		}
		for _, it := range listed {
			if value, ok := it[filter.Name()]; ok && value != nil && filter.Takes(value) {
				v.value = spec.ValueText(value)
				break
			}
		}
		if v.value == "" {
			return v, judge.Skipf("no %s listed has a %s its filter takes, to walk the list filtered by", spec.Singular(res.Name), filter.Name())
		}
	}
	if filter != nil {
		v.query.Set(filter.Name(), v.value)
		v.count.Set(filter.Name(), v.value)
	}
	return v, nil
}
