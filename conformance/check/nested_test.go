package check

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
)

// TestNestedResources: the items of a resource nested below another are
// created, listed, walked, read, deleted and read again at the end below
// one parent: petmock serving them passes every check, and the checks of
// the nested items ran, not skipped; an operation on an item at a path
// that names no parent reads one listed below the run's parent, and no
// request of the run has an empty segment.
func TestNestedResources(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, ct.Vaults)
	c := readFile(t, path)
	if c.Resource("items") == nil || len(c.Resource("items").ParentParams) == 0 {
		t.Fatalf("no nested resource items: %v", c.Notes)
	}
	for seed := range uint64(4) {
		var empty atomic.Value // a path of an empty segment, as asked for
		seen := ct.Intercept(ct.PetmockOf(t, path), func(r *http.Request, _ *httptest.ResponseRecorder) {
			if strings.Contains(r.URL.Path, "//") {
				empty.Store(r.URL.Path)
			}
		})
		h := judgeOver(t, seen, Settings{Contract: c, Seed: seed + 1})
		ctx := checkContext(t)
		ran := 0
		for _, chk := range genericChecks(h.contract, h.cfg.APIKey) {
			err := chk.run(h, ctx)
			if errors.As(err, new(*judge.Skipped)) {
				continue
			}
			if err != nil {
				t.Errorf("seed %d: %s: %v", seed+1, chk.name, err)
			}
			ran++
		}
		if err := h.CheckKept(ctx); err != nil {
			t.Errorf("seed %d: the items kept: %v", seed+1, err)
		}
		if ran == 0 {
			t.Errorf("seed %d: no check ran", seed+1)
		}
		if p := empty.Load(); p != nil {
			t.Errorf("seed %d: the run asked for %s, a path of an empty segment", seed+1, p)
		}
	}
}

// hooks is a resource scoped by a required query parameter, as Netlify's
// hooks are by site_id, which its items hold too.
const hooks = `openapi: 3.0.3
info: {title: Hooks, version: 1.0.0}
servers: [{url: /h}]
paths:
  /hooks:
    get:
      operationId: listHooks
      parameters:
        - {name: site_id, in: query, required: true, schema: {type: string}}
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 50}}
      responses:
        '200': {description: The hooks., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Hook'}}}}}
    post:
      operationId: createHook
      parameters:
        - {name: site_id, in: query, required: true, schema: {type: string}}
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewHook'}}}}
      responses:
        '201': {description: The hook., content: {application/json: {schema: {$ref: '#/components/schemas/Hook'}}}}
  /hooks/{hookId}:
    get:
      operationId: getHook
      parameters: [{name: hookId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: The hook., content: {application/json: {schema: {$ref: '#/components/schemas/Hook'}}}}
        '404': {description: No such hook.}
components:
  schemas:
    NewHook:
      type: object
      required: [site_id, url]
      properties: {site_id: {type: string}, url: {type: string}}
    Hook:
      allOf:
        - $ref: '#/components/schemas/NewHook'
        - {type: object, required: [id], properties: {id: {type: integer}}}
`

// TestScopedByRequiredQuery: a required query parameter that scopes a
// list, and which its items hold, has one value for the run: what a check
// creates, it finds in the list of that scope.
func TestScopedByRequiredQuery(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, hooks)
	c := readFile(t, path)
	res := c.Resource("hooks")
	if res == nil || len(res.Filters) == 0 {
		t.Fatalf("no resource hooks filtered by site_id: %v", c.Notes)
	}
	for seed := range uint64(3) {
		h := judgeOver(t, ct.PetmockOf(t, path), Settings{Contract: c, Seed: seed + 1})
		ctx := checkContext(t)
		for _, run := range []func() error{
			func() error { return h.CheckItemCreated(ctx, res) },
			func() error { return h.CheckPages(ctx, res, nil, true) },
		} {
			if err := run(); err != nil {
				t.Errorf("seed %d: %v", seed+1, err)
			}
		}
	}
}

// TestResourceWithoutCreate: a resource whose document has no create is
// judged on the items its list shows: one is updated, replaced and
// deleted in place of one of the run's own.
func TestResourceWithoutCreate(t *testing.T) {
	t.Parallel()
	doc := ct.Testdata(t, ct.EvolvedOps)
	c := readFile(t, doc)
	res := *c.Resource("orders")
	res.CreateOp = nil
	ctx := checkContext(t)
	h := judgeOver(t, ct.PetmockOf(t, doc), Settings{Contract: c})
	for name, run := range map[string]func() error{
		"replaced": func() error { return h.CheckItemReplaced(ctx, &res) },
		"updated":  func() error { return h.CheckItemUpdated(ctx, &res) },
		"deleted":  func() error { return h.CheckItemDeleted(ctx, &res) },
	} {
		if err := run(); err != nil {
			t.Errorf("an order listed and %s: %v", name, err)
		}
	}
	wantSkipped(t, "created", h.CheckItemCreated(ctx, &res), "has no create operation")
}
