package spec_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// TestListEnvelopes: a list that answers its items inside an object is a
// resource's list, in each shape real APIs give it: the items in the one
// array of objects, or in one named as items are, and the siblings that
// link to the next page, carry its cursor, count every item, or say
// whether more follow.
func TestListEnvelopes(t *testing.T) {
	thing := fmt.Sprintf(ref, "Thing")
	thingParam := fmt.Sprintf(intParam, "thingId")
	tests := []struct {
		name, list                string
		params                    []string
		items                     string
		next, cursor, total, more string
		pagingCursor              string
	}{
		{"Stripe's", "{type: object, required: [object, data, has_more, url], properties: {object: {type: string, enum: [list]}, data: {type: array, items: " + thing + "}, has_more: {type: boolean}, url: {type: string}}}",
			nil, "data", "", "", "", "has_more", spec.CursorParam},
		{"a next link", "{type: object, properties: {items: {type: array, items: " + thing + "}, next: {type: string, format: uri, nullable: true}}}",
			nil, "items", "next", "", "", "", spec.CursorParam},
		{"AutoRest's", "{type: object, properties: {value: {type: array, items: " + thing + "}, nextLink: {type: string}}}",
			nil, "value", "nextLink", "", "", "", spec.CursorParam},
		{"Box's", "{type: object, properties: {limit: {type: integer}, next_marker: {type: string}, prev_marker: {type: string}, entries: {type: array, items: " + thing + "}}}",
			[]string{"{name: marker, in: query, schema: {type: string}}", "{name: limit, in: query, schema: {type: integer}}"}, "entries", "", "next_marker", "", "", "marker"},
		{"a cursor no parameter takes back", "{type: object, properties: {next_marker: {type: string}, entries: {type: array, items: " + thing + "}}}",
			nil, "entries", "", "", "", "", spec.CursorParam},
		{"Train Travel's", "{allOf: [{type: object, properties: {data: {type: array, items: {type: object}}, links: {type: object, readOnly: true}}}, {properties: {data: {type: array, items: " + thing + "}}}, {properties: {links: {allOf: [{type: object, properties: {self: {type: string, format: uri}}}, {type: object, properties: {next: {type: string, format: uri}, prev: {type: string, format: uri}}}]}}}]}",
			nil, "data", "links.next", "", "", "", spec.CursorParam},
		{"named after the collection, with a total", "{type: object, properties: {things: {type: array, items: " + thing + "}, total_entries: {type: integer}}}",
			nil, "things", "", "", "total_entries", "", spec.CursorParam},
		{"Kubernetes'", "{type: object, properties: {kind: {type: string}, items: {type: array, items: " + thing + "}, metadata: {type: object, properties: {continue: {type: string}, resourceVersion: {type: string}}}}}",
			[]string{"{name: continue, in: query, schema: {type: string}}"}, "items", "", "metadata.continue", "", "", "continue"},
		{"a HAL next", "{type: object, properties: {items: {type: array, items: " + thing + "}, totalCount: {type: integer}, _links: {type: object, properties: {self: {$ref: '#/components/schemas/Link'}, next: {$ref: '#/components/schemas/Link'}}}}}",
			nil, "items", "_links.next.href", "", "totalCount", "", spec.CursorParam},
		{"a cursor of a pattern petmock's do not match", "{type: object, properties: {next_cursor: {type: string}, data: {type: array, items: " + thing + "}}}",
			[]string{"{name: cursor, in: query, schema: {type: string, pattern: '^[0-9]+$'}}"}, "data", "", "", "", "", spec.CursorParam},
	}
	dotted := func(p []string) string { return strings.Join(p, ".") }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := shapeDoc(t,
				path("/things", "get", op("listThings", 200, tt.list, "", tt.params...), "post", op("createThing", 201, thing, fmt.Sprintf(ref, "NewThing")))+
					path("/things/{thingId}", "get", op("getThing", 200, thing, "", thingParam)),
				"Thing: {type: object, required: [id, label], properties: {id: {type: integer, readOnly: true}, label: {type: string}}}\n"+
					"NewThing: {type: object, required: [label], properties: {label: {type: string}}}\n"+
					"Link: {type: object, properties: {href: {type: string}}}")
			r := c.Resource("things")
			if r == nil {
				t.Fatalf("no resource things; notes:\n%s", strings.Join(c.Notes, "\n"))
			}
			e := r.ListEnvelope
			if e == nil {
				t.Fatalf("the list has no envelope")
			}
			if e.Items != tt.items || dotted(e.Next) != tt.next || dotted(e.Cursor) != tt.cursor || dotted(e.Total) != tt.total || dotted(e.More) != tt.more {
				t.Errorf("envelope: items %q, next %q, cursor %q, total %q, more %q; want %q, %q, %q, %q, %q",
					e.Items, dotted(e.Next), dotted(e.Cursor), dotted(e.Total), dotted(e.More), tt.items, tt.next, tt.cursor, tt.total, tt.more)
			}
			if r.Paging.Cursor != tt.pagingCursor || r.Cursor(r.List) != tt.pagingCursor {
				t.Errorf("the cursor travels in %q (Cursor %q), want %q", r.Paging.Cursor, r.Cursor(r.List), tt.pagingCursor)
			}
			if r.IDProperty != "id" || r.Item != e.Property(c, []string{e.Items}).Items.Value {
				t.Errorf("the item is not Thing: id %q", r.IDProperty)
			}
			answer := map[string]any{tt.items: []any{map[string]any{"id": 1}}}
			if items, ok := r.ListItems(r.List, answer); !ok || len(items) != 1 {
				t.Errorf("ListItems(%v) = %v, %v, want the one item", answer, items, ok)
			}
		})
	}
}

// TestNoEnvelope: a list whose object answer holds no array of objects,
// or several none of which is named as items are, is no resource's, and
// a note says why.
func TestNoEnvelope(t *testing.T) {
	thing := fmt.Sprintf(ref, "Thing")
	for _, tt := range []struct{ list, note string }{
		{"{type: object, properties: {count: {type: integer}}}", "not a JSON array, nor an object with an array of objects among its properties"},
		{"{type: object, properties: {left: {type: array, items: " + thing + "}, right: {type: array, items: " + thing + "}}}", "an object of several arrays (left, right), none of them named as the items of a list are"},
	} {
		c := shapeDoc(t,
			path("/things", "get", op("listThings", 200, tt.list, ""), "post", op("createThing", 201, thing, thing))+
				path("/things/{thingId}", "get", op("getThing", 200, thing, "", fmt.Sprintf(intParam, "thingId"))),
			"Thing: {type: object, properties: {id: {type: integer, readOnly: true}, label: {type: string}}}")
		if len(c.Resources) != 0 || !notesHolding(c, "paths./things.get.responses.200: "+tt.note) {
			t.Errorf("%s: resources %d, notes %q, want none and a note %q", tt.list, len(c.Resources), c.Notes, tt.note)
		}
	}
}

// TestReadOfAList: a GET below a collection that answers a list of its
// items, as Bitbucket's GET /snippets/{workspace} does of GET /snippets,
// reads no item of it: the path is a collection of its own.
func TestReadOfAList(t *testing.T) {
	thing := fmt.Sprintf(ref, "Thing")
	page := "{$ref: '#/components/schemas/Page'}"
	c := shapeDoc(t,
		path("/things", "get", op("listThings", 200, page, ""), "post", op("createThing", 201, thing, thing))+
			path("/things/{workspace}", "get", op("listOfWorkspace", 200, page, "", fmt.Sprintf(strParam, "workspace"))),
		"Thing: {type: object, properties: {id: {type: integer, readOnly: true}, label: {type: string}}}\n"+
			"Page: {type: object, properties: {values: {type: array, items: "+thing+"}, next: {type: string}}}")
	if r := c.Resource("things"); r != nil && r.Read != nil {
		t.Errorf("things read by %s, a list", r.Read.ID)
	}
	if !notesHolding(c, "paths./things/{workspace}.get.responses.200: a list of the items of /things, not one of them") {
		t.Errorf("no note of the read that lists; notes %q", c.Notes)
	}
}

// TestFindInAnEnvelope: a find that answers its items inside an object is
// a find of the resource, with its envelope, and its cursor travels in
// the parameter that takes it back.
func TestFindInAnEnvelope(t *testing.T) {
	thing := fmt.Sprintf(ref, "Thing")
	c := shapeDoc(t,
		path("/things", "get", op("listThings", 200, fmt.Sprintf(arrayOf, "Thing"), ""), "post", op("createThing", 201, thing, thing))+
			path("/things/search", "get", op("searchThings", 200, "{type: object, properties: {data: {type: array, items: "+thing+"}, next_page: {type: string}, total_count: {type: integer}}}", "",
				"{name: label, in: query, schema: {type: string}}", "{name: page, in: query, schema: {type: string}}"))+
			path("/things/{thingId}", "get", op("getThing", 200, thing, "", fmt.Sprintf(intParam, "thingId"))),
		"Thing: {type: object, properties: {id: {type: integer, readOnly: true}, label: {type: string}}}")
	r := c.Resource("things")
	if r == nil || len(r.Finds) != 1 || r.Finds[0].Envelope == nil {
		t.Fatalf("no find in an envelope; notes %q", c.Notes)
	}
	e := r.Finds[0].Envelope
	if e.Items != "data" || !slices.Equal(e.Total, []string{"total_count"}) || !slices.Equal(e.Cursor, []string{"next_page"}) {
		t.Errorf("envelope %+v, want data, total_count and the cursor next_page", e)
	}
	if got := r.Cursor(r.Finds[0].Op); got != "page" {
		t.Errorf("the find's cursor travels in %q, want page", got)
	}
	if r.ListEnvelope != nil || r.Cursor(r.List) != spec.CursorParam {
		t.Errorf("the list: envelope %v, cursor %q, want none and %q", r.ListEnvelope, r.Cursor(r.List), spec.CursorParam)
	}
}

// TestItemWrappers: an item answered, or sent, inside an object, as
// Asana's {"data":{...}} and Apideck's {"status":"OK","data":{...}}, is
// the item of the resource, with the wrapper of each operation; an
// object that names an id itself, or whose holder names none (Kubernetes'
// data, a RawExtension), is no wrapper.
func TestItemWrappers(t *testing.T) {
	task := "{$ref: '#/components/schemas/Task'}"
	wrapped := "{type: object, required: [status, data], properties: {status: {type: string}, data: " + task + "}}"
	body := "{type: object, properties: {data: {$ref: '#/components/schemas/NewTask'}}}"
	gid := fmt.Sprintf(strParam, "task_gid")
	c := shapeDoc(t,
		path("/tasks",
			"get", op("listTasks", 200, "{type: object, properties: {data: {type: array, items: "+task+"}}}", ""),
			"post", op("createTask", 201, wrapped, body))+
			path("/tasks/{task_gid}",
				"get", op("getTask", 200, wrapped, "", gid),
				"put", op("replaceTask", 200, wrapped, body, gid),
				"delete", op("deleteTask", 200, "{type: object, properties: {data: {type: object, properties: {gid: {type: string}}}}}", "", gid)),
		"Task: {type: object, properties: {gid: {type: string, readOnly: true}, name: {type: string}, data: {type: object}}}\n"+
			"NewTask: {type: object, properties: {name: {type: string}}}")
	r := c.Resource("tasks")
	if r == nil {
		t.Fatalf("no resource tasks; notes %q", c.Notes)
	}
	if r.IDProperty != "gid" || r.Item != c.Doc.Components.Schemas["Task"].Value {
		t.Errorf("tasks: id %q, item %v, want gid of Task", r.IDProperty, r.Item)
	}
	for _, op := range []*spec.Operation{r.CreateOp, r.Read, r.Replace, r.Delete} {
		if w := r.Wrapped[op]; w == nil || w.Property != "data" {
			t.Errorf("%s answers in %v, want data", op.ID, w)
		}
	}
	for _, op := range []*spec.Operation{r.CreateOp, r.Replace} {
		if w := r.BodyWrapped[op]; w == nil || w.Property != "data" {
			t.Errorf("the body of %s holds the item in %v, want data", op.ID, w)
		}
	}
	answer := map[string]any{"status": "ok", "data": map[string]any{"gid": "12"}}
	if it, ok := r.ItemOf(r.Read, answer); !ok || it["gid"] != "12" {
		t.Errorf("ItemOf(%v) = %v, %v", answer, it, ok)
	}

	// Kubernetes' objects hold their data in a RawExtension, no item.
	k := shapeDoc(t,
		path("/revisions", "post", op("createRevision", 201, fmt.Sprintf(ref, "Revision"), fmt.Sprintf(ref, "Revision")))+
			path("/revisions/{name}", "get", op("readRevision", 200, fmt.Sprintf(ref, "Revision"), "", fmt.Sprintf(strParam, "name"))),
		"Revision: {type: object, properties: {kind: {type: string}, revision: {type: integer, readOnly: true}, data: {type: object, properties: {Raw: {type: string}}}}}")
	if r := k.Resource("revisions"); r == nil || r.Wrapped[r.Read] != nil || r.IDProperty != "revision" {
		t.Errorf("revisions: %+v, want the revision itself the item", r)
	}
}

// TestListOfAnotherItem: a list whose items share few properties with
// what the item path reads, as Vercel's checks (checks listed, a DNS
// record read), is no resource's, and a note says why.
func TestListOfAnotherItem(t *testing.T) {
	c := shapeDoc(t,
		path("/checks", "get", op("listChecks", 200, fmt.Sprintf(arrayOf, "Check"), ""), "post", op("createCheck", 201, fmt.Sprintf(ref, "Check"), fmt.Sprintf(ref, "Check")))+
			path("/checks/{id}", "get", op("getCheck", 200, fmt.Sprintf(ref, "Record"), "", fmt.Sprintf(strParam, "id"))),
		"Check: {type: object, properties: {id: {type: string, readOnly: true}, name: {type: string}, status: {type: string}, conclusion: {type: string}}}\n"+
			"Record: {type: object, properties: {id: {type: string}, domain: {type: string}, ttl: {type: integer}, value: {type: string}, recordType: {type: string}}}")
	if len(c.Resources) != 0 || !notesHolding(c, "paths./checks.get.responses.200: the items it lists share few properties with what getCheck reads") {
		t.Errorf("resources %v, notes %q, want none and a note", c.Resources, c.Notes)
	}
}

// TestItemsOfAnEnvelope: the items of a page are the array its items
// property holds, or none where the page leaves the property out, as
// Twitter's lists do for no items; anything else there is no list.
func TestItemsOfAnEnvelope(t *testing.T) {
	e := &spec.Envelope{Items: "data"}
	for _, tt := range []struct {
		page  string
		items int
		ok    bool
	}{
		{`{"data":[{"id":1},{"id":2}]}`, 2, true},
		{`{"meta":{"result_count":0}}`, 0, true},
		{`{"data":null}`, 0, false},
		{`{"data":{"id":1}}`, 0, false},
		{`[{"id":1}]`, 0, false},
	} {
		var v any
		if err := json.Unmarshal([]byte(tt.page), &v); err != nil {
			t.Fatal(err)
		}
		items, ok := e.ItemsOf(v)
		if len(items) != tt.items || ok != tt.ok {
			t.Errorf("ItemsOf(%s) = %d items, %v; want %d, %v", tt.page, len(items), ok, tt.items, tt.ok)
		}
	}
}

// TestFilterTakes: a filter takes a value of its property where its
// parameter's schema does, as the value or as its text; an enumeration of
// the parameter narrower than the property's refuses the others.
func TestFilterTakes(t *testing.T) {
	param := func(schema *openapi3.Schema) spec.Filter {
		return spec.Filter{Param: &openapi3.Parameter{Name: "status", In: "query", Schema: &openapi3.SchemaRef{Value: schema}}}
	}
	status := param(&openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: []any{"created", "complete"}})
	statuses := param(&openapi3.Schema{Type: &openapi3.Types{"array"}, Items: &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: []any{"created"}}}})
	count := param(&openapi3.Schema{Type: &openapi3.Types{"string"}})
	for _, tt := range []struct {
		f    spec.Filter
		v    any
		want bool
	}{
		{status, "created", true},
		{status, "expired", false},
		{statuses, "created", true},
		{statuses, "expired", false},
		{count, json.Number("5"), true},
		{param(&openapi3.Schema{Type: &openapi3.Types{"integer"}}), "5", true},
		{param(&openapi3.Schema{Type: &openapi3.Types{"boolean"}}), "true", true},
		{param(&openapi3.Schema{Type: &openapi3.Types{"integer"}}), "five", false},
		{spec.Filter{Param: &openapi3.Parameter{Name: "any"}}, "x", true},
	} {
		if got := tt.f.Takes(tt.v); got != tt.want {
			t.Errorf("filter %s takes %v: %v, want %v", tt.f.Name(), tt.v, got, tt.want)
		}
	}
}

func TestFilterSpells(t *testing.T) {
	of := func(typ string) spec.Filter {
		return spec.Filter{Param: &openapi3.Parameter{Name: "f", In: "query"}, Schema: &openapi3.Schema{Type: &openapi3.Types{typ}}}
	}
	for _, tt := range []struct {
		typ, text string
		want      bool
	}{
		{"boolean", "true", true},
		{"boolean", "1", false},
		{"integer", "5", true},
		{"integer", "05", false},
		{"number", "2.5", true},
		{"number", "many", false},
		{"string", "1", true},
	} {
		if got := of(tt.typ).Spells(tt.text); got != tt.want {
			t.Errorf("a %s property spells %q: %v, want %v", tt.typ, tt.text, got, tt.want)
		}
	}
}
