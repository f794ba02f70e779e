package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
)

// resource is the state of one resource of the document: its store and
// how its items are written.
type resource struct {
	spec  *spec.Resource
	store *store.Store
	start store.Mark // the starting items, for reset
	shape *shape     // of an item
	// singular names one item in messages, such as "pet".
	singular string
}

func newResource(r *spec.Resource, shapes *shapes) *resource {
	return &resource{
		spec:     r,
		store:    store.New(r.Name, len(r.Filters)),
		shape:    shapes.item(r),
		singular: singular(r.Name),
	}
}

// singular returns the name of one item of a collection, such as "pet" of
// "pets" and "category" of "categories".
func singular(name string) string {
	switch {
	case strings.HasSuffix(name, "ies"):
		return name[:len(name)-3] + "y"
	case strings.HasSuffix(name, "sses"), strings.HasSuffix(name, "xes"):
		return name[:len(name)-2]
	case strings.HasSuffix(name, "s") && len(name) > 1:
		return name[:len(name)-1]
	}
	return name
}

// pageWithoutLimit is the size of the pages of a list whose document gives
// it no limit parameter: the list is still paged, with the same links.
const pageWithoutLimit = 100

// entry returns the store entry of item, a decoded JSON object, with the
// id set to id.
func (rs *resource) entry(id int64, item map[string]any) store.Entry {
	if rs.spec.IDIsString {
		item[rs.spec.IDProperty] = strconv.FormatInt(id, 10)
	} else {
		item[rs.spec.IDProperty] = json.Number(strconv.FormatInt(id, 10))
	}
	e := store.Entry{ID: id, Text: rs.shape.appendJSON(nil, item)}
	e.Keys = make([]string, len(rs.spec.Filters))
	rs.keys(item, e.Keys)
	return e
}

// appendEntry is entry for a catalogue: the text is appended to buf, which
// it returns, and the filter keys are left for keys to fill. The id is
// written as it is, not set in item.
func (rs *resource) appendEntry(buf []byte, id int64, item map[string]any) (store.Entry, []byte) {
	start := len(buf)
	buf = rs.shape.appendItem(buf, id, rs.spec.IDIsString, item)
	return store.Entry{ID: id, Text: buf[start:len(buf):len(buf)]}, buf
}

// keys fills keys with the filter keys of item.
func (rs *resource) keys(item map[string]any, keys []string) {
	for i, f := range rs.spec.Filters {
		v, ok := item[f.Name()]
		keys[i] = filterKey(v, ok)
	}
}

// withDefaults sets the properties a created item lacks to the values
// x-petmock-defaults gives.
func (rs *resource) withDefaults(item map[string]any) {
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

// id reads the id of the item a request names, from its path parameter.
// The parameter was validated; for an integer id that is not one, ok is
// false: no item has that id.
func (rs *resource) id(c *call) (int64, bool) {
	v := c.params[rs.spec.IDParam]
	id, err := strconv.ParseInt(v, 10, 64)
	return id, err == nil
}

// notFound is the 404 of an id no item has.
func (rs *resource) notFound(c *call) *Error {
	return NewError(http.StatusNotFound, rs.spec.IDParam, "no %s has id %s", rs.singular, c.params[rs.spec.IDParam])
}

// location returns the path of the item of id below the collection the
// request named.
func (rs *resource) location(s *Server, c *call, id int64) string {
	return s.base + rs.spec.List.Template.ExpandRaw(c.params) + "/" + strconv.FormatInt(id, 10)
}

// list answers a list: items ordered by id, at most the limit, those the
// filters ask for, with a Link to the next page when more follow.
func (s *Server) list(w http.ResponseWriter, r *http.Request, c *call) error {
	rs := c.op.resource
	paging := rs.spec.Paging
	pg := store.Page{After: c.after, Limit: pageWithoutLimit}
	if paging.Limit != "" {
		pg.Limit = paging.Default
		if v := first(c.query, paging.Limit); v != "" {
			pg.Limit, _ = strconv.Atoi(v) // validated: an integer within the bounds
		}
	}
	var asked []string // the filters given, as name=value, for the next link
	for i, f := range rs.spec.Filters {
		v, ok := c.query[f.Name()]
		if !ok || len(v) == 0 {
			continue
		}
		pg.Where = append(pg.Where, store.Match{Filter: i, Key: queryKey(f, v[0])})
		asked = append(asked, f.Name(), v[0])
	}
	v := rs.store.View(pg)
	if v.MayExceed(maxPooledBuffer) {
		return s.streamPage(w, r, c, v, pg.Limit, asked)
	}
	buf := getBuffer()
	defer putBuffer(buf)
	body, last, more := v.AppendTo(*buf)
	if more {
		s.setNextLink(w, r, c, pg.Limit, asked, last)
	}
	*buf = append(body, '\n')
	writeBody(w, c.op.spec.Success, c.op.contentType, *buf)
	return nil
}

// streamPage answers a list whose page may be too large to copy into a
// buffer: items may be up to a mebibyte each, and a hundred of them for
// each of many clients at once would take gigabytes. The page is written
// from the store's memory instead, item by item.
func (s *Server) streamPage(w http.ResponseWriter, r *http.Request, c *call, v store.PageView, limit int, asked []string) error {
	size, last, more := v.Measure()
	if more {
		s.setNextLink(w, r, c, limit, asked, last)
	}
	h := w.Header()
	h["Content-Type"] = c.op.contentType
	h["Content-Length"] = []string{strconv.Itoa(size + len("\n"))}
	w.WriteHeader(c.op.spec.Success)
	if r.Method == http.MethodHead {
		return nil
	}
	// A client that goes away mid-page gets nothing more, and there is
	// nothing left to tell it.
	if _, err := v.WriteTo(w); err == nil {
		io.WriteString(w, "\n")
	}
	return nil
}

// setNextLink sets the Link to the page after the item with id last.
func (s *Server) setNextLink(w http.ResponseWriter, r *http.Request, c *call, limit int, asked []string, last int64) {
	rs := c.op.resource
	w.Header()["Link"] = []string{nextLink(r, s.base+rs.spec.List.Template.ExpandRaw(c.params), rs.spec.Paging, limit, asked, last)}
}

// queryKey returns the filter key of a query value: the same key as the
// item's value it names.
func queryKey(f spec.Filter, v string) string {
	switch spec.TypeOf(f.Schema) {
	case "integer", "number":
		return numberKey(v)
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

// create answers a create: the item stored under a new id, with the
// defaults of the properties it lacks, and its Location.
func (s *Server) create(w http.ResponseWriter, r *http.Request, c *call) error {
	rs := c.op.resource
	item, _ := c.body.(map[string]any)
	rs.withDefaults(item)
	e, err := rs.store.Add(func(id int64) (store.Entry, error) { return rs.entry(id, item), nil })
	if err != nil {
		return err
	}
	if unkept := s.kept(r.Context()); unkept != nil {
		return unkept
	}
	w.Header().Set("Location", AbsoluteURL(r, rs.location(s, c, e.ID)))
	if c.op.spec.JSONSchema(c.op.spec.Success) == nil {
		w.WriteHeader(c.op.spec.Success)
		return nil
	}
	// The text is the one built for the store, which kept a copy: it is
	// this answer's to extend.
	writeBody(w, c.op.spec.Success, c.op.contentType, append(e.Text, '\n'))
	return nil
}

// read answers a read: the item, or 404.
func (s *Server) read(w http.ResponseWriter, r *http.Request, c *call) error {
	rs := c.op.resource
	id, ok := rs.id(c)
	if !ok {
		return rs.notFound(c)
	}
	text, keys, found := rs.store.Lookup(id)
	if !found {
		return rs.notFound(c)
	}
	if d := c.op.deprecation; d != nil {
		d.setHeaders(w.Header(), r, d.successorQuery(rs.spec, keys))
	}
	s.writeItem(w, c.op, c.op.spec.Success, text)
	return nil
}

// replace answers a replace: the item becomes the body, with the defaults
// of the properties it lacks, under the same id.
func (s *Server) replace(w http.ResponseWriter, r *http.Request, c *call) error {
	rs := c.op.resource
	id, ok := rs.id(c)
	if !ok {
		return rs.notFound(c)
	}
	item, _ := c.body.(map[string]any)
	rs.withDefaults(item)
	return s.put(w, r, c, rs.entry(id, item))
}

// update answers an update: the body is merged into the item as a JSON
// merge patch (RFC 7396): a member replaces the item's, null removes it,
// and an object is merged member by member. The result must still be an
// item of the schema.
func (s *Server) update(w http.ResponseWriter, r *http.Request, c *call) error {
	rs := c.op.resource
	id, ok := rs.id(c)
	if !ok {
		return rs.notFound(c)
	}
	text, _, found := rs.store.Lookup(id)
	if !found {
		return rs.notFound(c)
	}
	current, err := decodeJSON(text)
	if err != nil {
		return fmt.Errorf("stored %s %d does not decode: %v", rs.singular, id, err)
	}
	merged, _ := mergePatch(current, c.body).(map[string]any)
	delete(merged, rs.spec.IDProperty)
	// The merge may break what the schema of an item requires, such as
	// a required property patched to null: that is the client's request
	// at fault.
	check := map[string]any{}
	for k, v := range merged {
		check[k] = v
	}
	check[rs.spec.IDProperty] = json.Number(strconv.FormatInt(id, 10))
	if rs.spec.IDIsString {
		check[rs.spec.IDProperty] = strconv.FormatInt(id, 10)
	}
	if err := rs.spec.Item.VisitJSON(check, openapi3.VisitAsResponse(), openapi3.DisableSchemaErrorDetails()); err != nil {
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			return schemaError("body", se)
		}
		return badRequest("body", "%v", err)
	}
	return s.put(w, r, c, rs.entry(id, merged))
}

// put stores e in place of the item of its id and answers with it.
func (s *Server) put(w http.ResponseWriter, r *http.Request, c *call, e store.Entry) error {
	rs := c.op.resource
	found, err := rs.store.Put(e)
	switch {
	case err != nil:
		return err
	case !found:
		return rs.notFound(c)
	}
	if unkept := s.kept(r.Context()); unkept != nil {
		return unkept
	}
	s.writeItem(w, c.op, c.op.spec.Success, e.Text)
	return nil
}

// remove answers a delete: the item is gone.
func (s *Server) remove(w http.ResponseWriter, r *http.Request, c *call) error {
	rs := c.op.resource
	id, ok := rs.id(c)
	if !ok {
		return rs.notFound(c)
	}
	text, _, found := rs.store.Lookup(id)
	if !found || !rs.store.Delete(id) {
		return rs.notFound(c)
	}
	if unkept := s.kept(r.Context()); unkept != nil {
		return unkept
	}
	s.writeItem(w, c.op, c.op.spec.Success, text)
	return nil
}

// writeItem answers with the item's text, or with no body when the
// operation documents none for status, such as a 204.
func (s *Server) writeItem(w http.ResponseWriter, op *operation, status int, text []byte) {
	if op.spec.JSONSchema(status) == nil {
		w.WriteHeader(status)
		return
	}
	writeBody(w, status, op.contentTypeOf(status), append(text[:len(text):len(text)], '\n'))
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
