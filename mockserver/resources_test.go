package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/spec"
)

// The resources of the shapes real documents give them, served and walked
// through as a client would: create, read, list through every page
// (inside the list's envelope), replace, update, delete, and 404 after.

// thingsDocument is a document of a resource things, whose list answers
// the schema list, with the query parameters params besides limit, and
// whose item path is item (/things/{thingId} when "").
func thingsDocument(tb testing.TB, list string, params ...string) *spec.Contract {
	tb.Helper()
	query := "[{name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 50, default: 20}}"
	for _, p := range params {
		query += ", " + p
	}
	query += "]"
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Things, version: '1'}
servers: [{url: /v1}]
paths:
  /things:
    get:
      operationId: listThings
      parameters: ` + query + `
      responses:
        '200': {description: ok, content: {application/json: {schema: ` + list + `}}}
    post:
      operationId: createThing
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewThing'}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
  /things/{thingId}:
    parameters: [{name: thingId, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: getThing
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        '404': {description: no such thing}
    put:
      operationId: replaceThing
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewThing'}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
    patch:
      operationId: updateThing
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {label: {type: string}}}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
    delete:
      operationId: deleteThing
      responses:
        '204': {description: gone}
components:
  schemas:
    NewThing:
      type: object
      required: [label]
      properties:
        label: {type: string}
    Thing:
      type: object
      required: [id, label]
      properties:
        id: {type: integer, readOnly: true}
        label: {type: string}
    Link: {type: object, required: [href], properties: {href: {type: string}}}
`))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// thingsClient walks a served resource, holding each answer to the
// document.
type thingsClient struct {
	tb   testing.TB
	c    *spec.Contract
	r    *spec.Resource
	base string // scheme and host
}

func (tc *thingsClient) send(method, path, body string) (int, http.Header, any) {
	tc.tb.Helper()
	u := path
	if !strings.HasPrefix(u, "http") {
		u = tc.base + "/v1" + path
	}
	req, resp, got := fetch(tc.tb, method, u, body, "Content-Type", "application/json")
	if err := documented(tc.tb, tc.c, req, resp.StatusCode, resp.Header, got); err != nil {
		tc.tb.Errorf("%s %s: %d %s breaks the document: %v", method, req.URL.RequestURI(), resp.StatusCode, got, err)
	}
	var v any
	if len(got) > 0 {
		d := json.NewDecoder(strings.NewReader(string(got)))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			tc.tb.Fatalf("%s %s: %d %s: %v", method, req.URL.RequestURI(), resp.StatusCode, got, err)
		}
	}
	return resp.StatusCode, resp.Header, v
}

// walk lists every page of the list, limit items a page, following
// what says where the list goes on: the envelope's next link, else its
// cursor, else the Link header. It checks the siblings of each page and
// returns the ids listed.
func (tc *thingsClient) walk(limit int) []string {
	tc.tb.Helper()
	e := tc.r.ListEnvelope
	var ids []string
	path := fmt.Sprintf("/things?limit=%d", limit)
	for pages := 0; path != ""; pages++ {
		if pages > 100 {
			tc.tb.Fatalf("more than 100 pages")
		}
		status, h, v := tc.send("GET", path, "")
		if status != 200 {
			tc.tb.Fatalf("GET %s: %d %v", path, status, v)
		}
		items, ok := tc.r.ListItems(tc.r.List, v)
		if !ok {
			tc.tb.Fatalf("GET %s: no items in %v", path, v)
		}
		if len(items) > limit {
			tc.tb.Errorf("GET %s: %d items, want at most %d", path, len(items), limit)
		}
		for _, it := range items {
			ids = append(ids, spec.ValueText(it.(map[string]any)["id"]))
		}
		link := h.Get("Link")
		path = ""
		if link != "" {
			path = link[1:strings.IndexByte(link, '>')]
		}
		if e == nil {
			continue
		}
		if e.More != nil {
			if more, _ := spec.Lookup(v, e.More); more != (path != "") {
				tc.tb.Errorf("GET %s: %s is %v, but the Link header says %q", path, strings.Join(e.More, "."), more, link)
			}
		}
		if e.Next != nil {
			next, _ := spec.Lookup(v, e.Next)
			if s, _ := next.(string); s != path {
				tc.tb.Errorf("%s is %v, want the Link header's %q", strings.Join(e.Next, "."), next, path)
			}
		}
		if e.Cursor != nil {
			cursor, _ := spec.Lookup(v, e.Cursor)
			s, _ := cursor.(string)
			if (s != "") != (path != "") {
				tc.tb.Errorf("%s is %v, but the Link header says %q", strings.Join(e.Cursor, "."), cursor, link)
			}
			if s != "" {
				path = fmt.Sprintf("/things?limit=%d&%s=%s", limit, tc.r.Paging.Cursor, url.QueryEscape(s))
			}
		}
		if e.Total != nil {
			total, _ := spec.Lookup(v, e.Total)
			tc.tb.Logf("%s: %v", strings.Join(e.Total, "."), total)
		}
	}
	return ids
}

// total returns what the first page says every page holds.
func (tc *thingsClient) total() string {
	_, _, v := tc.send("GET", "/things?limit=1", "")
	n, _ := spec.Lookup(v, tc.r.ListEnvelope.Total)
	return spec.ValueText(n)
}

// TestWrappedListsRoundTrip: a list that answers its items inside an
// object is a resource's: what a client creates shows in it, page by
// page, with the siblings that say where it goes on agreeing with the
// pages; it is read, replaced, updated and deleted, and then 404.
func TestWrappedListsRoundTrip(t *testing.T) {
	thing := "{$ref: '#/components/schemas/Thing'}"
	for _, tt := range []struct {
		name, list string
		params     []string
	}{
		{"Stripe's", "{type: object, required: [object, data, has_more, url], properties: {object: {type: string, enum: [list]}, data: {type: array, items: " + thing + "}, has_more: {type: boolean}, url: {type: string, pattern: '^/v1/'}}}", nil},
		{"a next link", "{type: object, required: [items, next], properties: {items: {type: array, items: " + thing + "}, next: {type: string, format: uri, nullable: true}}}", nil},
		{"AutoRest's", "{type: object, properties: {value: {type: array, items: " + thing + "}, nextLink: {type: string}}}", nil},
		{"Box's", "{type: object, required: [entries, limit], properties: {limit: {type: integer}, next_marker: {type: string}, entries: {type: array, items: " + thing + "}}}",
			[]string{"{name: marker, in: query, schema: {type: string}}"}},
		{"Kubernetes'", "{type: object, required: [items, metadata], properties: {kind: {type: string}, items: {type: array, items: " + thing + "}, metadata: {type: object, required: [resourceVersion], properties: {continue: {type: string}, resourceVersion: {type: string}}}}}",
			[]string{"{name: continue, in: query, schema: {type: string}}"}},
		{"Train Travel's", "{allOf: [{type: object, properties: {data: {type: array, items: {type: object}}}}, {properties: {data: {type: array, items: " + thing + "}}}, {properties: {links: {type: object, required: [self], properties: {self: {type: string, format: uri}, next: {type: string, format: uri}}}}}]}", nil},
		{"a total and a HAL next", "{type: object, required: [totalCount], properties: {items: {type: array, items: " + thing + "}, totalCount: {type: integer, minimum: 0}, _links: {type: object, properties: {next: {$ref: '#/components/schemas/Link'}}}}}", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := thingsDocument(t, tt.list, tt.params...)
			r := c.Resource("things")
			if r == nil || r.ListEnvelope == nil {
				t.Fatalf("no resource things of a wrapped list; notes %q", c.Notes)
			}
			_, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}})
			tc := &thingsClient{tb: t, c: c, r: r, base: base}
			var made []string
			for i := range 5 {
				status, h, v := tc.send("POST", "/things", fmt.Sprintf(`{"label":"thing %d"}`, i))
				if status != 201 || h.Get("Location") == "" {
					t.Fatalf("POST /things: %d %v, Location %q", status, v, h.Get("Location"))
				}
				made = append(made, spec.ValueText(v.(map[string]any)["id"]))
			}
			if got := tc.walk(2); !slices.Equal(got, made) {
				t.Errorf("the pages of 2 list %v, want %v", got, made)
			}
			if r.ListEnvelope.Total != nil {
				if got := tc.total(); got != "5" {
					t.Errorf("total %s, want 5", got)
				}
			}
			id := made[2]
			if status, _, v := tc.send("GET", "/things/"+id, ""); status != 200 || spec.ValueText(v.(map[string]any)["id"]) != id {
				t.Errorf("GET /things/%s: %d %v", id, status, v)
			}
			if status, _, v := tc.send("PUT", "/things/"+id, `{"label":"replaced"}`); status != 200 || v.(map[string]any)["label"] != "replaced" {
				t.Errorf("PUT /things/%s: %d %v", id, status, v)
			}
			if status, _, v := tc.send("PATCH", "/things/"+id, `{"label":"updated"}`); status != 200 || v.(map[string]any)["label"] != "updated" {
				t.Errorf("PATCH /things/%s: %d %v", id, status, v)
			}
			if status, _, v := tc.send("DELETE", "/things/"+id, ""); status != 204 {
				t.Errorf("DELETE /things/%s: %d %v", id, status, v)
			}
			if status, _, v := tc.send("GET", "/things/"+id, ""); status != 404 {
				t.Errorf("GET /things/%s after its delete: %d %v, want 404", id, status, v)
			}
			if got, want := tc.walk(3), slices.Delete(slices.Clone(made), 2, 3); !slices.Equal(got, want) {
				t.Errorf("after the delete, the pages of 3 list %v, want %v", got, want)
			}
			if r.ListEnvelope.Total != nil {
				if got := tc.total(); got != "4" {
					t.Errorf("after the delete, total %s, want 4", got)
				}
			}
		})
	}
}

// TestWrappedListStreamed: a page too large to build in one buffer is
// written item by item from the store, inside its envelope all the same,
// with the Content-Length of the whole.
func TestWrappedListStreamed(t *testing.T) {
	c := thingsDocument(t, "{type: object, required: [data, has_more], properties: {data: {type: array, items: {$ref: '#/components/schemas/Thing'}}, has_more: {type: boolean}, total: {type: integer}}}")
	var items []json.RawMessage
	for i := range 60 {
		items = append(items, json.RawMessage(fmt.Sprintf(`{"id":%d,"label":%q}`, i+1, strings.Repeat("x", 2000))))
	}
	_, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{"things": items}})
	req, resp, body := fetch(t, "GET", base+"/v1/things?limit=50", "")
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Fatalf("GET /v1/things?limit=50: %d: %v", resp.StatusCode, err)
	}
	var page struct {
		Data    []map[string]any `json:"data"`
		HasMore bool             `json:"has_more"`
		Total   int              `json:"total"`
	}
	if err := json.Unmarshal(body, &page); err != nil || len(page.Data) != 50 || !page.HasMore || page.Total != 60 {
		t.Errorf("GET /v1/things?limit=50: %d items, has_more %v, total %d (%v), want 50, true, 60", len(page.Data), page.HasMore, page.Total, err)
	}
	if resp.ContentLength != int64(len(body)) {
		t.Errorf("Content-Length %d, body %d bytes", resp.ContentLength, len(body))
	}
}
