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

// TestEmptyPagesOfAtLeastOneItem: a list whose items property takes at
// least one item and is not required, as Twitter's lists write data,
// answers a page of no items without it, its siblings kept; and with it
// once there are items.
func TestEmptyPagesOfAtLeastOneItem(t *testing.T) {
	thing := "{$ref: '#/components/schemas/Thing'}"
	for _, tt := range []struct{ name, list, empty string }{
		{"Twitter's", "{type: object, properties: {data: {type: array, minItems: 1, items: " + thing + "}, meta: {type: object, properties: {result_count: {type: integer}}}}}", `{}`},
		{"a required sibling", "{type: object, required: [object], properties: {object: {type: string, enum: [list]}, data: {type: array, minItems: 1, items: " + thing + "}}}", `{"object":"list"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := thingsDocument(t, tt.list)
			_, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}})
			req, resp, body := fetch(t, "GET", base+"/v1/things", "")
			if got := strings.TrimSpace(string(body)); resp.StatusCode != 200 || got != tt.empty {
				t.Errorf("GET /v1/things of no things: %d %s, want 200 %s", resp.StatusCode, got, tt.empty)
			}
			if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("GET /v1/things of no things: %s: %v", body, err)
			}
			if _, resp, body := fetch(t, "POST", base+"/v1/things", `{"label":"one"}`, "Content-Type", "application/json"); resp.StatusCode != 201 {
				t.Fatalf("POST /v1/things: %d %s", resp.StatusCode, body)
			}
			req, resp, body = fetch(t, "GET", base+"/v1/things", "")
			var page struct{ Data []map[string]any }
			if err := json.Unmarshal(body, &page); err != nil || len(page.Data) != 1 {
				t.Errorf("GET /v1/things of one thing: %s, want it in data", body)
			}
			if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("GET /v1/things of one thing: %s: %v", body, err)
			}
		})
	}
	t.Run("written from the store", func(t *testing.T) {
		// Once an item of 2,000 bytes was held, a page of 50 may be too
		// large for a buffer: it is written item by item, and of no
		// items, without data all the same.
		c := thingsDocument(t, "{type: object, properties: {data: {type: array, minItems: 1, items: "+thing+"}}}")
		long := json.RawMessage(fmt.Sprintf(`{"id":1,"label":%q}`, strings.Repeat("x", 2000)))
		_, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{"things": {long}}})
		if _, resp, body := fetch(t, "DELETE", base+"/v1/things/1", ""); resp.StatusCode != 204 {
			t.Fatalf("DELETE /v1/things/1: %d %s", resp.StatusCode, body)
		}
		req, resp, body := fetch(t, "GET", base+"/v1/things?limit=50", "")
		if got := strings.TrimSpace(string(body)); resp.StatusCode != 200 || got != "{}" || resp.ContentLength != int64(len(body)) {
			t.Errorf("GET /v1/things?limit=50 of no things: %d %s (Content-Length %d), want 200 {}", resp.StatusCode, got, resp.ContentLength)
		}
		if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("GET /v1/things?limit=50 of no things: %s: %v", body, err)
		}
	})
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

// TestStoredItemsAnswerByTheReadSchema: where a create's schema and the
// item's disagree, what is stored answers by the item's: a value sent is
// converted to the type the item's schema asks for, or made anew where it
// cannot be, a property the item requires and the create leaves out is
// made, and the start-up notes say where the schemas disagree.
func TestStoredItemsAnswerByTheReadSchema(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Offers, version: '1'}
servers: [{url: /v1}]
paths:
  /offers:
    get:
      operationId: listOffers
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Offer'}}}}}
    post:
      operationId: createOffer
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewOffer'}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Offer'}}}}
  /offers/{offerId}:
    get:
      operationId: getOffer
      parameters: [{name: offerId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Offer'}}}}
components:
  schemas:
    NewOffer:
      type: object
      required: [title]
      properties:
        title: {type: string}
        price: {type: string}
        stock: {type: string}
        seller: {type: object, properties: {name: {type: string}}}
    Offer:
      type: object
      required: [id, title, createdAt, seller]
      properties:
        id: {type: integer}
        title: {type: string}
        price: {type: number}
        stock: {type: integer, minimum: 0}
        createdAt: {type: string, format: date-time}
        seller:
          type: object
          required: [name, rating]
          properties:
            name: {type: string}
            rating: {type: integer, minimum: 1, maximum: 5}
`))
	if err != nil {
		t.Fatal(err)
	}
	srv, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}})
	for _, note := range []string{
		"paths./offers.post.requestBody: price is a string there, and a number in the offer getOffer answers, so a price sent is converted to a number, or made anew where it cannot be",
		"paths./offers.post.requestBody: stock is a string there, and an integer in the offer getOffer answers",
		"paths./offers.post.requestBody: an offer requires createdAt, seller, which a create need not send, so petmock makes what it leaves out from the item's schema",
	} {
		if !slices.ContainsFunc(srv.Notes(), func(n string) bool { return strings.Contains(n, note) }) {
			t.Errorf("no start-up note %q; notes:\n%s", note, strings.Join(srv.Notes(), "\n"))
		}
	}
	tc := &thingsClient{tb: t, c: c, base: base}
	for _, tt := range []struct {
		body       string
		price      string // as answered; "" for any number
		stock      string
		sellerName string
	}{
		{`{"title":"a","price":"12.5","stock":"3","seller":{"name":"Ann"}}`, "12.5", "3", "Ann"},
		{`{"title":"b","price":"cheap","stock":"-1"}`, "", "", ""},
	} {
		status, _, v := tc.send("POST", "/offers", tt.body)
		if status != 201 {
			t.Fatalf("POST /offers %s: %d %v", tt.body, status, v)
		}
		id := spec.ValueText(v.(map[string]any)["id"])
		_, _, back := tc.send("GET", "/offers/"+id, "")
		item := back.(map[string]any)
		price, isNumber := item["price"].(json.Number)
		if !isNumber || tt.price != "" && string(price) != tt.price {
			t.Errorf("%s: price %#v, want the number %s", tt.body, item["price"], tt.price)
		}
		stock, isNumber := item["stock"].(json.Number)
		if !isNumber || tt.stock != "" && string(stock) != tt.stock {
			t.Errorf("%s: stock %#v, want the integer %s", tt.body, item["stock"], tt.stock)
		}
		if _, ok := item["createdAt"].(string); !ok {
			t.Errorf("%s: createdAt %#v, want one made", tt.body, item["createdAt"])
		}
		seller, _ := item["seller"].(map[string]any)
		if _, ok := seller["rating"].(json.Number); !ok || tt.sellerName != "" && seller["name"] != tt.sellerName {
			t.Errorf("%s: seller %v, want %q with a rating made", tt.body, seller, tt.sellerName)
		}
		if item["title"] != map[string]string{"a": "a", "b": "b"}[string(tt.body[10])] {
			t.Errorf("%s: title %v, want it as sent", tt.body, item["title"])
		}
		// The list answers it as the read does.
		_, _, list := tc.send("GET", "/offers", "")
		found := false
		for _, it := range list.([]any) {
			if listed := it.(map[string]any); spec.ValueText(listed["id"]) == id {
				found = true
				if p, ok := listed["price"].(json.Number); !ok || p != price {
					t.Errorf("%s: GET /offers lists price %#v, want the number %s the read answers", tt.body, listed["price"], price)
				}
			}
		}
		if !found {
			t.Errorf("%s: GET /offers does not list offer %s", tt.body, id)
		}
	}
}

// TestJSONPatchUpdates: an update whose body is a JSON Patch (RFC 6902)
// applies its operations to the item, in order, and refuses one that
// names nothing of the item, changing nothing.
func TestJSONPatchUpdates(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Flags, version: '1'}
servers: [{url: /v1}]
paths:
  /flags:
    post:
      operationId: createFlag
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Flag'}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Flag'}}}}
  /flags/{key}:
    parameters: [{name: key, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getFlag
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Flag'}}}}
    patch:
      operationId: patchFlag
      requestBody: {required: true, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/PatchOperation'}}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Flag'}}}}
        '400': {description: bad patch}
components:
  schemas:
    PatchOperation:
      type: object
      required: [op, path]
      properties: {op: {type: string}, path: {type: string}, value: {}, from: {type: string}}
    Flag:
      type: object
      required: [key, name]
      properties:
        key: {type: string}
        name: {type: string}
        description: {type: string}
        tags: {type: array, items: {type: string}}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}})
	tc := &thingsClient{tb: t, c: c, base: base}
	if status, _, v := tc.send("POST", "/flags", `{"key":"dark-mode","name":"Dark mode","tags":["ui"]}`); status != 201 {
		t.Fatalf("POST /flags: %d %v", status, v)
	}
	for _, tt := range []struct {
		patch  string
		status int
		want   string // the item after, as JSON
	}{
		{`[{"op":"replace","path":"/name","value":"Dark"},{"op":"add","path":"/tags/-","value":"beta"},{"op":"add","path":"/description","value":"d"}]`, 200,
			`{"description":"d","key":"dark-mode","name":"Dark","tags":["ui","beta"]}`},
		{`[{"op":"remove","path":"/description"},{"op":"copy","from":"/name","path":"/tags/0"}]`, 200,
			`{"key":"dark-mode","name":"Dark","tags":["Dark","ui","beta"]}`},
		{`[{"op":"replace","path":"/name","value":"Lost"},{"op":"remove","path":"/nothing"}]`, 400,
			`{"key":"dark-mode","name":"Dark","tags":["Dark","ui","beta"]}`},
		// Operations named as ASP.NET Core reads them, Visma's Replace.
		{`[{"op":"Replace","path":"/name","value":"Darker"},{"op":"Remove","path":"/tags/0"}]`, 200,
			`{"key":"dark-mode","name":"Darker","tags":["ui","beta"]}`},
	} {
		status, _, v := tc.send("PATCH", "/flags/dark-mode", tt.patch)
		if status != tt.status {
			t.Errorf("PATCH %s: %d %v, want %d", tt.patch, status, v, tt.status)
		}
		_, _, back := tc.send("GET", "/flags/dark-mode", "")
		if got, _ := json.Marshal(back); string(got) != tt.want {
			t.Errorf("after PATCH %s: %s, want %s", tt.patch, got, tt.want)
		}
	}
}

// TestWrappedItemsRoundTrip: a resource whose operations answer the item
// inside an object, and take it so, as Asana's {"data":{...}} and
// Apideck's {"status":"OK","data":{...}}, is created, read, listed,
// replaced and deleted through those objects, each answer holding what
// the document requires beside the item, and the narrower answer of a
// delete holding what its schema declares.
func TestWrappedItemsRoundTrip(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Tasks, version: '1'}
servers: [{url: /v1}]
paths:
  /tasks:
    get:
      operationId: listTasks
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, required: [status, data], properties: {status: {type: string, enum: [OK]}, data: {type: array, items: {$ref: '#/components/schemas/Task'}}}}}}}
    post:
      operationId: createTask
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/TaskBody'}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/TaskAnswer'}}}}
  /tasks/{task_gid}:
    parameters: [{name: task_gid, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getTask
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/TaskAnswer'}}}}
        '404': {description: no such task}
    put:
      operationId: replaceTask
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/TaskBody'}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/TaskAnswer'}}}}
    delete:
      operationId: deleteTask
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [status, data]
                properties:
                  status: {type: string, enum: [OK]}
                  data: {type: object, additionalProperties: false, required: [gid], properties: {gid: {type: string}}}
components:
  schemas:
    TaskBody:
      type: object
      required: [data]
      properties:
        data: {type: object, required: [name], properties: {name: {type: string}, notes: {type: string}}}
    TaskAnswer:
      type: object
      required: [status, data]
      properties:
        status: {type: string, enum: [OK]}
        data: {$ref: '#/components/schemas/Task'}
    Task:
      type: object
      required: [gid, name]
      properties:
        gid: {type: string, readOnly: true}
        name: {type: string}
        notes: {type: string}
`))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Resource("tasks")
	if r == nil || r.Wrapped[r.Read] == nil || r.BodyWrapped[r.CreateOp] == nil {
		t.Fatalf("no resource tasks of wrapped items; notes %q", c.Notes)
	}
	_, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}})
	tc := &thingsClient{tb: t, c: c, r: r, base: base}
	status, _, v := tc.send("POST", "/tasks", `{"data":{"name":"Write","notes":"soon"}}`)
	created, ok := r.ItemOf(r.CreateOp, v)
	if status != 201 || !ok || created["name"] != "Write" || v.(map[string]any)["status"] != "OK" {
		t.Fatalf("POST /tasks: %d %v", status, v)
	}
	gid := created["gid"].(string)
	if _, _, v := tc.send("GET", "/tasks/"+gid, ""); !slices.Equal([]any{v.(map[string]any)["data"].(map[string]any)["notes"]}, []any{"soon"}) {
		t.Errorf("GET /tasks/%s: %v, want the task as created", gid, v)
	}
	if _, _, v := tc.send("GET", "/tasks", ""); !holdsID(r, v, gid) {
		t.Errorf("GET /tasks: %v, want task %s", v, gid)
	}
	if status, _, v := tc.send("PUT", "/tasks/"+gid, `{"data":{"name":"Rewrite"}}`); status != 200 || v.(map[string]any)["data"].(map[string]any)["name"] != "Rewrite" {
		t.Errorf("PUT /tasks/%s: %d %v", gid, status, v)
	}
	status, _, v = tc.send("DELETE", "/tasks/"+gid, "")
	if data, _ := v.(map[string]any)["data"].(map[string]any); status != 200 || len(data) != 1 || data["gid"] != gid {
		t.Errorf("DELETE /tasks/%s: %d %v, want the gid alone in data", gid, status, v)
	}
	if status, _, v := tc.send("GET", "/tasks/"+gid, ""); status != 404 {
		t.Errorf("GET /tasks/%s after its delete: %d %v", gid, status, v)
	}
}

// holdsID says whether v, a list answer of r, lists the item of id.
func holdsID(r *spec.Resource, v any, id string) bool {
	items, _ := r.ListItems(r.List, v)
	return slices.ContainsFunc(items, func(it any) bool {
		m, _ := it.(map[string]any)
		return spec.ValueText(m[r.IDProperty]) == id
	})
}

// TestListOfNarrowerItems: a list whose schema of an item declares fewer
// members than the read's, and takes no others, lists each item in its
// own shape; an id written to a string property whose path parameter
// has a pattern of its own matches that pattern.
func TestListOfNarrowerItems(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Notes, version: '1'}
servers: [{url: /v1}]
paths:
  /notes:
    get:
      operationId: listNotes
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Summary'}}}}}
    post:
      operationId: createNote
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewNote'}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
  /notes/{noteId}:
    get:
      operationId: getNote
      parameters: [{name: noteId, in: path, required: true, schema: {type: string, pattern: '^[a-f0-9]{24}$'}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
components:
  schemas:
    NewNote: {type: object, required: [title], properties: {title: {type: string}, body: {type: string}}}
    Summary: {type: object, additionalProperties: false, required: [id, title], properties: {id: {type: string}, title: {type: string}}}
    Note: {type: object, required: [id, title], properties: {id: {type: string, readOnly: true}, title: {type: string}, body: {type: string}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}})
	tc := &thingsClient{tb: t, c: c, r: c.Resource("notes"), base: base}
	status, _, v := tc.send("POST", "/notes", `{"title":"t","body":"b"}`)
	id, _ := v.(map[string]any)["id"].(string)
	if status != 201 || len(id) != 24 {
		t.Fatalf("POST /notes: %d %v, want an id of 24 hex digits", status, v)
	}
	if _, _, v := tc.send("GET", "/notes/"+id, ""); v.(map[string]any)["body"] != "b" {
		t.Errorf("GET /notes/%s: %v, want the body", id, v)
	}
	_, _, v = tc.send("GET", "/notes", "")
	if items, _ := v.([]any); len(items) != 1 || len(items[0].(map[string]any)) != 2 {
		t.Errorf("GET /notes: %v, want the note's id and title alone", v)
	}
}

// TestFlatItemsRoundTrip: items created below a parent, and read,
// replaced and deleted at a path of their own, as
// POST /configs/{configId}/settings and GET /settings/{settingId}: the
// create's Location is that path, the list below the parent holds only
// its own, and once deleted an item reads 404 and is listed no more.
func TestFlatItemsRoundTrip(t *testing.T) {
	// And where the item's parameter is named as its parent's, as
	// Billbee's /customers/addresses/{id} of /customers/{id}/addresses.
	sameNames := strings.NewReplacer("{configId}", "{id}", "{settingId}", "{id}", "name: configId", "name: id", "name: settingId", "name: id").Replace(flatSettings)
	for _, doc := range []string{flatSettings, sameNames} {
		flatItemsRoundTrip(t, doc)
	}
}

func flatItemsRoundTrip(t *testing.T, doc string) {
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Resource("settings")
	if r == nil || !r.Flat() {
		t.Fatalf("no flat resource settings; notes %q", c.Notes)
	}
	_, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}})
	tc := &thingsClient{tb: t, c: c, r: r, base: base}
	for _, name := range []string{"one", "two"} {
		if status, _, v := tc.send("POST", "/configs", `{"name":"`+name+`"}`); status != 201 {
			t.Fatalf("POST /configs: %d %v", status, v)
		}
	}
	// Config 2's first, so that the setting of config 1 has another id
	// than its config.
	if status, _, v := tc.send("POST", "/configs/2/settings", `{"key":"lang"}`); status != 201 {
		t.Fatalf("POST /configs/2/settings: %d %v", status, v)
	}
	status, h, v := tc.send("POST", "/configs/1/settings", `{"key":"theme","value":"dark"}`)
	if status != 201 {
		t.Fatalf("POST /configs/1/settings: %d %v", status, v)
	}
	id := v.(map[string]any)["id"].(string)
	if loc := h.Get("Location"); !strings.HasSuffix(loc, "/v1/settings/"+id) {
		t.Errorf("Location %q, want .../v1/settings/%s", loc, id)
	}
	if status, _, v := tc.send("POST", "/configs/3/settings", `{"key":"lost"}`); status != 404 {
		t.Errorf("POST /configs/3/settings, a config that is not there: %d %v, want 404", status, v)
	}
	if status, _, v := tc.send("GET", "/settings/"+id, ""); status != 200 || v.(map[string]any)["value"] != "dark" {
		t.Errorf("GET /settings/%s: %d %v", id, status, v)
	}
	_, _, v = tc.send("GET", "/configs/1/settings", "")
	if items, _ := r.ListItems(r.List, v); len(items) != 1 || !holdsID(r, v, id) {
		t.Errorf("GET /configs/1/settings: %v, want setting %s alone", v, id)
	}
	if status, _, v := tc.send("PUT", "/settings/"+id, `{"key":"theme","value":"light"}`); status != 200 || v.(map[string]any)["value"] != "light" {
		t.Errorf("PUT /settings/%s: %d %v", id, status, v)
	}
	if _, _, v := tc.send("GET", "/configs/1/settings", ""); !holdsID(r, v, id) {
		t.Errorf("after its replace, GET /configs/1/settings: %v, want setting %s still", v, id)
	}
	if status, _, v := tc.send("DELETE", "/settings/"+id, ""); status != 204 {
		t.Errorf("DELETE /settings/%s: %d %v", id, status, v)
	}
	if status, _, _ := tc.send("GET", "/settings/"+id, ""); status != 404 {
		t.Errorf("GET /settings/%s after its delete: %d, want 404", id, status)
	}
	if _, _, v := tc.send("GET", "/configs/1/settings", ""); holdsID(r, v, id) {
		t.Errorf("after its delete, GET /configs/1/settings: %v still lists %s", v, id)
	}
}

// flatSettings is a document of settings created below a config and
// read, replaced and deleted at a path of their own.
const flatSettings = `openapi: 3.0.3
info: {title: Settings, version: '1'}
servers: [{url: /v1}]
paths:
  /configs:
    post:
      operationId: createConfig
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Config'}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Config'}}}}
  /configs/{configId}:
    get:
      operationId: getConfig
      parameters: [{name: configId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Config'}}}}
  /configs/{configId}/settings:
    parameters: [{name: configId, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: listSettings
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {data: {type: array, items: {$ref: '#/components/schemas/Setting'}}}}}}}
    post:
      operationId: createSetting
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Setting'}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Setting'}}}}
        '404': {description: no such config}
  /settings/{settingId}:
    parameters: [{name: settingId, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getSetting
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Setting'}}}}
        '404': {description: no such setting}
    put:
      operationId: replaceSetting
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Setting'}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Setting'}}}}
    delete:
      operationId: deleteSetting
      responses:
        '204': {description: gone}
components:
  schemas:
    Config: {type: object, required: [name], properties: {id: {type: integer, readOnly: true}, name: {type: string}}}
    Setting: {type: object, required: [key], properties: {id: {type: string, readOnly: true}, key: {type: string}, value: {type: string}}}
`

// TestIDsOfAnExampleAreMadeAnew: ids whose schema gives one example,
// which is all the generator makes of it (LaunchDarkly's key of a
// project, Box's and Dialogporten's ids), are each item's own, in the
// catalogue and for every create that sends none, rather than the
// document refused; a schema of fewer names than the catalogue asks
// for, an enum, holds as many items as it names, with a warning.
func TestIDsOfAnExampleAreMadeAnew(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Projects, version: '1'}
servers: [{url: /v1}]
paths:
  /projects:
    get:
      operationId: listProjects
      parameters: [{name: limit, in: query, schema: {type: integer, maximum: 50}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Project'}}}}}
    post:
      operationId: createProject
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewProject'}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Project'}}}}
  /projects/{projectKey}:
    parameters: [{name: projectKey, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getProject
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Project'}}}}
        '404': {description: no such project}
  /colours:
    get:
      operationId: listColours
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Colour'}}}}}
    post:
      operationId: createColour
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Colour'}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Colour'}}}}
  /colours/{colourId}:
    parameters: [{name: colourId, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getColour
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Colour'}}}}
        '404': {description: no such colour}
components:
  schemas:
    NewProject:
      type: object
      required: [name]
      properties:
        key: {type: string, example: new-project}
        name: {type: string}
    Project:
      type: object
      required: [key, name]
      properties:
        key: {type: string, example: new-project}
        name: {type: string}
    Colour:
      type: object
      required: [id, name]
      properties:
        id: {type: string, enum: [red, green]}
        name: {type: string}
`))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Resource("projects")
	if r == nil || r.IDProperty != "key" || !r.IDSent {
		t.Fatalf("projects: %+v, want a resource of keys its create sends; notes %q", r, c.Notes)
	}
	srv, base := plainServer(t, mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Seed: 1, Count: 5}})
	tc := &thingsClient{tb: t, c: c, r: r, base: base}
	keys := map[string]bool{}
	_, _, v := tc.send("GET", "/projects?limit=50", "")
	for _, it := range v.([]any) {
		keys[it.(map[string]any)["key"].(string)] = true
	}
	if len(keys) != 5 {
		t.Errorf("GET /projects: %d keys of the 5 projects of the catalogue: %v", len(keys), v)
	}
	for range 2 {
		status, _, v := tc.send("POST", "/projects", `{"name":"p"}`)
		if status != 201 {
			t.Fatalf("POST /projects without a key: %d %v", status, v)
		}
		key := v.(map[string]any)["key"].(string)
		if keys[key] {
			t.Errorf("POST /projects without a key: %q, the key of another project", key)
		}
		keys[key] = true
		if status, _, _ := tc.send("GET", "/projects/"+url.PathEscape(key), ""); status != 200 {
			t.Errorf("GET /projects/%s of the project created: %d", key, status)
		}
	}
	const warning = "catalogue of colours: petmock finds no more than 2 names the schema of id allows, so the resource starts with that many items"
	if !slices.Contains(srv.Warnings(), warning) {
		t.Errorf("warnings %q, want %q", srv.Warnings(), warning)
	}
	if _, _, v := tc.send("GET", "/colours", ""); len(v.([]any)) != 2 {
		t.Errorf("GET /colours: %v, want the 2 colours of the enum", v)
	}
}

// TestNextLinkAsksAsTheFirstPage: the next link of a list asks again for
// the query parameters the first page was asked with, one the list
// requires (Asana's workspace) among them, so that following it lists
// every item; a parameter the list does not declare is not written in it.
func TestNextLinkAsksAsTheFirstPage(t *testing.T) {
	c := thingsDocument(t, "{type: array, items: {$ref: '#/components/schemas/Thing'}}",
		"{name: workspace, in: query, required: true, schema: {type: string}}")
	r := c.Resource("things")
	_, base := plainServer(t, mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Seed: 3, Count: 7}})
	tc := &thingsClient{tb: t, c: c, r: r, base: base}
	listed := 0
	for path, pages := "/things?workspace=w%201&limit=3&stray=x", 0; path != ""; pages++ {
		if pages > 10 {
			t.Fatal("more than 10 pages")
		}
		status, h, v := tc.send("GET", path, "")
		if status != 200 {
			t.Fatalf("GET %s: %d %v", path, status, v)
		}
		listed += len(v.([]any))
		path = ""
		if link := h.Get("Link"); link != "" {
			path = link[1:strings.IndexByte(link, '>')]
			if !strings.Contains(path, "workspace=w+1") || strings.Contains(path, "stray") {
				t.Errorf("the next link %s: want workspace=w+1 and no stray", path)
			}
		}
	}
	if listed != 7 {
		t.Errorf("the pages list %d things, want the 7 of the catalogue", listed)
	}
}

// TestFiltersOfRepeatedValues: a filter by the id, an array of the query
// (?id=1), lists the item of that id, of the catalogue or created; one
// given several values, repeated (id=1&id=2) or as its style writes a
// list (label=x,y), lists the items of any of them, page by page.
func TestFiltersOfRepeatedValues(t *testing.T) {
	c := thingsDocument(t, "{type: array, items: {$ref: '#/components/schemas/Thing'}}",
		"{name: id, in: query, schema: {type: array, items: {type: integer}}}",
		"{name: label, in: query, explode: false, schema: {type: array, items: {type: string}}}")
	r := c.Resource("things")
	_, base := plainServer(t, mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Seed: 3, Count: 7}})
	tc := &thingsClient{tb: t, c: c, r: r, base: base}
	if status, _, v := tc.send("POST", "/things", `{"label":"x"}`); status != 201 || fmt.Sprint(v.(map[string]any)["id"]) != "8" {
		t.Fatalf("POST /things: %d %v, want thing 8", status, v)
	}
	tc.send("POST", "/things", `{"label":"y"}`)
	for _, tt := range []struct{ query, want string }{
		{"id=1", "1"},
		{"id=8", "8"},
		{"id=1&id=2", "1 2"},
		{"id=3&id=5&id=42", "3 5"},
		{"id=42", ""},
		{"label=x,y", "8 9"},
		{"label=y&id=8&id=9", "9"},
		{"id=2&id=4&id=6&limit=1", "2 4 6"},
	} {
		var got []string
		for path := "/things?" + tt.query; path != ""; {
			status, h, v := tc.send("GET", path, "")
			if status != 200 {
				t.Fatalf("GET %s: %d %v", path, status, v)
			}
			for _, it := range v.([]any) {
				got = append(got, fmt.Sprint(it.(map[string]any)["id"]))
			}
			path = ""
			if link := h.Get("Link"); link != "" {
				path = link[1:strings.IndexByte(link, '>')]
			}
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("GET /things?%s lists %v, want %s", tt.query, got, tt.want)
		}
	}
}

// TestReplaceKeepsWhatTheItemRequires: a replace whose body leaves out
// what the item's schema requires, as Twitter's lists are replaced by a
// body of optional members only, keeps what the item held there, its
// name and the created_at only petmock writes, so that the item reads as
// its schema says; what the body sends replaces what was.
func TestReplaceKeepsWhatTheItemRequires(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Lists, version: '1'}
paths:
  /lists:
    post:
      operationId: createList
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}, description: {type: string}}}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/List'}}}}
  /lists/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getList
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/List'}}}}
        '404': {description: none}
    put:
      operationId: replaceList
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}, description: {type: string}}}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/List'}}}}
components:
  schemas:
    List:
      type: object
      required: [id, name, created_at]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string}
        description: {type: string}
        created_at: {type: string, format: date-time, readOnly: true}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, base := plainServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}})
	_, resp, body := fetch(t, "POST", base+"/lists", `{"name":"mine","description":"first"}`, "Content-Type", "application/json")
	var made map[string]any
	if resp.StatusCode != 201 || json.Unmarshal(body, &made) != nil {
		t.Fatalf("POST /lists: %d %s", resp.StatusCode, body)
	}
	id := made["id"].(string)
	if _, resp, body := fetch(t, "PUT", base+"/lists/"+id, `{"description":"second"}`, "Content-Type", "application/json"); resp.StatusCode != 200 {
		t.Fatalf("PUT /lists/%s: %d %s", id, resp.StatusCode, body)
	}
	req, resp, body := fetch(t, "GET", base+"/lists/"+id, "")
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("GET /lists/%s after its replace: %s: %v", id, body, err)
	}
	var read map[string]any
	json.Unmarshal(body, &read)
	if read["name"] != "mine" || read["description"] != "second" || read["created_at"] != made["created_at"] {
		t.Errorf("after a replace of its description: %s, want the name and created_at of %s, and the new description", body, made)
	}
}
