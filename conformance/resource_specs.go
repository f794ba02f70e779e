package conformance

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"

	. "github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/spec"
)

// describeResources declares the checks of every resource the document
// describes: what is created reads back with every property sent and is
// listed, and, where the document has the operations, is replaced,
// updated and deleted. All create items, so all are labelled mutating.
func (s *suite) describeResources() {
	if !s.runs(LabelMutating) {
		return
	}
	for _, res := range s.contract.Resources {
		labels := Label(LabelGeneric, LabelMutating, "resource", "res:"+res.Name)
		Describe("resource "+res.Name, labels, func() {
			It("creates an item that reads back with every property sent, and lists it", func(ctx SpecContext) {
				h := s.h
				created, params := h.createItem(ctx, res)
				h.readItemBack(ctx, res, params, created, map[string]any(created), ruleItemRead)
				h.checkItemListed(ctx, res, params, created)
			})
			if res.Replace != nil {
				It("replaces an item, which then reads back as sent", func(ctx SpecContext) {
					h := s.h
					h.skipRemoved(res.Replace)
					created, params := h.createItem(ctx, res)
					id := created.id(res.IDProperty)
					body := h.body(ctx, res.Replace)
					params[res.IDParam] = id
					x := h.send(ctx, h.opRequest(res.Replace, params, nil, body))
					x.require(x.status >= 200 && x.status < 300, ruleItemReplace, fmt.Sprintf("%s of a created item: status %d, want a documented 2xx", res.Replace.ID, x.status))
					if res.Replace.JSONSchema(x.status) != nil {
						if diff := differences(x.item(), body); diff != "" {
							x.require(false, ruleItemReplace, "the item replaced differs from what was sent: "+diff)
						}
					}
					h.readItemBack(ctx, res, params, created, body, ruleItemReplace)
				})
			}
			if res.Update != nil {
				It("updates an item, which then reads back changed as asked and unchanged elsewhere", func(ctx SpecContext) {
					h := s.h
					h.skipRemoved(res.Update)
					created, params := h.createItem(ctx, res)
					change := h.change(ctx, res, created)
					if len(change) == 0 {
						Skip(fmt.Sprintf("%s: the suite found no property it can change", res.Update.ID))
					}
					params[res.IDParam] = created.id(res.IDProperty)
					x := h.send(ctx, h.opRequest(res.Update, params, nil, change))
					x.require(x.status >= 200 && x.status < 300, ruleItemUpdate, fmt.Sprintf("%s of a created item: status %d, want a documented 2xx", res.Update.ID, x.status))
					want := maps.Clone(map[string]any(created))
					maps.Copy(want, change)
					h.readItemBack(ctx, res, params, created, want, ruleItemUpdate)
				})
			}
			if res.Delete != nil {
				It("deletes an item, which then reads 404", func(ctx SpecContext) {
					h := s.h
					h.skipRemoved(res.Delete)
					created, params := h.createItem(ctx, res)
					params[res.IDParam] = created.id(res.IDProperty)
					x := h.send(ctx, h.opRequest(res.Delete, params, nil, nil))
					x.require(x.status >= 200 && x.status < 300, ruleItemDelete, fmt.Sprintf("%s of a created item: status %d, want a documented 2xx", res.Delete.ID, x.status))
					if res.Read == nil {
						return
					}
					h.skipRemoved(res.Read)
					var read *exchange
					h.settle(ctx, func() bool {
						read = h.send(ctx, h.opRequest(res.Read, params, nil, nil))
						return read.status == http.StatusNotFound || read.status == http.StatusGone
					})
					read.require(read.status == http.StatusNotFound || read.status == http.StatusGone, ruleItemDelete,
						fmt.Sprintf("%s of the item deleted: status %d, want 404 (read again for %v)", res.Read.ID, read.status, h.cfg.settle()))
				})
			}
		})
	}
}

// readItemBack reads the item created through the resource's read
// operation, within the settle window: it must come back with every
// property of want, equal. Without a read operation there is nothing to
// read it with.
func (h *harness) readItemBack(ctx context.Context, res *spec.Resource, params map[string]string, created item, want map[string]any, r rule) {
	GinkgoHelper()
	if res.Read == nil {
		return
	}
	h.skipRemoved(res.Read)
	params = maps.Clone(params)
	params[res.IDParam] = created.id(res.IDProperty)
	var x *exchange
	var diff string
	h.settle(ctx, func() bool {
		x = h.send(ctx, h.opRequest(res.Read, params, nil, nil))
		if x.status != http.StatusOK {
			return false
		}
		diff = differences(x.item(), want)
		return diff == ""
	})
	x.require(x.status == http.StatusOK, r, fmt.Sprintf("%s of the %s just written (%s %s): status %d, want 200 (read again for %v)", res.Read.ID, singularOf(res), res.IDProperty, created.id(res.IDProperty), x.status, h.cfg.settle()))
	x.require(diff == "", r, fmt.Sprintf("the %s read back differs from what was written: %s", singularOf(res), diff))
}

// checkItemListed walks the resource's list, filtered by the item's own
// values where the list has filters, until it finds the item created: it
// must be there, unchanged. A walk cut short, with pages the suite cannot
// reach, skips the check.
func (h *harness) checkItemListed(ctx context.Context, res *spec.Resource, params map[string]string, created item) {
	GinkgoHelper()
	h.skipRemoved(res.List)
	query := url.Values{}
	if p := res.Paging; p.Limit != "" && p.Max > 0 {
		query.Set(p.Limit, fmt.Sprint(p.Max))
	}
	for _, f := range res.Filters {
		if v, ok := created[f.Name()]; ok && v != nil {
			query.Set(f.Name(), valueText(v))
		}
	}
	id := created.id(res.IDProperty)
	var (
		found *item
		end   walkEnd
		last  *exchange
		why   string
	)
	h.settle(ctx, func() bool {
		first := h.send(ctx, h.opRequest(res.List, params, query, nil))
		end, last, why = h.walkItems(ctx, first, ruleItemListed, func(x *exchange, page []item) bool {
			for _, it := range page {
				if it.id(res.IDProperty) == id {
					found = &it
					return false
				}
			}
			return true
		})
		return found != nil || end == walkCut
	})
	switch {
	case found != nil:
		if diff := differences(*found, map[string]any(created)); diff != "" {
			last.require(false, ruleItemListed, "the listed item differs from the one created: "+diff)
		}
	case end == walkComplete:
		last.require(false, ruleItemListed, fmt.Sprintf("the %s just created (%s %s) is not listed by %s %s (listed again for %v)", singularOf(res), res.IDProperty, id, res.List.ID, query.Encode(), h.cfg.settle()))
	default:
		Skip(fmt.Sprintf("cannot tell whether the %s created is listed: it is not on the pages seen, and %s", singularOf(res), why))
	}
}

// change returns a change to the created item that the update operation
// takes: a new value of its first enumeration, or else of its first other
// property, as the update's schema allows.
func (h *harness) change(ctx context.Context, res *spec.Resource, created item) map[string]any {
	GinkgoHelper()
	s := res.Update.RequestSchema()
	if s == nil {
		return nil
	}
	props := h.contract.Properties(s)
	for _, p := range props {
		if p.Schema.ReadOnly || len(p.Schema.Enum) < 2 {
			continue
		}
		for _, v := range p.Schema.Enum {
			if cur, ok := created[p.Name]; !ok || valueText(cur) != valueText(v) {
				if sv, isString := v.(string); isString {
					return map[string]any{p.Name: sv}
				}
			}
		}
	}
	body := h.body(ctx, res.Update)
	for _, p := range props {
		if v, ok := body[p.Name]; ok && !p.Schema.ReadOnly && !slices.Contains([]string{res.IDProperty}, p.Name) {
			return map[string]any{p.Name: v}
		}
	}
	return nil
}
