package catalogue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// Resource is the state of one resource of the document: its store and
// how its items are written. Its methods List, Create, Read, Replace,
// Update, Delete and Find answer the operations of the resource.
type Resource struct {
	set   *Resources // that it is one of
	spec  *spec.Resource
	store *store.Store
	start store.Mark   // the starting items, for reset
	shape *shape.Shape // of an item
	// singular names one item in messages, such as "pet".
	singular string
	// ids is how the ids of items are written and read back.
	ids ids
	// keyProps names the property of each filter key of the store: the
	// list's filters, in order, then the other properties finds filter
	// by. The key of the parent, if any, follows them.
	keyProps []string
	// finds are the filters of each find, by operation id.
	finds map[string][]keyedFilter
	// envelopes write the answers of the list and the finds whose
	// document answers their items inside an object, by operation.
	envelopes map[*spec.Operation]*envelope
	// listShapes write the items of the list and the finds whose
	// schema of an item is not the item's, by operation: the items are
	// written anew in that schema's shape, or as their ids.
	listShapes map[*spec.Operation]*listShape
	// wrapped write the answers of the operations that answer the item
	// inside an object, by operation.
	wrapped map[*spec.Operation]*itemWrapper
	// fitter makes what a client sends fit the item's schema; nil where
	// the schemas of the bodies and the item's agree.
	fitter *fitter
	// parent is the resource whose item holds the items, such as the
	// owners of /owners/{ownerId}/pets, or nil; parentKey is the index of
	// the key of an item's parent among the store's keys, or -1 for a
	// resource of no parent params.
	parent    *Resource
	parentKey int
	// flat is the item path of items read at a path of their own rather
	// than below the parent their collection names, such as
	// /settings/{settingId} of /configs/{configId}/settings; nil for
	// others.
	flat *spec.PathTemplate
	// nkeys is the number of keys of an item in the store.
	nkeys int
	// note says how the ids are written, when the document's schema of
	// them is not one petmock writes in order; "" otherwise.
	note string
	// writeOnly says that an item may hold members only written, which
	// are not kept: no answer holds them.
	writeOnly bool
	// filled notes the required properties items kept were given.
	filled filled
	// pages are the pages of lists answered, kept for the requests that
	// ask for them again while the store holds the same (pages.go).
	pages pages
}

// keyedFilter is a filter of a find, with the index of its key in the
// store.
type keyedFilter struct {
	spec.Filter
	key int
}

// newResource returns the state of r, whose new ids, where made, are
// drawn from seed.
func newResource(r *spec.Resource, shapes *shape.Builder, seed uint64) *Resource {
	rs := &Resource{
		spec:      r,
		shape:     shapes.Item(r),
		singular:  spec.Singular(r.Name),
		finds:     map[string][]keyedFilter{},
		parentKey: -1,
	}
	rs.ids, rs.note = newIDs(r, seed)
	rs.writeOnly = spec.HasWriteOnly(r.Item)
	for _, f := range r.Filters {
		rs.keyProps = append(rs.keyProps, f.Name())
	}
	for _, find := range r.Finds {
		for _, f := range find.Filters {
			i := slices.Index(rs.keyProps, f.Name())
			if i < 0 {
				i = len(rs.keyProps)
				rs.keyProps = append(rs.keyProps, f.Name())
			}
			rs.finds[find.Op.ID] = append(rs.finds[find.Op.ID], keyedFilter{f, i})
		}
	}
	keys := len(rs.keyProps)
	if len(r.ParentParams) > 0 {
		rs.parentKey = keys
		keys++
	}
	rs.nkeys = keys
	rs.store = store.New(r.Name, keys)
	if r.Flat() {
		rs.flat, _ = spec.ParsePath(r.ItemPath)
	}
	return rs
}

// Spec returns the resource as the document gives it.
func (rs *Resource) Spec() *spec.Resource { return rs.spec }

// Store returns the store of the resource's items.
func (rs *Resource) Store() *store.Store { return rs.store }

// pageWithoutLimit is the size of the pages of a list whose document gives
// it no limit parameter: the list is still paged, with the same links.
const pageWithoutLimit = 100

// entry returns the store entry of item, a decoded JSON object, with the
// id set to id, or to name for an item known by a name. Its parent is the
// one its property of the parent's name says, if any: see withParent.
func (rs *Resource) entry(id int64, name string, item map[string]any) store.Entry {
	if rs.writeOnly {
		spec.DropWriteOnly(item, rs.spec.Item)
	}
	rs.setID(item, id, name)
	// The text is made in a pooled buffer and copied out once, to the
	// size it has, and a byte more for the newline a create's answer
	// appends: grown from nothing it took three allocations.
	buf := getBuffer()
	text := rs.shape.AppendJSON((*buf)[:0], item)
	e := store.Entry{ID: id, Name: name, Text: append(make([]byte, 0, len(text)+1), text...)}
	*buf = text
	putBuffer(buf)
	e.Keys = make([]string, rs.nkeys)
	rs.keys(item, e.Keys)
	return e
}

// setID sets the id property of item to id, or to name for an item known
// by a name.
func (rs *Resource) setID(item map[string]any, id int64, name string) {
	switch {
	case name != "":
		item[rs.spec.IDProperty] = name
	case rs.ids.kind == idInteger:
		item[rs.spec.IDProperty] = json.Number(strconv.FormatInt(id, 10))
	default:
		item[rs.spec.IDProperty] = rs.ids.text(id)
	}
}

// appendEntry is entry for a catalogue: the text is appended to buf, which
// it returns, and the filter keys are left for keys to fill. The id is
// written as it is, not set in item, and only the members the item's
// schema lists are, but where whole, when the id is set and every member
// written, as a created item's are.
func (rs *Resource) appendEntry(buf []byte, id int64, name string, item map[string]any, whole bool) (store.Entry, []byte) {
	if rs.writeOnly {
		spec.DropWriteOnly(item, rs.spec.Item)
	}
	start := len(buf)
	if whole {
		rs.setID(item, id, name)
		buf = rs.shape.AppendJSON(buf, item)
		return store.Entry{ID: id, Name: name, Text: buf[start:len(buf):len(buf)]}, buf
	}
	buf = rs.shape.AppendItem(buf, item, func(dst []byte) []byte {
		if name != "" {
			return shape.AppendString(dst, name)
		}
		return rs.ids.appendJSON(dst, id)
	})
	return store.Entry{ID: id, Name: name, Text: buf[start:len(buf):len(buf)]}, buf
}

// keys fills keys with the filter keys of item, and the key of its parent
// as its property of the parent's name gives it.
func (rs *Resource) keys(item map[string]any, keys []string) {
	for i, name := range rs.keyProps {
		v, ok := item[name]
		keys[i] = shape.FilterKey(v, ok)
	}
	if rs.parentKey >= 0 {
		keys[rs.parentKey] = shape.AbsentKey
		if ps := rs.spec.ParentParams; len(ps) == 1 {
			if v, ok := item[ps[0]]; ok {
				keys[rs.parentKey] = shape.FilterKey(v, true)
			}
		}
	}
}

// withDefaults sets the properties a created item lacks to the values
// x-petmock-defaults gives.
func (rs *Resource) withDefaults(item map[string]any) {
	for name, v := range rs.spec.Defaults {
		if _, ok := item[name]; !ok {
			item[name] = jsonValue(v)
		}
	}
}

// jsonValue returns a value read from the document as a decoded body has
// it, with json.Number for numbers.
func jsonValue(v any) any {
	switch v := v.(type) {
	case float64:
		return json.Number(strconv.FormatFloat(v, 'f', -1, 64))
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = jsonValue(e)
		}
		return out
	}
	return v
}

// held is an item a request names, as the store holds it.
type held struct {
	id   int64
	name string // the id clients know it by, when a name of the store's
	text []byte
	keys []string
}

// find finds the item a request names: by the id parameter of its path,
// or, for an operation of the collection, by the id property of its body.
// An item below another parent than the request's is not found.
func (rs *Resource) find(c *edge.Call) (held, error) {
	var text string
	if rs.spec.ByBody(c.Op.Spec) {
		body, _ := rs.body(c).(map[string]any)
		switch v := body[rs.spec.IDProperty].(type) {
		case json.Number:
			text = string(v)
		case string:
			text = v
		default:
			return held{}, edge.BadRequest(rs.spec.IDProperty, "is required: it names the %s to change", rs.singular)
		}
	} else {
		text = c.Params[rs.spec.IDParam]
		if rs.spec.IDIsString {
			// Path parameters come as they are on the wire: a name
			// such as "Tom Ford" is held unescaped.
			if v, err := url.PathUnescape(text); err == nil {
				text = v
			}
		}
	}
	it, ok := rs.lookup(text)
	if !ok || !rs.ofParent(it, c) {
		return held{}, rs.notFound(c, text)
	}
	return it, nil
}

// parseInt reads an integer id as a path or a body gives it; a body's may
// be written as 1e2.
func parseInt(text string) (int64, bool) {
	if id, err := strconv.ParseInt(text, 10, 64); err == nil {
		return id, true
	}
	return spec.ExactInt64(text)
}

// lookup finds the item whose id is text, as clients know it.
func (rs *Resource) lookup(text string) (held, bool) {
	var it held
	var ok bool
	switch {
	case rs.ids.kind == idInteger:
		it.id, ok = parseInt(text)
	default:
		if it.id, ok = rs.ids.parse(text); !ok {
			it.id, ok = rs.store.ID(text)
			it.name = text
		}
	}
	if !ok {
		return held{}, false
	}
	it.text, it.keys, ok = rs.store.Lookup(it.id)
	return it, ok
}

// idText returns the id of the item of id and name as clients know it.
func (rs *Resource) idText(id int64, name string) string {
	if name != "" {
		return name
	}
	return rs.ids.text(id)
}

// notFound is the 404 of an id, as a request gave it, that no item has.
func (rs *Resource) notFound(c *edge.Call, id string) *edge.Error {
	field := rs.spec.IDParam
	if rs.spec.ByBody(c.Op.Spec) {
		field = rs.spec.IDProperty
	}
	return edge.NewError(http.StatusNotFound, field, "no %s has id %s", rs.singular, id)
}

// locationURL returns the URL of the item of id, which the request r, c,
// created: r's origin, then the item's path below the collection the
// request named, below the base path the create is served below; made in
// one buffer.
func (rs *Resource) locationURL(r *http.Request, c *edge.Call, id string) string {
	var b [128]byte
	u := edge.AppendOrigin(b[:0], r)
	if rs.flat != nil {
		u = append(u, rs.flatBase()...)
		u = append(u, rs.flat.ExpandRaw(map[string]string{rs.spec.IDParam: url.PathEscape(id)})...)
	} else {
		u = append(u, rs.spec.CreateOp.Base...)
		u = append(u, rs.spec.CreateOp.Template.ExpandRaw(c.Params)...)
		u = append(u, '/')
		u = append(u, url.PathEscape(id)...)
	}
	return string(u)
}

// flatBase returns the base path the item path of a flat resource is
// served below: that of an operation on it, which may have servers of
// its own, or else the create's.
func (rs *Resource) flatBase() string {
	for _, op := range []*spec.Operation{rs.spec.Read, rs.spec.Replace, rs.spec.Update, rs.spec.Delete} {
		if op != nil && op.Path == rs.spec.ItemPath {
			return op.Base
		}
	}
	return rs.spec.CreateOp.Base
}

// List answers a list: items ordered by id, at most the limit, those the
// filters ask for, with a Link to the next page when more follow.
func (rs *Resource) List(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
	paging := rs.spec.Paging
	pg := store.Page{After: c.After, Limit: pageWithoutLimit}
	if paging.Limit != "" {
		pg.Limit = paging.Default
		if v := c.First(paging.Limit); v != "" {
			pg.Limit, _ = strconv.Atoi(v) // validated: an integer within the bounds
		}
	}
	var asked []string // the filters given, as name=value, for the next link
	for i, f := range rs.spec.Filters {
		if m, values, ok := queryMatch(f, i, c.Query); ok {
			pg.Where = append(pg.Where, m)
			asked = append(asked, values...)
		}
	}
	return rs.writePage(w, r, c, pg, asked)
}

// writePage answers a list or a find with the page pg of the items below
// the request's parent; asked are the filters given, as name, value
// pairs, for the link to the next page.
func (rs *Resource) writePage(w http.ResponseWriter, r *http.Request, c *edge.Call, pg store.Page, asked []string) error {
	if rs.parentKey >= 0 {
		if e := rs.checkParent(c); e != nil {
			return e
		}
		pg.Where = append(pg.Where, store.Match{Filter: rs.parentKey, Key: rs.parentOf(c)})
	}
	v := rs.store.View(pg)
	env := rs.envelopes[c.Op.Spec]
	reshape := rs.listShapes[c.Op.Spec]
	if v.MayExceed(maxPooledBuffer) && reshape == nil {
		return rs.streamPage(w, r, c, v, pg, asked, env)
	}
	key := keyOf(r, c.Op.Spec)
	if kp := rs.pages.find(key, v); kp != nil {
		if kp.link != nil {
			w.Header()["Link"] = kp.link
		}
		edge.WriteSharedBody(w, c.Op.Spec.Success, c.Op.ContentType, kp.length, kp.body)
		return nil
	}
	buf := getBuffer()
	defer putBuffer(buf)
	if env != nil {
		*buf = append(*buf, env.open...)
	}
	start := len(*buf)
	body, last, more := v.AppendTo(*buf)
	if reshape != nil {
		body = append(body[:start], reshape.reshaped(body[start:])...)
	}
	kp := &keptPage{state: v.State()}
	var next string
	if more {
		next = rs.setNextLink(w, r, c, pg.Limit, asked, last)
		kp.link = w.Header()["Link"]
	}
	if env != nil {
		body = env.closed(body, start, env.close(rs.pageOf(c, pg, next, last, more)))
	}
	*buf = append(body, '\n')
	kp.body = append(make([]byte, 0, len(*buf)), *buf...)
	kp.length = edge.ContentLength(kp.body)
	rs.pages.keep(key, kp)
	edge.WriteSharedBody(w, c.Op.Spec.Success, c.Op.ContentType, kp.length, kp.body)
	return nil
}

// streamPage answers a list whose page may be too large to copy into a
// buffer: items may be up to a mebibyte each, and a hundred of them for
// each of many clients at once would take gigabytes. The page is written
// from the store's memory instead, item by item.
func (rs *Resource) streamPage(w http.ResponseWriter, r *http.Request, c *edge.Call, v store.PageView, pg store.Page, asked []string, env *envelope) error {
	size, last, more := v.Measure()
	var next string
	if more {
		next = rs.setNextLink(w, r, c, pg.Limit, asked, last)
	}
	var open, closing []byte
	if env != nil {
		open, closing = env.open, env.close(rs.pageOf(c, pg, next, last, more))
		if env.bare && size == len("[]") {
			// No items, their property left out: the answer is all
			// the envelope's.
			edge.WriteBody(w, c.Op.Spec.Success, c.Op.ContentType, append(env.withoutItems(closing), '\n'))
			return nil
		}
	}
	h := w.Header()
	h["Content-Type"] = c.Op.ContentType
	h["Content-Length"] = []string{strconv.Itoa(len(open) + size + len(closing) + len("\n"))}
	w.WriteHeader(c.Op.Spec.Success)
	if r.Method == http.MethodHead {
		return nil
	}
	// A client that goes away mid-page gets nothing more, and there is
	// nothing left to tell it.
	w.Write(open)
	if _, err := v.WriteTo(w); err == nil {
		w.Write(closing)
		io.WriteString(w, "\n")
	}
	return nil
}

// setNextLink sets the Link to the page after the item with id last, and
// returns its URL.
func (rs *Resource) setNextLink(w http.ResponseWriter, r *http.Request, c *edge.Call, limit int, asked []string, last int64) string {
	paging := rs.spec.Paging
	if c.Op.Spec != rs.spec.List {
		paging = spec.Paging{Cursor: rs.spec.Cursor(c.Op.Spec)}
	}
	link := nextLink(r, c.Op.Spec.Base+c.Op.Spec.Template.ExpandRaw(c.Params), paging, limit, nextQuery(c, paging, asked), last)
	w.Header()["Link"] = []string{link}
	return link[1:strings.IndexByte(link, '>')]
}

// queryKey returns the filter key of a query value: the same key as the
// item's value it names.
func queryKey(f spec.Filter, v string) string {
	switch spec.TypeOf(f.Schema) {
	case "integer", "number":
		return shape.NumberKey(v)
	case "boolean":
		if b, err := strconv.ParseBool(v); err == nil {
			return strconv.FormatBool(b)
		}
	}
	return v
}

// buffers holds page buffers between requests: a page is written into one,
// copied out by the ResponseWriter, and the buffer is used again.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func getBuffer() *[]byte { return buffers.Get().(*[]byte) }

// maxPooledBuffer is the largest buffer the pool keeps, and so the
// largest page built in one: a page that may be larger is streamed.
const maxPooledBuffer = 64 << 10

// putBuffer returns a buffer to the pool, unless it grew too large to
// keep around.
func putBuffer(b *[]byte) {
	if cap(*b) > maxPooledBuffer {
		return
	}
	*b = (*b)[:0]
	buffers.Put(b)
}

// Create answers a create: the item stored under a new id, with the
// defaults of the properties it lacks, below the parent the path names,
// and its Location.
func (rs *Resource) Create(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
	item, _ := rs.body(c).(map[string]any)
	var sent map[string]any // as sent, where the answer is not the item
	if s := c.Op.Spec.JSONSchema(c.Op.Spec.Success); s != nil && s != rs.spec.Item && rs.wrapped[c.Op.Spec] == nil {
		sent = maps.Clone(item)
	}
	rs.withDefaults(item)
	if e := rs.checkParent(c); e != nil {
		return e
	}
	rs.setParent(item, c)
	rs.fitter.fit(item)
	e, err := rs.add(c, item)
	if err != nil {
		return err
	}
	if unkept := rs.set.kept(r.Context()); unkept != nil {
		return unkept
	}
	id := rs.idText(e.ID, e.Name)
	w.Header()["Location"] = []string{rs.locationURL(r, c, id)}
	s := c.Op.Spec.JSONSchema(c.Op.Spec.Success)
	if s == nil && !schemalessJSON(c.Op.Spec, c.Op.Spec.Success) {
		w.WriteHeader(c.Op.Spec.Success)
		return nil
	}
	if body := createdID(s, id); body != nil {
		edge.WriteBody(w, c.Op.Spec.Success, c.Op.ContentType, body)
		return nil
	}
	if rs.wrapped[c.Op.Spec] != nil {
		rs.writeItem(w, c.Op, c.Op.Spec.Success, e.Text, e.ID, e.Name)
		return nil
	}
	if body := rs.createdOther(s, e.Text, id, sent); body != nil {
		edge.WriteBody(w, c.Op.Spec.Success, c.Op.ContentType, body)
		return nil
	}
	if body := rs.createdValid(s, e.Text, id); body != nil {
		edge.WriteBody(w, c.Op.Spec.Success, c.Op.ContentType, body)
		return nil
	}
	// The text is the one built for the store, which kept a copy: it is
	// this answer's to extend.
	body := append(e.Text, '\n')
	edge.WriteSharedBody(w, c.Op.Spec.Success, c.Op.ContentType, edge.ContentLength(body), body)
	return nil
}

// createdID returns the answer of a create whose documented success is
// not the item but a string or a number, such as Dialogporten's 201 with
// the new id: the id, where s takes it; nil where the success is the item,
// or s takes no id.
func createdID(s *openapi3.Schema, id string) []byte {
	var v any
	var err error
	switch spec.TypeOf(s) {
	case "string":
		v = id
	case "integer", "number":
		v = json.Number(id)
		if _, err := v.(json.Number).Float64(); err != nil {
			return nil
		}
	default:
		return nil
	}
	if s.VisitJSON(v, openapi3.VisitAsResponse(), openapi3.DisableSchemaErrorDetails()) != nil {
		// An id the schema does not take, such as a number where it asks
		// for a UUID: a value of the schema, the same for the same id.
		gen := &fake.Generator{Faker: fake.NewFaker(hashString(id)), Examples: true}
		if v, err = gen.Valid(s, fake.Hint{}); err != nil {
			return nil
		}
	}
	return append(shape.Marshal(v), '\n')
}

// createdOther returns the answer of a create whose documented success is
// an object of another schema than the item's, which the item, text, does
// not match, as Learnifier's member added is answered {"uuid": ...}
// where its item is a user of an id: the members of s the item holds, the
// id under the name its path gives it, and values of s for the members it
// requires that the item does not hold. A member s declares that the item
// does not hold is answered as sent, where s takes it: BigOven's recipe
// created is answered with the HeroPhotoUrl sent, which its read does not
// declare. It returns nil where the success is the item's schema, or one
// the item matches and that declares nothing more that was sent, or where
// no such answer is valid.
func (rs *Resource) createdOther(s *openapi3.Schema, text []byte, id string, sent map[string]any) []byte {
	if s == rs.spec.Item || spec.TypeOf(s) != "object" {
		return nil
	}
	decoded, err := edge.DecodeJSON(text)
	item, ok := decoded.(map[string]any)
	if err != nil || !ok {
		return nil
	}
	opts := []openapi3.SchemaValidationOption{openapi3.VisitAsResponse(), openapi3.DisableSchemaErrorDetails()}
	props := rs.set.contract.Properties(s)
	echoed := map[string]any{}
	for _, p := range props {
		v, was := sent[p.Name]
		if !was || p.Name == rs.spec.IDProperty || p.Schema.WriteOnly || p.Schema.VisitJSON(v, opts...) != nil {
			// The id is the one the item is kept under, whatever was
			// sent: SendGrid's campaign created with an id of its
			// example was answered with that id and a Location of its
			// own.
			continue
		}
		// What the item holds otherwise, as it was made to fit the
		// item's schema, is answered as sent where s takes it so:
		// Telstra's message sent to two numbers is answered with both,
		// and read with one.
		if held, ok := item[p.Name]; !ok || !bytes.Equal(shape.Marshal(held), shape.Marshal(v)) {
			echoed[p.Name] = v
		}
	}
	if s.VisitJSON(item, opts...) == nil {
		if len(echoed) == 0 {
			return nil
		}
		out := maps.Clone(item)
		maps.Copy(out, echoed)
		if s.VisitJSON(out, opts...) != nil {
			return nil
		}
		return append(shape.Marshal(out), '\n')
	}
	out := map[string]any{}
	gen := &fake.Generator{Faker: fake.NewFaker(hashString(id)), Examples: true}
	for _, p := range props {
		v, held := item[p.Name]
		e, was := echoed[p.Name]
		switch {
		case was:
			out[p.Name] = e
		case held && p.Schema.VisitJSON(v, opts...) == nil:
			out[p.Name] = v
		case p.Name == rs.spec.IDParam || p.Name == rs.spec.IDProperty || p.Name == "id":
			// The id, written as the schema takes it: Tradematic's
			// connection is read with a connectionid of a string and
			// created with one of an integer.
			out[p.Name] = spec.TextValue(p.Schema, id)
			if p.Schema.VisitJSON(out[p.Name], opts...) != nil {
				// An id the schema does not take: a value of it, the
				// same for the same id.
				made, err := gen.Valid(p.Schema, fake.Hint{Property: p.Name, Resource: rs.spec.Name})
				if err != nil {
					return nil
				}
				out[p.Name] = made
			}
		case held, p.Required:
			made, err := gen.Valid(p.Schema, fake.Hint{Property: p.Name, Resource: rs.spec.Name})
			if err != nil {
				return nil
			}
			out[p.Name] = made
		}
	}
	if s.VisitJSON(out, opts...) != nil {
		return nil
	}
	return append(shape.Marshal(out), '\n')
}

// createdValid returns the answer of a create whose documented success is
// a schema other than the item's that the item, text, does not match, as
// Sakari's contact created is answered with a page of contacts or the
// report of an upload, a oneOf of the two whose every member the bare item
// matches, so that it matches no one of them: a value of s, the same for
// the same id. It returns nil where s is the item's schema, or one the
// item matches, or one of which no value can be made.
func (rs *Resource) createdValid(s *openapi3.Schema, text []byte, id string) []byte {
	if s == nil || s == rs.spec.Item {
		return nil
	}
	var item any
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if dec.Decode(&item) != nil {
		return nil
	}
	gen := &fake.Generator{Contract: rs.set.contract, Examples: true}
	if gen.Matches(s, item) {
		return nil
	}
	gen.Faker = fake.NewFaker(hashString(id)) // only to make a value
	if v := rs.holdingItem(s, item, gen); v != nil {
		return append(shape.Marshal(v), '\n')
	}
	v, err := gen.Valid(s, fake.Hint{Resource: rs.spec.Name})
	if err != nil {
		return nil
	}
	return append(shape.Marshal(v), '\n')
}

// holdingItem returns a value of s that holds item: the item alone where s
// is a list of items; where s, or one of its alternatives, has a member of
// the item's schema or a list of them, as Sakari's page of contacts holds
// its contacts in data, a value made of that alternative, with the item,
// or a list of the item alone, in that member; nil where there is no such
// member, or no such value matches s.
func (rs *Resource) holdingItem(s *openapi3.Schema, item any, gen *fake.Generator) any {
	if s.Items != nil && s.Items.Value == rs.spec.Item && gen.Matches(s, []any{item}) {
		// A list of items, as ETSI's package created is answered.
		return []any{item}
	}
	alternatives := []*openapi3.Schema{s}
	for _, ref := range append(slices.Clone(s.OneOf), s.AnyOf...) {
		if ref != nil && ref.Value != nil {
			alternatives = append(alternatives, ref.Value)
		}
	}
	for _, alt := range alternatives {
		for _, p := range rs.set.contract.Properties(alt) {
			var held any
			switch {
			case p.Schema == rs.spec.Item:
				held = item
			case p.Schema != nil && p.Schema.Items != nil && p.Schema.Items.Value == rs.spec.Item:
				held = []any{item}
			default:
				continue
			}
			made, err := gen.Valid(alt, fake.Hint{Resource: rs.spec.Name})
			m, isObject := made.(map[string]any)
			if err != nil || !isObject {
				continue
			}
			m[p.Name] = held
			if gen.Matches(s, m) {
				return m
			}
		}
	}
	return nil
}

// add stores item, created by the request c, below the request's
// parent: under the id the request sends, where the create sends ids,
// in place of the item of that id if there is one, as the servers of
// such documents do; else under the next id, named, where ids are
// names, by one made for it.
func (rs *Resource) add(c *edge.Call, item map[string]any) (store.Entry, error) {
	if !rs.spec.IDSent && !rs.ids.named && rs.parentKey < 0 {
		// The Petstore's: the next id, and nothing else to decide.
		return rs.store.Add(func(id int64) (store.Entry, error) { return rs.entry(id, "", item), nil })
	}
	parent := rs.parentOf(c)
	withParent := func(e store.Entry) store.Entry {
		if rs.parentKey >= 0 {
			e.Keys[rs.parentKey] = parent
		}
		return e
	}
	build := func(name func(id int64) string) (store.Entry, error) {
		return rs.store.Add(func(id int64) (store.Entry, error) { return withParent(rs.entry(id, name(id), item)), nil })
	}
	var sent any
	if rs.spec.IDSent {
		if sent = item[rs.spec.IDProperty]; sent != nil && !rs.addressable(sent) {
			sent = nil
		}
	}
	switch v := sent.(type) {
	case json.Number:
		if id, ok := spec.ExactInt64(string(v)); ok && rs.spec.IDSent && rs.ids.kind == idInteger {
			e := withParent(rs.entry(id, "", item))
			_, err := rs.store.Set(e)
			return e, err
		}
	case string:
		if v == "" || !rs.spec.IDSent || !rs.ids.named {
			break
		}
		// A Delete or a create of the same name in between makes the
		// first attempt miss; the second finds what it left.
		for range 2 {
			if id, ok := rs.store.ID(v); ok {
				e := withParent(rs.entry(id, v, item))
				if found, err := rs.store.Put(e); found || err != nil {
					return e, err
				}
				continue
			}
			e, err := build(func(int64) string { return v })
			if !errors.Is(err, store.ErrNameTaken) {
				return e, err
			}
		}
		return store.Entry{}, edge.NewError(http.StatusConflict, rs.spec.IDProperty, "%s was created and removed by others while this create was made; send it again", v)
	}
	if !rs.ids.named {
		return build(func(int64) string { return "" })
	}
	for try := 0; try < maxIDTries; try++ {
		e, err := build(func(id int64) string { return rs.ids.made(id, try) })
		if !errors.Is(err, store.ErrNameTaken) {
			return e, err
		}
	}
	return store.Entry{}, edge.NewError(http.StatusConflict, rs.spec.IDProperty, "the ids petmock made for a new %s are all taken; send one", rs.singular)
}

// addressable reports whether the id v, as a create sends it, is one the
// item path takes: an id its parameter's schema refuses, such as 500000
// where it takes up to 100000, would name an item no read can reach, and
// is not kept.
func (rs *Resource) addressable(v any) bool {
	for _, op := range []*spec.Operation{rs.spec.Read, rs.spec.Delete, rs.spec.Replace, rs.spec.Update} {
		if op == nil || rs.spec.ByBody(op) {
			continue
		}
		if p := op.Parameter("path", rs.spec.IDParam); p != nil && p.Schema != nil && p.Schema.Value != nil {
			if spec.TypeOf(p.Schema.Value) == "string" {
				if n, ok := v.(json.Number); ok {
					v = string(n)
				}
			}
			return p.Schema.Value.VisitJSON(v) == nil
		}
	}
	return true
}

// Read answers a read: the item, or 404. links, when not nil, is told
// the filter keys of the item read, to set the links of the answer, such
// as a deprecated read's to its successor.
func (rs *Resource) Read(w http.ResponseWriter, r *http.Request, c *edge.Call, links func(h http.Header, r *http.Request, keys []string)) error {
	it, err := rs.find(c)
	if err != nil {
		return err
	}
	if links != nil {
		links(w.Header(), r, it.keys)
	}
	rs.writeItem(w, c.Op, c.Op.Spec.Success, it.text, it.id, it.name)
	return nil
}

// Replace answers a replace: the item becomes the body, with the defaults
// of the properties it lacks, under the same id and parent.
func (rs *Resource) Replace(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
	it, err := rs.find(c)
	if err != nil {
		return err
	}
	item, _ := rs.body(c).(map[string]any)
	rs.keepRequired(item, it)
	rs.withDefaults(item)
	rs.setParent(item, c)
	rs.fitter.fit(item)
	return rs.put(w, r, c, it, item)
}

// keepRequired sets in item, the body of a replace of it, what the item's
// schema requires and the body leaves out to what it held: Twitter's list
// is replaced by a body of which every member is optional, and read with
// the name it requires; a member only the server writes, such as a
// created_at, keeps its value too.
func (rs *Resource) keepRequired(item map[string]any, it held) {
	if item == nil {
		return
	}
	var current map[string]any
	for _, name := range spec.RequiredNames(rs.spec.Item) {
		if _, sent := item[name]; sent || name == rs.spec.IDProperty {
			continue
		}
		if current == nil {
			v, err := edge.DecodeJSON(it.text)
			if current, _ = v.(map[string]any); err != nil || current == nil {
				return
			}
		}
		if v, ok := current[name]; ok {
			item[name] = v
		}
	}
}

// Update answers an update: the body is merged into the item as a JSON
// merge patch (RFC 7396): a member replaces the item's, null removes it,
// and an object is merged member by member; or, an array, it is applied
// to it as a JSON Patch (RFC 6902). The result must still be an item of
// the schema.
func (rs *Resource) Update(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
	it, err := rs.find(c)
	if err != nil {
		return err
	}
	current, e := edge.DecodeJSON(it.text)
	if e != nil {
		return fmt.Errorf("stored %s %d does not decode: %v", rs.singular, it.id, e)
	}
	changed, err := patched(current, rs.body(c))
	if err != nil {
		return err
	}
	merged, ok := changed.(map[string]any)
	if !ok {
		return edge.BadRequest("body", "the patch leaves no JSON object of the %s", rs.singular)
	}
	rs.setParent(merged, c)
	rs.fitter.fitUpdate(merged, rs.body(c))
	rs.declaredOnly(merged)
	// The merge may break what the schema of an item requires, such as
	// a required property patched to null: that is the client's request
	// at fault.
	check := map[string]any{}
	for k, v := range merged {
		check[k] = v
	}
	rs.setID(check, it.id, it.name)
	if rs.writeOnly {
		// Sent, but not kept: the item is checked as it is answered.
		spec.DropWriteOnly(check, rs.spec.Item)
	}
	if err := rs.spec.Item.VisitJSON(check, openapi3.VisitAsResponse(), openapi3.DisableSchemaErrorDetails()); err != nil {
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			return edge.SchemaError("body", se)
		}
		return edge.BadRequest("body", "%v", err)
	}
	return rs.put(w, r, c, it, merged)
}

// put stores item in place of the item it was, and answers with it. The
// item keeps its id, its name and its parent.
func (rs *Resource) put(w http.ResponseWriter, r *http.Request, c *edge.Call, it held, item map[string]any) error {
	e := rs.entry(it.id, it.name, item)
	if rs.parentKey >= 0 {
		e.Keys[rs.parentKey] = it.keys[rs.parentKey]
	}
	found, err := rs.store.Put(e)
	switch {
	case err != nil:
		return err
	case !found:
		return rs.notFound(c, rs.idText(it.id, it.name))
	}
	if unkept := rs.set.kept(r.Context()); unkept != nil {
		return unkept
	}
	if s := c.Op.Spec.JSONSchema(c.Op.Spec.Success); rs.wrapped[c.Op.Spec] == nil && s != nil && s != rs.spec.Item {
		sent, _ := rs.body(c).(map[string]any)
		if body := rs.changedValid(s, e.Text, sent, rs.idText(it.id, it.name)); body != nil {
			edge.WriteBody(w, c.Op.Spec.Success, c.Op.ContentType, body)
			return nil
		}
	}
	rs.writeItem(w, c.Op, c.Op.Spec.Success, e.Text, it.id, it.name)
	return nil
}

// changedValid returns the answer of a replace or an update whose
// documented success is of a schema s that is not the item's, and that
// the item changed, whose text is text, does not match, as ETSI's package
// modified is answered with the modifications, {"operationState": ...},
// which its item names otherwise: the item with what was sent over it,
// where that matches s, or else a value of s as a create's would be
// (createdValid); nil where the item matches s.
func (rs *Resource) changedValid(s *openapi3.Schema, text []byte, sent map[string]any, id string) []byte {
	var item map[string]any
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if dec.Decode(&item) != nil || item == nil {
		return nil
	}
	gen := &fake.Generator{Contract: rs.set.contract, Examples: true}
	if gen.Matches(s, item) {
		return nil
	}
	if len(sent) > 0 {
		over := maps.Clone(item)
		maps.Copy(over, sent)
		spec.DropWriteOnly(over, s) // a password sent is not answered
		if gen.Matches(s, over) {
			return append(shape.Marshal(over), '\n')
		}
	}
	return rs.createdValid(s, text, id)
}

// Delete answers a delete: the item is gone.
func (rs *Resource) Delete(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
	it, err := rs.find(c)
	if err != nil {
		return err
	}
	switch found, err := rs.store.Delete(it.id); {
	case err != nil:
		return err
	case !found:
		return rs.notFound(c, rs.idText(it.id, it.name))
	}
	if unkept := rs.set.kept(r.Context()); unkept != nil {
		return unkept
	}
	// A delete documented to answer another schema than the item's, as
	// doqs.dev's {"results": null}, answers a value of it.
	if s := c.Op.Spec.JSONSchema(c.Op.Spec.Success); rs.wrapped[c.Op.Spec] == nil && s != nil && s != rs.spec.Item {
		if body := rs.changedValid(s, it.text, nil, rs.idText(it.id, it.name)); body != nil {
			edge.WriteBody(w, c.Op.Spec.Success, c.Op.ContentType, body)
			return nil
		}
	}
	rs.writeItem(w, c.Op, c.Op.Spec.Success, it.text, it.id, it.name)
	return nil
}

// writeItem answers with the item's text, or with no body when the
// operation documents none for status, such as a 204.
func writeItem(w http.ResponseWriter, op *edge.Operation, status int, text []byte) {
	if op.Spec.JSONSchema(status) == nil && !schemalessJSON(op.Spec, status) {
		w.WriteHeader(status)
		return
	}
	edge.WriteBody(w, status, op.ContentTypeOf(status), append(text[:len(text):len(text)], '\n'))
}

// schemalessJSON reports whether op answers status with JSON of no
// schema: a JSON media type the document gives no schema, as dev.to's
// page created gives application/json an example only. Any JSON is such
// an answer, and the item is the one it holds.
func schemalessJSON(op *spec.Operation, status int) bool {
	r := op.Response(status)
	if r == nil {
		return false
	}
	_, mt := spec.JSONMedia(r.Content)
	return mt != nil
}

// mergePatch applies a JSON merge patch (RFC 7396) to target.
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	out := make(map[string]any, len(t)+len(p))
	for k, v := range t {
		out[k] = v
	}
	for k, v := range p {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = mergePatch(out[k], v)
	}
	return out
}
