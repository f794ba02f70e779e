package conformance

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/spec"
)

// LabelGeneric marks the checks made from the document alone, for every
// operation and resource it describes, beside the Petstore's own.
const LabelGeneric = "generic"

// opLabel returns the label of an operation's checks: its id, with the
// characters a label may not hold replaced.
func opLabel(op *spec.Operation) string {
	return "op:" + strings.Map(func(r rune) rune {
		if strings.ContainsRune("&|!,()/ {}\"'", r) {
			return '-'
		}
		return r
	}, op.ID)
}

// mutating reports whether a request of op can change state.
func mutating(op *spec.Operation) bool {
	return op.Method != http.MethodGet && op.Method != http.MethodHead && op.Method != http.MethodOptions
}

// opLabels are the labels of the checks of op that send it.
func opLabels(op *spec.Operation, labels ...string) []string {
	labels = append(labels, LabelGeneric, opLabel(op))
	if mutating(op) {
		labels = append(labels, LabelMutating)
	}
	return labels
}

// describeOperations declares the generic checks of every operation: it
// is served, it answers a valid request with a documented success, a
// secured one refuses requests without a valid key, and one that takes
// input refuses input that breaks its schema.
func (s *suite) describeOperations() {
	for _, op := range s.contract.Operations {
		if !s.runs(opLabels(op)...) {
			continue
		}
		Describe("operation "+op.ID+" ("+op.Method+" "+op.Path+")", func() {
			BeforeEach(func() { s.h.skipRemoved(op) })

			It("answers a valid request with a documented success", Label(opLabels(op, "answers")...), func(ctx SpecContext) {
				s.h.checkValidRequest(ctx, op)
			})

			if len(op.Security) > 0 {
				It("answers 401 with an Error body without a key", Label(opLabels(op, "auth")...), func(ctx SpecContext) {
					s.h.checkRefused(ctx, op, "")
				})
				It("answers 401 with an Error body with a wrong key", Label(opLabels(op, "auth")...), func(ctx SpecContext) {
					s.h.checkRefused(ctx, op, s.h.invalidKey())
				})
			}

			if cases := invalidRequests(s.contract.Contract, op); len(cases) > 0 {
				var entries []TableEntry
				for _, c := range cases {
					entries = append(entries, Entry(c.name, c))
				}
				DescribeTable("answers a request that breaks the schema with a documented 4xx", Label(opLabels(op, "invalid")...),
					func(ctx SpecContext, c invalidRequest) {
						s.h.checkInvalidRequest(ctx, op, c)
					}, entries)
			}
		})
	}
}

// skipRemoved skips a check of a deprecated operation once its sunset has
// come: it need not answer any more.
func (h *harness) skipRemoved(op *spec.Operation) {
	if d := op.Deprecation; d != nil && !d.Sunset.IsZero() && !h.cfg.now().Before(d.Sunset) {
		Skip(fmt.Sprintf("%s was to be removed on %s: it need not answer any more", op.ID, d.Sunset.Format("2006-01-02")))
	}
}

// validRequest returns a valid request of op: a new item of a resource
// where op acts on one and can change it, a listed one where it only
// reads, and values made from the document for everything else. madeUp
// says that the path names something the suite made up, which the
// deployment may rightly not find.
func (h *harness) validRequest(ctx context.Context, op *spec.Operation) (r *request, madeUp bool) {
	GinkgoHelper()
	fixed := map[string]string{}
	if res := op.Resource; res != nil && op.Role != spec.RoleList && op.Role != spec.RoleCreate {
		if mutating(op) {
			created, params := h.createItem(ctx, res)
			fixed = params
			fixed[res.IDParam] = created.id(res.IDProperty)
		} else {
			ids := h.listedIDs(ctx, res)
			if len(ids) == 0 {
				Skip(fmt.Sprintf("the list of %s shows no item for %s to read", res.Name, op.ID))
			}
			fixed[res.IDParam] = valueText(ids[h.rnd.IntN(len(ids))])
		}
	}
	params, madeUp := h.pathParams(ctx, op, fixed)
	var body any
	if b := h.body(ctx, op); b != nil {
		body = b
	}
	r = h.opRequest(op, params, h.requiredQuery(ctx, op), body)
	r.mustExist, r.madeUp, r.params = true, madeUp, params
	return r, madeUp
}

// checkValidRequest sends a valid request of op: it must be answered with
// a documented 2xx, whose body the client has checked against the schema.
// A 404 or 405 says that the operation is missing.
//
// Other clients may remove a listed item between the listing and the
// read: a read answered 404 is sent again, for another listed item, when
// the list no longer shows the one asked for, and within the settle window
// when it still does.
func (h *harness) checkValidRequest(ctx context.Context, op *spec.Operation) {
	GinkgoHelper()
	for range maxListedTries {
		r, madeUp := h.validRequest(ctx, op)
		if res := op.Resource; op.Role == spec.RoleRead && !madeUp {
			id := r.params[res.IDParam]
			probe := *r
			probe.mustExist = false
			x := h.send(ctx, &probe)
			if x.status == http.StatusNotFound {
				if !slices.Contains(listedTexts(h.listedIDs(ctx, res)), id) {
					continue // removed meanwhile
				}
				h.settle(ctx, func() bool {
					x = h.send(ctx, &probe)
					return x.status != http.StatusNotFound
				})
			}
			if x.status != http.StatusNotFound {
				x.require(x.status >= 200 && x.status < 300, ruleOpSuccess, fmt.Sprintf("%s of listed item %s: status %d, want a documented 2xx", op.ID, id, x.status))
				return
			}
		}
		h.checkAnswer(ctx, op, r, madeUp)
		return
	}
	Skip(fmt.Sprintf("the last %d items listed were gone before %s could read them: other clients are removing them, so %s could not be judged", maxListedTries, op.ID, op.ID))
}

// listedTexts returns ids as text.
func listedTexts(ids []any) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = valueText(id)
	}
	return out
}

// checkAnswer sends r, a valid request of op, and judges the answer.
func (h *harness) checkAnswer(ctx context.Context, op *spec.Operation, r *request, madeUp bool) {
	GinkgoHelper()
	x := h.send(ctx, r)
	if x.status == http.StatusNotFound && madeUp {
		Skip(fmt.Sprintf("%s answered 404, which it documents, for a path the suite made up: the deployment may rightly know no such thing", op.ID))
	}
	x.require(x.status >= 200 && x.status < 300, ruleOpSuccess, fmt.Sprintf("%s: status %d, want a documented 2xx", op.ID, x.status))
}

// checkRefused sends a request of op without a key, or with key, which is
// not one the deployment accepts: it must be answered 401, with an Error
// body the client has checked.
func (h *harness) checkRefused(ctx context.Context, op *spec.Operation, key string) {
	GinkgoHelper()
	params, _ := h.pathParams(ctx, op, nil)
	var body any
	if b := h.body(ctx, op); b != nil {
		body = b
	}
	r := h.opRequest(op, params, h.requiredQuery(ctx, op), body, h.credentials(op, key))
	x := h.send(ctx, r)
	sent := "no key"
	if key != "" {
		sent = "a key the deployment never issued"
	}
	x.require(x.status == http.StatusUnauthorized, ruleOpAuth, fmt.Sprintf("%s with %s: status %d, want 401", op.ID, sent, x.status))
}

// createItem creates an item of res through its create operation, checks
// that it was created, and returns it with the path parameters of its
// collection.
func (h *harness) createItem(ctx context.Context, res *spec.Resource) (item, map[string]string) {
	GinkgoHelper()
	if res.CreateOp == nil {
		Skip(fmt.Sprintf("%s has no create operation to make an item with", res.Name))
	}
	params := h.collectionParams(ctx, res)
	body := h.body(ctx, res.CreateOp)
	x := h.send(ctx, h.opRequest(res.CreateOp, params, nil, body))
	x.require(x.status >= 200 && x.status < 300, ruleItemCreate, fmt.Sprintf("%s of a valid item: status %d, want a documented 2xx", res.CreateOp.ID, x.status))
	if res.CreateOp.JSONSchema(x.status) == nil {
		Skip(fmt.Sprintf("%s answers %d without a body, so the id of the item created is not known", res.CreateOp.ID, x.status))
	}
	created := x.item()
	x.require(created.id(res.IDProperty) != "", ruleItemCreate, fmt.Sprintf("the %s created has no %s", singularOf(res), res.IDProperty))
	if diff := differences(created, body); diff != "" {
		x.require(false, ruleItemCreate, "the item created differs from what was sent: "+diff)
	}
	return created, params
}

// singularOf names one item of a resource in messages.
func singularOf(res *spec.Resource) string {
	if n := res.Name; strings.HasSuffix(n, "s") && len(n) > 1 {
		return strings.TrimSuffix(n, "s")
	}
	return res.Name
}

// invalidRequest is a request of an operation that breaks its schema in
// one way.
type invalidRequest struct {
	name string
	// body changes a valid body; nil leaves it. query changes a valid
	// query; nil leaves it.
	body  func(map[string]any) any
	query func(url.Values)
	// inQuery says that the fault is in the query, where a 400 is a gap of
	// the interface for the Petstore's list.
	inQuery bool
}
