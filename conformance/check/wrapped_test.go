package check

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
)

// widgets is a resource whose operations take and answer the item inside
// {"data":{...}}, as Asana's do, the answers beside another member,
// whose requests take its references by gid or number where its answers
// give the objects they name, or a string, and whose list shows each item
// shorter than its read, without the color it is filtered by.
const widgets = `openapi: 3.0.3
info: {title: Widgets, version: 1.0.0}
servers: [{url: /w}]
paths:
  /widgets:
    get:
      operationId: getWidgets
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 100}}
        - {name: color, in: query, schema: {type: string, enum: [red, green, blue]}}
      responses:
        '200':
          description: The widgets.
          content:
            application/json:
              schema:
                type: object
                required: [data]
                properties:
                  data: {type: array, items: {$ref: '#/components/schemas/WidgetCompact'}}
    post:
      operationId: createWidget
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/WidgetBody'}}}}
      responses:
        '201': {description: The widget., content: {application/json: {schema: {$ref: '#/components/schemas/WidgetAnswer'}}}}
  /widgets/{widget_gid}:
    parameters: [{name: widget_gid, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getWidget
      responses:
        '200': {description: The widget., content: {application/json: {schema: {$ref: '#/components/schemas/WidgetAnswer'}}}}
        '404': {description: No such widget.}
    put:
      operationId: updateWidget
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/WidgetBody'}}}}
      responses:
        '200': {description: The widget., content: {application/json: {schema: {$ref: '#/components/schemas/WidgetAnswer'}}}}
        '404': {description: No such widget.}
    delete:
      operationId: deleteWidget
      responses:
        '200': {description: Deleted., content: {application/json: {schema: {type: object, properties: {data: {type: object}}}}}}
        '404': {description: No such widget.}
components:
  schemas:
    WidgetBody:
      type: object
      required: [data]
      properties: {data: {$ref: '#/components/schemas/WidgetRequest'}}
    WidgetRequest:
      type: object
      required: [name, color]
      properties:
        name: {type: string}
        color: {type: string, enum: [red, green, blue]}
        owner: {type: string, description: the gid of the user that owns it}
        shelf: {type: integer, description: the number of the shelf it is on}
    WidgetCompact:
      type: object
      required: [gid, name]
      properties:
        gid: {type: string, readOnly: true}
        name: {type: string}
    Widget:
      type: object
      required: [gid, name, color]
      properties:
        gid: {type: string, readOnly: true}
        name: {type: string}
        color: {type: string, enum: [red, green, blue]}
        owner:
          type: object
          properties: {gid: {type: string}, name: {type: string}}
        shelf:
          oneOf:
            - {type: string}
            - {type: object, properties: {gid: {type: string}}}
    WidgetAnswer:
      type: object
      required: [data, request_id]
      properties:
        data: {$ref: '#/components/schemas/Widget'}
        request_id: {type: string}
`

// TestWrappedItems: the item a resource's operations take and answer
// inside an object is the item judged: petmock serving them passes every
// check, with the create, read, replace and delete of the item run, not
// skipped, and a server that breaks what an item inside its wrapper holds
// fails naming the rule of what it broke.
func TestWrappedItems(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, widgets)
	c := readFile(t, path)
	res := c.Resource("widgets")
	if res == nil || res.Wrapped[res.Read] == nil || res.BodyWrapped[res.CreateOp] == nil || res.BodyWrapped[res.Replace] == nil {
		t.Fatalf("no resource widgets of items wrapped in data, taken and answered: %v", c.Notes)
	}

	t.Run("petmock passes", func(t *testing.T) {
		t.Parallel()
		for seed := range uint64(3) {
			h := judgeOver(t, ct.PetmockOf(t, path), Settings{Contract: c, Seed: seed + 1})
			ctx := checkContext(t)
			ran := map[string]bool{}
			for _, chk := range genericChecks(h.contract, h.cfg.APIKey) {
				err := chk.run(h, ctx)
				if errors.As(err, new(*judge.Skipped)) {
					continue
				}
				if err != nil {
					t.Errorf("seed %d: %s: %v", seed+1, chk.name, err)
				}
				ran[chk.name] = true
			}
			if err := h.CheckKept(ctx); err != nil {
				t.Errorf("seed %d: the items kept: %v", seed+1, err)
			}
			for _, name := range []string{"resource widgets created", "resource widgets replaced", "resource widgets deleted", "list getWidgets read through getWidget", "list getWidgets filtered by color=red"} {
				if !ran[name] {
					t.Errorf("seed %d: %s did not run", seed+1, name)
				}
			}
		}
	})

	petmock := ct.PetmockOf(t, path)
	// renamed answers each read with the item inside data renamed.
	renamed := ct.Intercept(ct.PetmockOf(t, path), func(r *http.Request, rec *httptest.ResponseRecorder) {
		if r.Method != http.MethodGet || !strings.Contains(r.URL.Path, "/widgets/") || rec.Code != http.StatusOK {
			return
		}
		ct.EditJSON(rec, func(v any) any {
			if item, ok := res.ItemOf(res.Read, v); ok {
				item["name"] = "renamed"
			}
			return v
		})
	})
	// unfiltered lists every widget whatever color is asked for.
	unfiltered := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		q := r.URL.Query()
		q.Del("color")
		r.URL.RawQuery = q.Encode()
		petmock.ServeHTTP(w, r)
	})
	red := FilterValues(res)[0]
	for _, tc := range []struct {
		name    string
		handler http.Handler
		run     func(h *Harness) error
		rule    judge.Rule
		says    string
	}{
		{
			name:    "a read that renames the item inside data",
			handler: renamed,
			run:     func(h *Harness) error { return h.CheckItemCreated(checkContext(t), res) },
			rule:    judge.RuleItemRead,
			says:    `name "renamed", want "conformance-`,
		},
		{
			name:    "a list that ignores its filter, of a property its items show only when read",
			handler: unfiltered,
			run:     func(h *Harness) error { return h.CheckListFilter(checkContext(t), res, red) },
			rule:    judge.RuleListFilter,
			says:    "getWidget shows it with color",
		},
		{
			name:    "a create that keeps nothing",
			handler: ct.Kit[0].Wrap(t, c, ct.PetmockOf(t, path)),
			run:     func(h *Harness) error { return h.CheckItemCreated(checkContext(t), res) },
			rule:    judge.RuleItemRead,
			says:    "status 404, want 200",
		},
		{
			name:    "a delete that keeps the item",
			handler: ct.Kit[1].Wrap(t, c, ct.PetmockOf(t, path)),
			run:     func(h *Harness) error { return h.CheckItemDeleted(checkContext(t), res) },
			rule:    judge.RuleItemDelete,
			says:    "status 200, want 404",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := judgeOver(t, tc.handler, Settings{Contract: c, Seed: 1})
			b := wantBroken(t, tc.name, tc.run(h), tc.rule.ID)
			if b != nil && !strings.Contains(b.Detail, tc.says) {
				t.Errorf("%s: %s, want it to say %q", tc.name, b.Detail, tc.says)
			}
		})
	}
}
