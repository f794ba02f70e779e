package check

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// The checks of every resource the document describes: what is created
// reads back with every property sent and is listed, and, where the
// document has the operations, is replaced, updated and deleted.

// CheckItemCreated creates an item of res: it must read back with every
// property sent, and be listed.
func (h *Harness) CheckItemCreated(ctx context.Context, res *spec.Resource) error {
	created, params, err := h.createItem(ctx, res)
	if err != nil {
		return err
	}
	h.keep(res, params, created)
	if err := h.readItemBack(ctx, res, params, created, sameAs(h.readable(res, created)), judge.RuleItemRead); err != nil {
		return err
	}
	return h.checkItemListed(ctx, res, params, created)
}

// CheckItemReplaced replaces an item the suite created with a body that
// leaves out its optional properties: the answer and a read after must
// hold every property sent, and none of those left out as it was before,
// or the replace merged the body into the item (see leftOut).
func (h *Harness) CheckItemReplaced(ctx context.Context, res *spec.Resource) error {
	if err := h.Served(res.Replace); err != nil {
		return err
	}
	created, params, err := h.itemToChange(ctx, res, h.awayFromDefaults(res))
	if err != nil {
		return err
	}
	id := created.ID(res.IDProperty)
	body, err := h.Body(ctx, res.Replace)
	if err != nil {
		return err
	}
	h.NamesItem(res, res.Replace, body, created)
	item := request.ItemIn(res.Replace, body)
	if item == nil {
		return judge.Skipf("%s: the body made holds no %s", res.Replace.ID, spec.Singular(res.Name))
	}
	check := h.replaced(res, created, item)
	params[res.IDParam] = id
	x, err := h.Send(ctx, h.OpRequest(res.Replace, params, nil, body))
	if err != nil {
		return err
	}
	if err := x.Require(x.Status >= 200 && x.Status < 300, judge.RuleItemReplace, fmt.Sprintf("%s of a created item: status %d, want a documented 2xx", res.Replace.ID, x.Status)); err != nil {
		return err
	}
	if h.answersObject(res, res.Replace, x) {
		got, err := x.Item()
		if err != nil {
			return err
		}
		if diff := check(got); diff != "" {
			return x.Require(false, judge.RuleItemReplace, "the item replaced differs from what was sent: "+diff)
		}
	}
	return h.readItemBack(ctx, res, params, created, check, judge.RuleItemReplace)
}

// replaced returns the check of an item that body, the item a body of the
// replace holds, replaced, body left without the optional properties of the replace's schema but the id,
// which names the item: it holds every property sent, and none of those
// left out as created had it. A property
// left out may come back with its documented default, or with any value
// where the document leaves its default open (x-petmock-defaults), or
// with one the deployment filled in otherwise: only the value from before
// shows a merge.
func (h *Harness) replaced(res *spec.Resource, created judge.Item, body map[string]any) func(got judge.Item) string {
	before := map[string]any{}
	// What the item's schema requires, an item holds, replaced or not: a
	// body may leave out Twitter's list name, which every read answers,
	// and the item keep it.
	kept := spec.RequiredNames(res.Item)
	schema := h.ItemSchema(res.Replace)
	opts := append([]openapi3.SchemaValidationOption{openapi3.VisitAsRequest()}, spec.SchemaOptions(h.contract.Doc)...)
	for _, p := range h.contract.Properties(schema) {
		// The path names the item and its parent, whose values the
		// item keeps whatever the body says: Netlify's snippet keeps
		// the site_id of its path.
		if p.Required || p.Schema.ReadOnly || p.Name == res.IDProperty || hasPathParam(res.Replace, p.Name) || slices.Contains(res.ParentParams, p.Name) {
			continue
		}
		// An optional property the body needs all the same, as one of
		// the anyOf of HERE's locations, stays.
		without := maps.Clone(body)
		delete(without, p.Name)
		if schema.VisitJSON(without, opts...) != nil {
			continue
		}
		if slices.Contains(kept, p.Name) {
			delete(body, p.Name) // left out all the same, and judged as sent no more
			continue
		}
		delete(body, p.Name)
		_, open := res.Defaults[p.Name]
		if v, ok := created[p.Name]; ok && v != nil && !open && !isDefault(p.Schema, v) {
			before[p.Name] = v
		}
	}
	sent := h.echoed(res.Replace, res.Item, body)
	return func(got judge.Item) string {
		diff := judge.Differences(got, sent)
		for _, name := range slices.Sorted(maps.Keys(before)) {
			if v, ok := got[name]; ok && judge.SameValue(v, before[name]) {
				if diff != "" {
					diff += "; "
				}
				diff += fmt.Sprintf("%s is still %s, which the body left out: the replace merged the body into the item", name, judge.JSONText(v))
			}
		}
		return diff
	}
}

// isDefault reports whether v is the default the schema documents.
func isDefault(s *openapi3.Schema, v any) bool {
	return s.Default != nil && spec.ValueText(v) == spec.ValueText(s.Default)
}

// awayFromDefaults returns the edit of the item a create body of res
// holds that gives each optional property of the replace's schema with a
// documented default another value, where the schema has one: a property
// the replace leaves out, then back at its default, shows a replace, not
// a merge.
func (h *Harness) awayFromDefaults(res *spec.Resource) func(body map[string]any) {
	return func(body map[string]any) {
		for _, p := range h.contract.Properties(h.ItemSchema(res.Replace)) {
			v, sent := body[p.Name]
			if p.Required || !sent || !isDefault(p.Schema, v) {
				continue
			}
			switch {
			case spec.TypeOf(p.Schema) == "boolean":
				body[p.Name] = !(spec.ValueText(p.Schema.Default) == "true")
			case len(p.Schema.Enum) > 1:
				for _, e := range p.Schema.Enum {
					if spec.ValueText(e) != spec.ValueText(p.Schema.Default) {
						body[p.Name] = e
						break
					}
				}
			}
		}
	}
}

// CheckItemUpdated updates an item the suite created: it must read back
// changed as asked, and unchanged elsewhere.
func (h *Harness) CheckItemUpdated(ctx context.Context, res *spec.Resource) error {
	if err := h.Served(res.Update); err != nil {
		return err
	}
	created, params, err := h.itemToChange(ctx, res, nil)
	if err != nil {
		return err
	}
	change, err := h.change(ctx, res, created)
	if err != nil {
		return err
	}
	if len(change) == 0 {
		return judge.Skipf("%s: the suite found no property it can change", res.Update.ID)
	}
	if res.ByBody(res.Update) {
		change[res.IDProperty] = created[res.IDProperty]
	}
	params[res.IDParam] = created.ID(res.IDProperty)
	x, err := h.Send(ctx, h.OpRequest(res.Update, params, nil, request.Wrapped(res.Update, change)))
	if err != nil {
		return err
	}
	if err := x.Require(x.Status >= 200 && x.Status < 300, judge.RuleItemUpdate, fmt.Sprintf("%s of a created item: status %d, want a documented 2xx", res.Update.ID, x.Status)); err != nil {
		return err
	}
	want := maps.Clone(map[string]any(h.readable(res, created)))
	echoed := h.echoed(res.Update, res.Item, change)
	for name := range change {
		if _, ok := echoed[name]; !ok {
			delete(want, name) // sent, and not to be answered as it was
		}
	}
	maps.Copy(want, echoed)
	if h.answersObject(res, res.Update, x) {
		got, err := x.Item()
		if err != nil {
			return err
		}
		// An answer of a narrower schema, as Apideck's {"data":{"id":...}}
		// of an update, is held to what of the item it declares.
		answered, _ := h.answered(nil, h.answeredItem(res.Update, x.Status), want, 0).(map[string]any)
		if answered == nil {
			answered = want
		}
		if diff := judge.Differences(got, answered); diff != "" {
			return x.Require(false, judge.RuleItemUpdate, "the item updated, as answered, differs from what was written: "+diff)
		}
	}
	return h.readItemBack(ctx, res, params, created, sameAs(want), judge.RuleItemUpdate)
}

// CheckItemDeleted deletes an item the suite created: it must then read
// 404.
func (h *Harness) CheckItemDeleted(ctx context.Context, res *spec.Resource) error {
	if err := h.Served(res.Delete); err != nil {
		return err
	}
	created, params, err := h.itemToChange(ctx, res, nil)
	if err != nil {
		return err
	}
	params[res.IDParam] = created.ID(res.IDProperty)
	// A delete may require a body, as VictorOps' of a user names who
	// takes over, or a query parameter.
	body, err := h.Value(ctx, res.Delete)
	if err != nil {
		return err
	}
	query, err := h.RequiredQuery(ctx, res.Delete)
	if err != nil {
		return err
	}
	x, err := h.Send(ctx, h.OpRequest(res.Delete, params, query, body))
	if err != nil {
		return err
	}
	if err := x.Require(x.Status >= 200 && x.Status < 300, judge.RuleItemDelete, fmt.Sprintf("%s of a created item: status %d, want a documented 2xx", res.Delete.ID, x.Status)); err != nil {
		return err
	}
	if res.Read == nil {
		return nil
	}
	if err := h.Served(res.Read); err != nil {
		return err
	}
	var read *judge.Exchange
	if _, err := h.settle(ctx, func() (bool, error) {
		var err error
		read, err = h.Send(ctx, h.OpRequest(res.Read, params, nil, nil))
		return read.Status == http.StatusNotFound || read.Status == http.StatusGone, err
	}); err != nil {
		return err
	}
	if err := read.Require(read.Status == http.StatusNotFound || read.Status == http.StatusGone, judge.RuleItemDelete,
		fmt.Sprintf("%s of the item deleted: status %d, want 404 (read again for %v)", res.Read.ID, read.Status, h.cfg.Settle)); err != nil {
		return err
	}
	return h.checkUnlisted(ctx, res, params, created)
}

// checkUnlisted walks the resource's list, filtered by the item's own
// values where the list has filters, until the item deleted is gone from
// it, within the settle window. A walk cut short, with pages the suite
// cannot reach, judges what it saw.
func (h *Harness) checkUnlisted(ctx context.Context, res *spec.Resource, params map[string]string, deleted judge.Item) error {
	if res.List == nil || h.Served(res.List) != nil {
		return nil
	}
	var (
		found *judge.Item
		last  *judge.Exchange
		query url.Values
	)
	if _, err := h.settleWalks(ctx, func() (bool, error) {
		var walk walked
		var err error
		found, walk, query, err = h.findItemListed(ctx, res, params, deleted)
		last = walk.last
		return found == nil, err
	}); err != nil {
		return err
	}
	if found == nil {
		return nil
	}
	return last.Require(false, judge.RuleItemDelete, fmt.Sprintf("the %s deleted (%s %s) is still listed by %s %s (listed again for %v)", spec.Singular(res.Name), res.IDProperty, deleted.ID(res.IDProperty), res.List.ID, query.Encode(), h.cfg.Settle))
}

// sameAs returns the check of an item read back: it holds every property
// of want, equal.
func sameAs(want map[string]any) func(got judge.Item) string {
	return func(got judge.Item) string { return judge.Differences(got, want) }
}

// readItemBack reads the item created through the resource's read
// operation, within the settle window: check must find nothing wrong with
// it. Without a read operation, or one that documents no body, there is
// nothing to read it with.
func (h *Harness) readItemBack(ctx context.Context, res *spec.Resource, params map[string]string, created judge.Item, check func(got judge.Item) string, r judge.Rule) error {
	if !readsItem(res) {
		return nil
	}
	if err := h.Served(res.Read); err != nil {
		return err
	}
	params = maps.Clone(params)
	params[res.IDParam] = created.ID(res.IDProperty)
	var x *judge.Exchange
	var diff string
	if _, err := h.settle(ctx, func() (bool, error) {
		var err error
		if x, err = h.Send(ctx, h.OpRequest(res.Read, params, nil, nil)); err != nil || x.Status != x.Success() {
			return false, err
		}
		got, err := x.Item()
		if err != nil {
			return false, err
		}
		diff = check(got)
		return diff == "", nil
	}); err != nil {
		return err
	}
	if err := x.Require(x.Status == x.Success(), r, fmt.Sprintf("%s of the %s just written (%s %s): status %d, want %d (read again for %v)", res.Read.ID, spec.Singular(res.Name), res.IDProperty, created.ID(res.IDProperty), x.Status, x.Success(), h.cfg.Settle)); err != nil {
		return err
	}
	return x.Require(diff == "", r, fmt.Sprintf("the %s read back differs from what was written: %s", spec.Singular(res.Name), diff))
}

// checkItemListed walks the resource's list, filtered by the item's own
// values where the list has filters, until it finds the item created: it
// must be there, unchanged. A walk cut short, with pages the suite cannot
// reach, skips the check, and so does a resource without a list.
func (h *Harness) checkItemListed(ctx context.Context, res *spec.Resource, params map[string]string, created judge.Item) error {
	if res.List == nil {
		return nil
	}
	if err := h.Served(res.List); err != nil {
		return err
	}
	var (
		found *judge.Item
		walk  walked
		query url.Values
	)
	_, err := h.settleWalks(ctx, func() (bool, error) {
		var err error
		found, walk, query, err = h.findItemListed(ctx, res, params, created)
		return found != nil || walk.end == walkCut, err
	})
	id := created.ID(res.IDProperty)
	switch {
	case err != nil:
		return err
	case found != nil:
		// A list may show each item shorter than its read, as a summary of
		// the properties its own schema declares (1Password Connect's
		// items, without their fields): the item listed is held to what of
		// the created item that schema names.
		want, _ := h.answered(nil, h.listedSchema(res), map[string]any(created), 0).(map[string]any)
		if res.ListsIDs(h.contract.Contract, res.List) {
			// A list of ids, as Pinecone's of names, shows the id alone.
			want = map[string]any{res.IDProperty: created[res.IDProperty]}
		}
		if diff := judge.Differences(*found, want); diff != "" {
			return walk.last.Require(false, judge.RuleItemListed, "the listed item differs from the one created: "+diff)
		}
		return nil
	case walk.end == walkComplete:
		return walk.last.Require(false, judge.RuleItemListed, fmt.Sprintf("the %s just created (%s %s) is not listed by %s %s (listed again for %v)", spec.Singular(res.Name), res.IDProperty, id, res.List.ID, query.Encode(), h.cfg.Settle))
	default:
		return judge.Skipf("cannot tell whether the %s created is listed: it is not on the pages seen, and %s", spec.Singular(res.Name), walk.why)
	}
}

// findItemListed walks the resource's list, filtered by the item's own values
// where the list has filters, until it finds the item of it's id, and
// returns it as listed, nil if the walk ended without, how the walk ended
// and the query of its first page.
func (h *Harness) findItemListed(ctx context.Context, res *spec.Resource, params map[string]string, it judge.Item) (*judge.Item, walked, url.Values, error) {
	query := url.Values{}
	if p := res.Paging; p.Limit != "" && p.Max > 0 {
		query.Set(p.Limit, fmt.Sprint(p.Max))
	}
	for _, f := range res.Filters {
		// A value the filter does not take, the item is listed without.
		if v, ok := it[f.Name()]; ok && v != nil && f.Takes(v) {
			query.Set(f.Name(), spec.ValueText(v))
		}
	}
	id := it.ID(res.IDProperty)
	first, err := h.Send(ctx, h.OpRequest(res.List, params, query, nil))
	if err != nil {
		return nil, walked{}, query, err
	}
	var found *judge.Item
	walk, err := h.walkItems(ctx, first, judge.RuleItemListed, func(x *judge.Exchange, page []judge.Item) (bool, error) {
		for _, listed := range page {
			if listed.ID(res.IDProperty) == id {
				found = &listed
				return false, nil
			}
		}
		return true, nil
	})
	return found, walk, query, err
}

// change returns a change to the created item that the update operation
// takes: a new value of its first enumeration, or else of its first other
// property, as the update's schema allows, as the item its body holds
// (see request.Wrapped).
func (h *Harness) change(ctx context.Context, res *spec.Resource, created judge.Item) (map[string]any, error) {
	s := h.ItemSchema(res.Update)
	if s == nil {
		return nil, nil
	}
	props := h.contract.Properties(s)
	var body map[string]any
	made := func() (map[string]any, error) {
		if body == nil {
			b, err := h.Body(ctx, res.Update)
			if err != nil {
				return nil, err
			}
			body = request.ItemIn(res.Update, b)
		}
		return body, nil
	}
	// A change is of a property the item's schema declares, which its
	// reads answer: Appwrite's documents are updated with read
	// permissions their schema does not declare.
	declared := map[string]bool{}
	for _, p := range h.contract.Properties(res.Item) {
		declared[p.Name] = true
	}
	answered := func(name string) bool { return len(declared) == 0 || declared[name] }
	var change map[string]any
enums:
	for _, p := range props {
		if p.Schema.ReadOnly || len(p.Schema.Enum) < 2 || !answered(p.Name) {
			continue
		}
		for _, v := range p.Schema.Enum {
			if cur, ok := created[p.Name]; !ok || spec.ValueText(cur) != spec.ValueText(v) {
				if sv, isString := v.(string); isString {
					change = map[string]any{p.Name: sv}
					break enums
				}
			}
		}
	}
	if change == nil {
		body, err := made()
		if err != nil {
			return nil, err
		}
		for _, p := range props {
			v, ok := body[p.Name]
			if !ok || p.Schema.ReadOnly || p.Name == res.IDProperty || !answered(p.Name) {
				continue
			}
			// A change is a value the item does not hold already, or
			// an update that does nothing passes: a boolean is turned.
			if cur, held := created[p.Name]; held && judge.SameValue(cur, v) {
				b, isBool := cur.(bool)
				if !isBool {
					continue
				}
				v = !b
			}
			change = map[string]any{p.Name: v}
			break
		}
	}
	if change == nil {
		return nil, nil
	}
	// An update whose schema requires more than the change, as Adyen's
	// PATCH of a document requires its description, is sent them too:
	// the item's own values, which change nothing, or made ones where the
	// item holds none.
	for _, p := range props {
		if _, done := change[p.Name]; done || !p.Required || p.Schema.ReadOnly {
			continue
		}
		if v, ok := created[p.Name]; ok {
			change[p.Name] = v
			continue
		}
		body, err := made()
		if err != nil {
			return nil, err
		}
		if v, ok := body[p.Name]; ok {
			change[p.Name] = v
		}
	}
	return change, nil
}

// listedSchema returns the schema of one item of res's list, inside its
// envelope where it has one; nil where the document gives none.
func (h *Harness) listedSchema(res *spec.Resource) *openapi3.Schema {
	s := res.List.JSONSchema(res.List.Success)
	if s != nil && res.ListEnvelope != nil {
		var items *openapi3.Schema
		for _, p := range h.contract.Properties(s) {
			if p.Name == res.ListEnvelope.Items {
				items = p.Schema
			}
		}
		s = items
	}
	if s == nil || s.Items == nil {
		return nil
	}
	return s.Items.Value
}
