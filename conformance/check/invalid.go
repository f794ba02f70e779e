package check

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// badInputStatuses are the 4xx statuses that say a request broke the
// schema; the others say something else, such as that the key is missing.
func badInputStatuses(op *spec.Operation) []int {
	var out []int
	for _, s := range op.Statuses {
		switch s {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed,
			http.StatusNotAcceptable, http.StatusGone, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType,
			http.StatusTooManyRequests:
			continue
		}
		if s >= 400 && s < 500 {
			out = append(out, s)
		}
	}
	return out
}

// choiceOnly reports whether every status of statuses is a gap decision of
// petmock's for op, marked x-petmock-choice, or there is none: the
// interface does not ask for it, so a server may answer otherwise.
func choiceOnly(op *spec.Operation, statuses []int) bool {
	for _, s := range statuses {
		if r := op.Op.Responses.Status(s); r == nil || r.Value == nil || !spec.IsChoice(r.Value.Extensions) {
			return false
		}
	}
	return true
}

// CheckInvalidRequest sends a request of op that breaks its schema as c
// says: it must be answered with a 4xx that says so, one op documents or
// 400, which HTTP has for any request a server will not process, whose
// Error body the client has checked. Where every such 4xx op documents is
// only a gap decision of petmock's, a success passes too, unless the run
// is strict. Where op documents none, the document does not say that the
// request is refused: only a strict run judges it, and holds it to the 400
// petmock answers.
func (h *Harness) CheckInvalidRequest(ctx context.Context, op *spec.Operation, c request.InvalidRequest) error {
	statuses := badInputStatuses(op)
	if len(statuses) == 0 && !h.cfg.Strict {
		return judge.Skipf("%s documents no 4xx for a request that breaks its schema, so the suite cannot tell what it should get; --strict holds it to 400, as petmock answers", op.ID)
	}
	// Where the 4xx is only petmock's choice, the interface lets a server
	// answer otherwise, and only a strict run holds it to the 4xx.
	r := judge.RuleOpInvalid
	if choiceOnly(op, statuses) {
		r = judge.RuleStrictInvalid
	}
	if !slices.Contains(statuses, http.StatusBadRequest) {
		statuses = append(statuses, http.StatusBadRequest)
	}
	fixed := map[string]string{}
	if res := op.Resource; res != nil && op.Role != spec.RoleList && op.Role != spec.RoleCreate {
		id, params, err := h.sampleItem(ctx, res, op)
		if err != nil {
			return err
		}
		fixed = params
		fixed[res.IDParam] = id
	}
	params, _, err := h.PathParams(ctx, op, fixed)
	if err != nil {
		return err
	}
	query, err := h.RequiredQuery(ctx, op)
	if err != nil {
		return err
	}
	if c.Query != nil {
		c.Query(query)
	}
	body, err := h.Value(ctx, op)
	if err != nil {
		return err
	}
	if b, ok := body.(map[string]any); ok && c.Body != nil {
		body = c.Body(maps.Clone(b))
		if left, _ := body.(map[string]any); left != nil && len(left) == 0 && request.EmptyFormIsNoBody(op) {
			return judge.Skipf("%s with %s leaves an empty form, which is no body, and %s's body is optional", op.ID, c.Name, op.ID)
		}
	}
	x, err := h.Send(ctx, h.OpRequest(op, params, query, body, judge.CallingFor(http.StatusBadRequest)))
	if err != nil {
		return err
	}
	if r == judge.RuleStrictInvalid && !h.cfg.Strict && x.Status >= 200 && x.Status < 300 {
		return nil
	}
	want := make([]string, len(statuses))
	for i, s := range statuses {
		want[i] = strconv.Itoa(s)
	}
	return x.Require(slices.Contains(statuses, x.Status), r, fmt.Sprintf("%s with %s: status %d, want %s", op.ID, c.Name, x.Status, strings.Join(want, " or ")))
}

// sample is an item the suite created for the invalid requests of its
// resource, and the path parameters of its collection.
type sample struct {
	id     string
	params map[string]string
}

// sampleItem returns the id of an item of res for a check of op, an
// operation on its items, with the path parameters of its collection: one
// the suite created, when op can change it, and a listed one otherwise.
func (h *Harness) sampleItem(ctx context.Context, res *spec.Resource, op *spec.Operation) (string, map[string]string, error) {
	if request.Mutating(op) {
		// One item serves every invalid request of the resource: none of
		// them may change it.
		if s, ok := h.samples[res.Name]; ok {
			return s.id, maps.Clone(s.params), nil
		}
		created, params, err := h.itemToChange(ctx, res, nil)
		if err != nil {
			return "", nil, err
		}
		if h.samples == nil {
			h.samples = map[string]sample{}
		}
		h.samples[res.Name] = sample{created.ID(res.IDProperty), params}
		return created.ID(res.IDProperty), maps.Clone(params), nil
	}
	ids, err := h.ListedIDs(ctx, res)
	if err != nil {
		return "", nil, err
	}
	if len(ids) == 0 {
		return "", nil, judge.Skipf("the list of %s shows no item for %s", res.Name, op.ID)
	}
	id := spec.ValueText(ids[h.rnd.IntN(len(ids))])
	params, err := h.CollectionParams(ctx, res)
	return id, params, err
}
