package check

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// The generic checks of every operation of the document: it is served, it
// answers a valid request with a documented success, a secured one refuses
// requests without a valid key, and one that takes input refuses input
// that breaks its schema (invalid.go).

// Served skips a check of a deprecated operation once its sunset has
// come, as it need not answer any more, and of an operation the suite
// cannot make a valid request of, saying why.
func (h *Harness) Served(op *spec.Operation) error {
	if d := op.Deprecation; d != nil && !d.Sunset.IsZero() && !h.cfg.Now().Before(d.Sunset) {
		return judge.Skipf("%s was to be removed on %s: it need not answer any more", op.ID, d.Sunset.Format("2006-01-02"))
	}
	if why := request.CannotSend(op); why != "" {
		return judge.Skipf("%s", why)
	}
	return nil
}

// validRequest returns a valid request of op: a new item of a resource
// where op acts on one and can change it, a listed one where it only
// reads, and values made from the document for everything else. madeUp
// says that the path names something the suite made up, which the
// deployment may rightly not find.
func (h *Harness) validRequest(ctx context.Context, op *spec.Operation) (r *judge.Request, madeUp bool, err error) {
	fixed := map[string]string{}
	var created judge.Item // of a mutating operation on one item
	if res := op.Resource; res != nil && op.Role != spec.RoleList && op.Role != spec.RoleCreate {
		if request.Mutating(op) {
			var params map[string]string
			if created, params, err = h.itemToChange(ctx, res, nil); err != nil {
				return nil, false, err
			}
			fixed = params
			fixed[res.IDParam] = created.ID(res.IDProperty)
		} else {
			ids, err := h.ListedIDs(ctx, res)
			if err != nil {
				return nil, false, err
			}
			if len(ids) == 0 {
				return nil, false, judge.Skipf("the list of %s shows no item for %s to read", res.Name, op.ID)
			}
			fixed[res.IDParam] = spec.ValueText(ids[h.rnd.IntN(len(ids))])
		}
	}
	params, madeUp, err := h.PathParams(ctx, op, fixed)
	if err != nil {
		return nil, false, err
	}
	body, err := h.Value(ctx, op)
	if err != nil {
		return nil, false, err
	}
	if b, ok := body.(map[string]any); ok && created != nil {
		h.NamesItem(op.Resource, op, b, created)
	}
	query, err := h.RequiredQuery(ctx, op)
	if err != nil {
		return nil, false, err
	}
	r = h.OpRequest(op, params, query, body)
	r.MustExist, r.MadeUp, r.Params = true, madeUp, params
	return r, madeUp, nil
}

// CheckValidRequest sends a valid request of op: it must be answered with
// a documented 2xx, whose body the client has checked against the schema.
// A 404 or 405 says that the operation is missing.
//
// Other clients may remove a listed item between the listing and the
// read: a read answered 404 is sent again, for another listed item, when
// the list no longer shows the one asked for, and within the settle window
// when it still does.
func (h *Harness) CheckValidRequest(ctx context.Context, op *spec.Operation) error {
	for range maxListedTries {
		r, madeUp, err := h.validRequest(ctx, op)
		if err != nil {
			return err
		}
		if res := op.Resource; op.Role == spec.RoleRead && !madeUp {
			id := r.Params[res.IDParam]
			probe := *r
			probe.MustExist = false
			x, err := h.Send(ctx, &probe)
			if err != nil {
				return err
			}
			if x.Status == http.StatusNotFound {
				ids, err := h.ListedIDs(ctx, res)
				if err != nil {
					return err
				}
				if !slices.Contains(listedTexts(ids), id) {
					continue // removed meanwhile
				}
				if _, err := h.settle(ctx, func() (bool, error) {
					var err error
					x, err = h.Send(ctx, &probe)
					return x.Status != http.StatusNotFound, err
				}); err != nil {
					return err
				}
			}
			if x.Status != http.StatusNotFound {
				if err := answeredValid(op, x, judge.RuleOpSuccess, fmt.Sprintf("%s of listed item %s", op.ID, id)); err != nil {
					return err
				}
				return h.checkDeprecatedAnswer(op, x)
			}
		}
		return h.checkAnswer(ctx, op, r, madeUp)
	}
	return judge.Skipf("the last %d items listed were gone before %s could read them: other clients are removing them, so %s could not be judged", maxListedTries, op.ID, op.ID)
}

// listedTexts returns ids as text.
func listedTexts(ids []any) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = spec.ValueText(id)
	}
	return out
}

// checkAnswer sends r, a valid request of op, and judges the answer.
func (h *Harness) checkAnswer(ctx context.Context, op *spec.Operation, r *judge.Request, madeUp bool) error {
	x, err := h.Send(ctx, r)
	if err != nil {
		return err
	}
	if x.Status == http.StatusNotFound && madeUp {
		return judge.Skipf("%s answered 404 for a path the suite made up: the deployment may rightly know no such thing", op.ID)
	}
	if err := answeredValid(op, x, judge.RuleOpSuccess, op.ID); err != nil {
		return err
	}
	return h.checkDeprecatedAnswer(op, x)
}

// answeredValid judges x, the answer to a valid request of op, which the
// client has checked against the document, by rule r: it must be a 2xx.
// An operation that documents no success, such as Swagger Petstore's
// addPet, which documents only "405: Invalid input", cannot be held to
// one: its answer is a status it documents, which is all the document
// says, and the check is skipped, saying so. what names the request.
func answeredValid(op *spec.Operation, x *judge.Exchange, r judge.Rule, what string) error {
	if op.Success == 0 && (x.Status < 200 || x.Status >= 300) {
		documented := make([]string, len(op.Statuses))
		for i, s := range op.Statuses {
			documented[i] = strconv.Itoa(s)
		}
		return judge.Skipf("%s documents no success, only %s, and answered %d, which it documents: the document says no more of what a valid request gets", op.ID, strings.Join(documented, ", "), x.Status)
	}
	return x.Require(x.Status >= 200 && x.Status < 300, r, fmt.Sprintf("%s: status %d, want a documented 2xx", what, x.Status))
}

// CheckWithoutKey sends a valid request of op, whose document makes the
// key optional, without one: it must be answered as with one.
func (h *Harness) CheckWithoutKey(ctx context.Context, op *spec.Operation) error {
	r, madeUp, err := h.validRequest(ctx, op)
	if err != nil {
		return err
	}
	h.Credentials(op, "")(r)
	x, err := h.Send(ctx, r)
	if err != nil {
		return err
	}
	if x.Status == http.StatusNotFound && madeUp {
		return judge.Skipf("%s answered 404 for a path the suite made up: the deployment may rightly know no such thing", op.ID)
	}
	return answeredValid(op, x, judge.RuleOpOptionalKey, op.ID+" without a key")
}

// CheckRefused sends a request of op without a key, or with key, which is
// not one the deployment accepts: it must be refused, with an Error body
// the client has checked.
func (h *Harness) CheckRefused(ctx context.Context, op *spec.Operation, key string) error {
	sent := "no key"
	if key != "" {
		sent = "a key the deployment never issued"
	}
	return h.checkRefusedWith(ctx, op, h.Credentials(op, key), sent)
}

// checkRefusedWith sends a request of op with the credentials cred sets,
// which sent names and which are not the run's key: it must get the
// refusal op documents, 401 or 403, and HTTP's 401 where it documents
// neither (see refusals).
func (h *Harness) checkRefusedWith(ctx context.Context, op *spec.Operation, cred judge.Option, sent string) error {
	params, _, err := h.PathParams(ctx, op, nil)
	if err != nil {
		return err
	}
	body, err := h.Value(ctx, op)
	if err != nil {
		return err
	}
	query, err := h.RequiredQuery(ctx, op)
	if err != nil {
		return err
	}
	want := refusals(op)
	// Either refusal is called for, whichever op documents, so that an
	// answer of the other breaks this check's rule, which says what was
	// wanted, rather than the client's, which only says it is not
	// documented.
	x, err := h.Send(ctx, h.OpRequest(op, params, query, body, cred, judge.CallingFor(http.StatusUnauthorized, http.StatusForbidden)))
	if err != nil {
		return err
	}
	return x.Require(slices.Contains(want, x.Status), judge.RuleOpAuth, fmt.Sprintf("%s with %s: status %d, want %s", op.ID, sent, x.Status, statusList(want)))
}

// refusals are the statuses a request of op without a valid key may get:
// those of 401 and 403 that op documents, as a document may give either to
// a missing or wrong key; and where it documents neither, 401, which HTTP
// has for a request without valid credentials (RFC 9110, 15.5.2).
func refusals(op *spec.Operation) []int {
	var out []int
	for _, s := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		if slices.Contains(op.Statuses, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return []int{http.StatusUnauthorized}
	}
	return out
}

// statusList writes statuses as "401" or "401 or 403".
func statusList(statuses []int) string {
	out := make([]string, len(statuses))
	for i, s := range statuses {
		out[i] = strconv.Itoa(s)
	}
	return strings.Join(out, " or ")
}

// createItem creates an item of res through its create operation, checks
// that it was created, and returns it with the path parameters of its
// collection.
func (h *Harness) createItem(ctx context.Context, res *spec.Resource) (judge.Item, map[string]string, error) {
	return h.createItemWith(ctx, res, nil)
}

// itemToChange returns an item of res for a check that changes it, with
// the path parameters of its collection: one it creates, with edit
// changing the body where not nil, or, where the document has no create of
// res, one its list shows, as there is no other.
func (h *Harness) itemToChange(ctx context.Context, res *spec.Resource, edit func(body map[string]any)) (judge.Item, map[string]string, error) {
	if res.CreateOp != nil {
		return h.createItemWith(ctx, res, edit)
	}
	if res.List == nil {
		return nil, nil, judge.Skipf("%s has neither a create nor a list: no item of it is known", res.Name)
	}
	params, err := h.CollectionParams(ctx, res)
	if err != nil {
		return nil, nil, err
	}
	_, items, err := h.listPageOf(ctx, res, params, url.Values{}, judge.RuleItemSame)
	if err != nil {
		return nil, nil, err
	}
	items = slices.DeleteFunc(items, func(it judge.Item) bool { return it.ID(res.IDProperty) == "" })
	if len(items) == 0 {
		return nil, nil, judge.Skipf("no create of %s was found, and its list shows no item to change", res.Name)
	}
	return items[h.rnd.IntN(len(items))], params, nil
}

// createItemWith is createItem, with edit, if not nil, changing the item
// the body made from the document holds before it is sent.
func (h *Harness) createItemWith(ctx context.Context, res *spec.Resource, edit func(body map[string]any)) (judge.Item, map[string]string, error) {
	if res.CreateOp == nil {
		return nil, nil, judge.Skipf("%s has no create operation to make an item with", res.Name)
	}
	params, err := h.CollectionParams(ctx, res)
	if err != nil {
		return nil, nil, err
	}
	body, err := h.Body(ctx, res.CreateOp)
	if err != nil {
		return nil, nil, err
	}
	h.WithoutOwnID(res, body)
	item := request.ItemIn(res.CreateOp, body)
	if item == nil {
		return nil, nil, judge.Skipf("%s: the body made holds no %s", res.CreateOp.ID, spec.Singular(res.Name))
	}
	if edit != nil {
		edit(item)
	}
	x, err := h.Send(ctx, h.OpRequest(res.CreateOp, params, nil, body))
	if err != nil {
		return nil, nil, err
	}
	if err := x.Require(x.Status >= 200 && x.Status < 300, judge.RuleItemCreate, fmt.Sprintf("%s of a valid item: status %d, want a documented 2xx", res.CreateOp.ID, x.Status)); err != nil {
		return nil, nil, err
	}
	var created judge.Item
	switch {
	case h.answersItem(res, x):
		if created, err = x.Item(); err != nil {
			return nil, nil, err
		}
	case res.IDSent && item[res.IDProperty] != nil:
		// The create answers no item: what it created is what was
		// sent, under the id it sent.
		created = judge.Item(h.echoed(res.CreateOp, res.Item, item))
		created[res.IDProperty] = item[res.IDProperty]
		return created, params, h.checkLocation(x, res, params, created.ID(res.IDProperty), judge.RuleItemLocation)
	case idInLocation(x, res, params) != "":
		// The create answers no item, and its Location names it: what
		// it created is what was sent, under the id the Location gives.
		created = judge.Item(h.echoed(res.CreateOp, res.Item, item))
		id := idInLocation(x, res, params)
		created[res.IDProperty] = id
		if !res.IDIsString {
			created[res.IDProperty] = json.Number(id)
		}
		return created, params, nil
	default:
		return nil, nil, judge.Skipf("%s answers %d without the item created, and its body sends no %s, so the id of the item created is not known", res.CreateOp.ID, x.Status, res.IDProperty)
	}
	if err := x.Require(created.ID(res.IDProperty) != "", judge.RuleItemCreate, fmt.Sprintf("the %s created has no %s", spec.Singular(res.Name), res.IDProperty)); err != nil {
		return nil, nil, err
	}
	if diff := judge.Differences(created, h.echoed(res.CreateOp, h.answeredItem(res.CreateOp, x.Status), item)); diff != "" {
		return nil, nil, x.Require(false, judge.RuleItemCreate, "the item created differs from what was sent: "+diff)
	}
	if err := h.checkLocation(x, res, params, created.ID(res.IDProperty), judge.RuleItemLocation); err != nil {
		return nil, nil, err
	}
	return created, params, nil
}

// answersItem reports whether x, the answer of a create of res, holds the
// item created: a body of a JSON schema with the id property, as a 201
// has, not a 204, nor a 202 of a job to watch.
func (h *Harness) answersItem(res *spec.Resource, x *judge.Exchange) bool {
	s := h.answeredItem(res.CreateOp, x.Status)
	if s == nil || !x.HasBody() {
		return false
	}
	return slices.ContainsFunc(h.contract.Properties(s), func(p spec.Property) bool { return p.Name == res.IDProperty })
}

// answersObject reports whether x, the answer of op, a write of an item
// of res, holds the item: a body of a JSON schema of an object, where
// VTEX's replace of a credit account answers the string of its id, and
// one of the item's properties, at least half of those it declares, where
// Google's updates answer an Operation to watch, whose id, name and
// description are the operation's, not the item's. A narrower view of the
// item, as Apideck's {"data":{"id":...}}, holds it.
func (h *Harness) answersObject(res *spec.Resource, op *spec.Operation, x *judge.Exchange) bool {
	s := h.answeredItem(op, x.Status)
	t := spec.TypeOf(s)
	if s == nil || !x.HasBody() || !(t == "object" || t == "" || len(h.contract.Properties(s)) > 0) {
		return false
	}
	if s == res.Item {
		return true
	}
	props := h.contract.Properties(s)
	ofItem := 0
	for _, p := range props {
		if slices.ContainsFunc(res.Properties, func(q spec.Property) bool { return q.Name == p.Name }) {
			ofItem++
		}
	}
	return len(props) == 0 || 2*ofItem >= len(props)
}

// answeredItem returns the schema of the item op, an operation of a
// resource, answers with status: the answer's, or that of what its
// wrapper holds where it answers the item inside an object, as
// judge.Exchange.Item reads it.
func (h *Harness) answeredItem(op *spec.Operation, status int) *openapi3.Schema {
	s := op.JSONSchema(status)
	if w := op.Resource.Wrapped[op]; w != nil && s == w.Schema {
		return w.Inner(h.contract.Contract)
	}
	return s
}

// CheckNearMiss sends a request of the trial's operation with m in place
// of the scheme's credential: it must be refused like a wrong key.
func (h *Harness) CheckNearMiss(ctx context.Context, t request.SchemeTrial, m request.NearMiss) error {
	return h.checkRefusedWith(ctx, t.Op, h.WithNearMiss(t.Op, t.Requirement, t.Scheme, m), fmt.Sprintf("%s for %s", m.Name, t.Scheme.Name))
}
