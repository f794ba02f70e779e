package spec

import (
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Envelope is how a list answers its items inside an object rather than as
// the JSON array itself, as most real APIs do: Stripe's
// {"object":"list","data":[...],"has_more":false,"url":"/v1/customers"},
// Box's {"entries":[...],"limit":100,"next_marker":"..."}, AutoRest's
// {"value":[...],"nextLink":"..."}. One property holds the items of the
// page; siblings may link to the next page, carry its cursor, count the
// items of every page, or say whether more follow. Each sibling is a
// path of property names, such as ["links", "next"] of Train Travel's
// {"data":[...],"links":{"self":"...","next":"..."}}.
type Envelope struct {
	// Schema is the schema of the whole answer.
	Schema *openapi3.Schema
	// Items is the property that holds the items of the page, such as
	// "data".
	Items string
	// Next is the property that links to the next page, such as
	// ["nextLink"] or ["links", "next"]; nil when none does.
	Next []string
	// Cursor is the property that holds the cursor of the next page,
	// which the list takes back in its query parameter Paging.Cursor,
	// such as Box's ["next_marker"], taken back as marker; nil when none
	// does, or when the list has no such parameter.
	Cursor []string
	// Total is the property that counts the items of every page, such as
	// ["total_count"]; nil when none does.
	Total []string
	// More is the boolean property that says whether another page
	// follows, such as Stripe's ["has_more"]; nil when none does.
	More []string
}

// Property returns the schema of the property at path, or nil.
func (e *Envelope) Property(c *Contract, path []string) *openapi3.Schema {
	s := e.Schema
	for _, name := range path {
		i := slices.IndexFunc(c.Properties(s), func(p Property) bool { return p.Name == name })
		if i < 0 {
			return nil
		}
		s = c.Properties(s)[i].Schema
	}
	return s
}

// LeavesOutNone reports whether a page of no items leaves out the Items
// property, as Twitter's lists leave out data: it is not required, and
// takes at least one item.
func (e *Envelope) LeavesOutNone(c *Contract) bool {
	for _, p := range c.Properties(e.Schema) {
		if p.Name == e.Items {
			return !p.Required && p.Schema.VisitJSON([]any{}, SchemaOptions(c.Doc)...) != nil
		}
	}
	return false
}

// ItemsOf returns the items of a list answer v, decoded JSON: v itself, an
// array, when e is nil, else the array its Items property holds, or none
// where v leaves the property out, as Twitter's lists leave out data, an
// array of at least one item, for no items (a document that requires the
// property says so in its schema). ok is false when v holds something
// else there.
func (e *Envelope) ItemsOf(v any) (items []any, ok bool) {
	if e == nil {
		items, ok = v.([]any)
		return items, ok
	}
	m, isObject := v.(map[string]any)
	if !isObject {
		return nil, false
	}
	held, present := m[e.Items]
	if !present {
		return nil, true
	}
	items, ok = held.([]any)
	return items, ok
}

// Lookup returns the value at path in v, decoded JSON, such as the next
// link of a page at e.Next; ok is false when v has none there.
func Lookup(v any, path []string) (value any, ok bool) {
	value = v
	for _, name := range path {
		m, isObject := value.(map[string]any)
		if !isObject {
			return nil, false
		}
		if value, ok = m[name]; !ok {
			return nil, false
		}
	}
	return value, len(path) > 0
}

// The items of an envelope are the property of an object answer that is
// an array of objects: the only one, or one of the names APIs give them.
var itemsNames = []string{"data", "items", "value", "values", "entries", "results", "records", "elements", "list", "collection", "content"}

// Names of the siblings of the items, compared as looseName writes them.
var (
	nextNames = []string{"next", "nextlink", "nexturl", "nextpage", "nextpageurl", "nextpagelink", "odata.nextlink"}
	// hrefNames link to the next page as members of an object named as
	// nextNames are: _links.next.href, next_page.uri.
	hrefNames   = []string{"href", "uri", "url", "link"}
	cursorNames = []string{"nextmarker", "nextcursor", "cursor", "continue", "continuationtoken", "nextpagetoken", "nexttoken", "pagetoken", "endcursor", "offset", "after", "marker"}
	totalNames  = []string{"total", "totalcount", "totalentries", "totalresults", "totalitems", "totalsize", "totalrecords", "count", "size"}
	moreNames   = []string{"hasmore", "hasnextpage", "hasnext", "more", "hasmoreitems"}
)

// envelope reads the envelope of a list answer of schema s, of items of
// the schema item when known (nil otherwise), for the list op, whose
// query parameters may take back a cursor. It returns nil when s is not
// an object of one array of objects that could hold the items, with why.
func (c *Contract) envelope(s, item *openapi3.Schema, collection string, op *Operation) (*Envelope, string) {
	if schemaType(s) != "object" {
		return nil, "not a JSON array or an object that holds one"
	}
	props := c.Properties(s)
	var arrays []Property
	for _, p := range props {
		if schemaType(p.Schema) == "array" && p.Schema.Items != nil && p.Schema.Items.Value != nil && schemaType(p.Schema.Items.Value) == "object" {
			arrays = append(arrays, p)
		}
	}
	// Arrays of the item's own schema, where there are any, are the
	// candidates.
	if item != nil {
		if same := slices.DeleteFunc(slices.Clone(arrays), func(p Property) bool { return p.Schema.Items.Value != item }); len(same) > 0 {
			arrays = same
		}
	}
	var found *Property
	if len(arrays) == 1 {
		found = &arrays[0]
	}
	for _, name := range append(slices.Clone(itemsNames), looseName(collection)) {
		if i := slices.IndexFunc(arrays, func(p Property) bool { return looseName(p.Name) == name }); found == nil && i >= 0 {
			found = &arrays[i]
		}
	}
	switch {
	case found == nil && len(arrays) == 0:
		return nil, "not a JSON array, nor an object with an array of objects among its properties"
	case found == nil:
		var names []string
		for _, p := range arrays {
			names = append(names, p.Name)
		}
		return nil, "an object of several arrays (" + strings.Join(names, ", ") + "), none of them named as the items of a list are"
	}
	e := &Envelope{Schema: s, Items: found.Name}
	var visit func(props []Property, at []string)
	visit = func(props []Property, at []string) {
		for _, p := range props {
			if len(at) == 0 && p.Name == e.Items {
				continue
			}
			path := append(slices.Clone(at), p.Name)
			name := looseName(p.Name)
			switch t := schemaType(p.Schema); {
			case t == "string" && e.Cursor == nil && (slices.Contains(cursorNames, name) || slices.Contains(nextNames, name)) && cursorParam(op, p.Name) != nil:
				// Stripe's next_page, taken back as page, is a cursor.
				e.Cursor = path
			case t == "string" && e.Next == nil && (slices.Contains(nextNames, name) || slices.Contains(hrefNames, name) && len(at) > 0 && slices.Contains(nextNames, looseName(at[len(at)-1]))):
				e.Next = path
			case t == "integer" && e.Total == nil && slices.Contains(totalNames, name):
				e.Total = path
			case t == "boolean" && e.More == nil && slices.Contains(moreNames, name):
				e.More = path
			case t == "object" && len(at) == 0:
				// links.next, _links.next.href, meta.total_count,
				// metadata.continue, next_page.uri: one level down.
				visit(c.Properties(p.Schema), path)
			case t == "object" && len(at) == 1 && slices.Contains(nextNames, name):
				visit(c.Properties(p.Schema), path)
			}
		}
	}
	visit(props, nil)
	return e, ""
}

// sampleCursor is a cursor as petmock writes them, opaque base64url text
// (the cursor of the page after id 42): a cursor parameter of the
// document must take it for petmock's cursors to travel in it.
const sampleCursor = "AQAAAAAAAAAq"

// cursorParam returns the string query parameter of op that takes back
// the cursor a sibling of that name carries: next_marker back as marker,
// nextPageToken as pageToken, continuationToken as itself; nil when op
// has none, or when its schema refuses a cursor as petmock writes them.
func cursorParam(op *Operation, sibling string) *openapi3.Parameter {
	if op == nil {
		return nil
	}
	want := looseName(sibling)
	bare := strings.TrimPrefix(want, "next")
	for _, p := range op.Parameters {
		if p.In != openapi3.ParameterInQuery || p.Schema == nil || p.Schema.Value == nil {
			continue
		}
		if n := looseName(p.Name); n != want && n != bare {
			continue
		}
		if schemaType(p.Schema.Value) != "string" || p.Schema.Value.VisitJSON(sampleCursor) != nil {
			return nil
		}
		return p
	}
	return nil
}
