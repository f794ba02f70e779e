package catalogue

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
)

// A fixture holds the items of resources as JSON. For a document of one
// resource, such as the Petstore's, it is a JSON array of its items, the
// body of its list; for more, an object of one such array per resource,
// by name. petmock writes one item per line, so that fixtures under
// version control diff well, and reads any layout.

// FixtureError is a fixture that is not valid items of the document.
type FixtureError struct {
	Resource string      // of the item at fault; "" when the fixture as a whole is
	Index    int         // position of the first bad item, or -1 when its array is at fault
	Err      *edge.Error // what is wrong, naming the field
}

// Error names the item at fault, when there is one, and what is wrong.
func (e *FixtureError) Error() string {
	switch {
	case e.Resource == "":
		return e.Err.Message
	case e.Index < 0:
		return e.Resource + ": " + e.Err.Message
	}
	return fmt.Sprintf("%s[%d]: %s", e.Resource, e.Index, e.Err.Message)
}

// Unwrap returns the *edge.Error that says what is wrong.
func (e *FixtureError) Unwrap() error { return e.Err }

// WriteFixture writes items as a fixture: an array when the contract has
// one resource, an object of arrays otherwise.
func WriteFixture(w io.Writer, c *spec.Contract, items Items) error {
	if len(c.Resources) == 1 {
		return WriteItems(w, items[c.Resources[0].Name])
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("{")
	for i, r := range c.Resources {
		if i > 0 {
			bw.WriteString(",")
		}
		name, _ := json.Marshal(r.Name)
		bw.WriteString("\n  ")
		bw.Write(name)
		bw.WriteString(": ")
		writeArray(bw, items[r.Name], "  ")
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// WriteItems writes the items of one resource as a fixture, an array.
func WriteItems(w io.Writer, items []json.RawMessage) error {
	bw := bufio.NewWriter(w)
	writeArray(bw, items, "")
	bw.WriteString("\n")
	return bw.Flush()
}

// CreateBody returns the body that creates item through the create
// operation of the resource r: the item without its id and read-only
// properties, in the order the create schema gives. A string id that the
// create sends, such as a username, is kept: it names the item.
func CreateBody(c *spec.Contract, r *spec.Resource, item json.RawMessage) ([]byte, error) {
	v, e := edge.DecodeJSON(item)
	if e != nil {
		return nil, e
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the item is not a JSON object")
	}
	if !r.IDSent || !r.IDIsString {
		delete(m, r.IDProperty)
	}
	for _, p := range r.Properties {
		if p.Schema.ReadOnly {
			delete(m, p.Name)
		}
	}
	return shape.NewBuilder(c).Of(r.Create).AppendJSON(nil, m), nil
}

// writeArray writes items as a JSON array, one a line, indented by indent.
func writeArray(w *bufio.Writer, items []json.RawMessage, indent string) {
	w.WriteString("[")
	for i, item := range items {
		if i > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n  " + indent)
		w.Write(item)
	}
	w.WriteString("\n" + indent + "]")
}

// ReadFixture reads a fixture of the contract's resources and checks it
// item by item against their schemas: the first item that does not fit is
// named in the error, such as "pets[3]: status: must be one of available,
// pending, sold". Ids must be unique. It reads items as they come, so a
// fixture is never held in memory twice. A failure to read is returned as
// it is.
func ReadFixture(c *spec.Contract, r io.Reader) (Items, error) {
	shapes := shape.NewBuilder(c)
	resources := make([]*Resource, len(c.Resources))
	for i, res := range c.Resources {
		resources[i] = newResource(res, shapes, DefaultSeed)
	}
	loaded, err := readFixture(r, resources, nil)
	if err != nil {
		return nil, err
	}
	out := Items{}
	for rs, entries := range loaded {
		items := make([]json.RawMessage, len(entries))
		for i, e := range entries {
			items[i] = e.Text
		}
		out[rs.spec.Name] = items
	}
	return out, nil
}

// readFixture reads a fixture of resources into their checked entries, by
// resource: every fixture petmock reads is read here, whether a file of
// --fixtures or --state, or the body of PUT /__petmock/fixture or
// /__petmock/{resource}. With only set, the fixture is an array of only's
// items; otherwise an array is the first resource's items, and an object
// holds an array for each resource it names. A fixture's fault is a
// *FixtureError; a failure to read is returned as it is.
func readFixture(r io.Reader, resources []*Resource, only *Resource) (map[*Resource][]store.Entry, error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	dec.UseNumber()
	whole := func(format string, args ...any) error {
		return &FixtureError{Index: -1, Err: edge.BadRequest("fixture", format, args...)}
	}
	// malformed is the fixture's fault, or the reader's.
	malformed := func(err error, format string, args ...any) error {
		if readFailed(err) {
			return err
		}
		return whole(format, append(args, err)...)
	}
	loaded := map[*Resource][]store.Entry{}
	read := func(rs *Resource) error {
		entries, err := readItems(dec, rs)
		loaded[rs] = entries
		return err
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, malformed(err, "not JSON: %v")
	}
	switch {
	case only != nil:
		if tok != json.Delim('[') {
			return nil, whole("want a JSON array of %s", only.spec.Name)
		}
		if err := read(only); err != nil {
			return nil, err
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, whole("data after the array")
		}
		return loaded, nil
	case tok == json.Delim('['):
		if len(resources) == 0 {
			return nil, whole("the document has no resource to hold items")
		}
		if err := read(resources[0]); err != nil {
			return nil, err
		}
	case tok == json.Delim('{'):
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, malformed(err, "malformed JSON: %v")
			}
			name, _ := tok.(string)
			i := slices.IndexFunc(resources, func(rs *Resource) bool { return rs.spec.Name == name })
			if i < 0 {
				return nil, whole("%q is no resource of the document (it has %s)", name, resourceList(resources))
			}
			if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
				if err != nil && readFailed(err) {
					return nil, err
				}
				return nil, &FixtureError{Resource: name, Index: -1, Err: edge.BadRequest("fixture", "want a JSON array of %s", name)}
			}
			if err := read(resources[i]); err != nil {
				return nil, err
			}
		}
		if _, err := dec.Token(); err != nil {
			return nil, malformed(err, "malformed JSON: %v")
		}
	default:
		return nil, whole("want a JSON array of items, or an object of arrays by resource")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, whole("data after the fixture")
	}
	return loaded, nil
}

// readItems reads the items of rs from an array whose '[' has been read,
// and its ']', checking each one.
func readItems(dec *json.Decoder, rs *Resource) ([]store.Entry, error) {
	check := rs.newItemCheck()
	entries := []store.Entry{}
	i := 0
	for ; dec.More(); i++ {
		var v any
		if err := dec.Decode(&v); err != nil {
			if readFailed(err) {
				return nil, err
			}
			return nil, &FixtureError{Resource: rs.spec.Name, Index: i, Err: edge.BadRequest(rs.singular, "malformed JSON: %v", err)}
		}
		e, err := check.item(i, v)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	if _, err := dec.Token(); err != nil {
		if readFailed(err) {
			return nil, err
		}
		return nil, &FixtureError{Index: -1, Err: edge.BadRequest("fixture", "malformed JSON after %s[%d]: %v", rs.spec.Name, i-1, err)}
	}
	check.finish(entries)
	return entries, nil
}

// itemCheck checks the items of one resource in turn: each against the
// item schema, and its id against those of the items before it.
type itemCheck struct {
	rs    *Resource
	seen  map[int64]int  // the position of each id
	names map[string]int // the position of each name
}

func (rs *Resource) newItemCheck() *itemCheck {
	return &itemCheck{rs: rs, seen: map[int64]int{}, names: map[string]int{}}
}

// item checks the decoded item at position i and returns its entry; what
// is wrong with it is a *FixtureError that names it. An item known by a
// name has no id yet: finish gives it one.
func (c *itemCheck) item(i int, v any) (store.Entry, error) {
	rs := c.rs
	fault := func(e *edge.Error) error { return &FixtureError{Resource: rs.spec.Name, Index: i, Err: e} }
	e, err := rs.decodeItem(v)
	if err != nil {
		var fe *edge.Error
		if errors.As(err, &fe) {
			return store.Entry{}, fault(fe)
		}
		return store.Entry{}, err
	}
	if e.Name != "" {
		if j, dup := c.names[e.Name]; dup {
			return store.Entry{}, fault(edge.BadRequest(rs.spec.IDProperty, "%q is also the id of %s[%d]", e.Name, rs.spec.Name, j))
		}
		c.names[e.Name] = i
		return e, nil
	}
	if j, dup := c.seen[e.ID]; dup {
		if rs.spec.IDIsString {
			return store.Entry{}, fault(edge.BadRequest(rs.spec.IDProperty, "%q is also the id of %s[%d]", rs.ids.text(e.ID), rs.spec.Name, j))
		}
		return store.Entry{}, fault(edge.BadRequest(rs.spec.IDProperty, "%d is also the id of %s[%d]", e.ID, rs.spec.Name, j))
	}
	c.seen[e.ID] = i
	return e, nil
}

// finish gives the items known by names, in the order of the fixture,
// the smallest ids no other item of it has, so that a fixture of names
// lists in its own order.
func (c *itemCheck) finish(entries []store.Entry) {
	next := int64(1)
	for i := range entries {
		if entries[i].Name == "" {
			continue
		}
		for {
			if _, taken := c.seen[next]; !taken {
				break
			}
			next++
		}
		entries[i].ID = next
		next++
	}
}

// resourceList names resources, for messages.
func resourceList(resources []*Resource) string {
	var b bytes.Buffer
	for i, rs := range resources {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(rs.spec.Name)
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}

// readFailed reports whether err is a failure to read, such as a body cut
// at its limit, rather than bad JSON: it is returned as it is, for the
// caller to answer.
func readFailed(err error) bool {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return !errors.As(err, &syntax) && !errors.As(err, &typ) && err != io.ErrUnexpectedEOF && err != io.EOF
}

// decodeItem checks one decoded JSON value against the item schema and
// returns its entry, in the form petmock answers with.
func (rs *Resource) decodeItem(v any) (store.Entry, error) {
	if err := rs.spec.Item.VisitJSON(v, openapi3.DisableSchemaErrorDetails(), openapi3.VisitAsResponse()); err != nil {
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			return store.Entry{}, edge.SchemaError(rs.singular, se)
		}
		return store.Entry{}, edge.BadRequest(rs.singular, "%v", err)
	}
	if e := rs.shape.ExactIntegers(v, ""); e != nil {
		return store.Entry{}, edge.BadRequest(e.Field, "must be an integer (int%d)", e.Bits)
	}
	item, _ := v.(map[string]any)
	switch raw := item[rs.spec.IDProperty].(type) {
	case json.Number:
		if id, ok := spec.ExactInt64(string(raw)); ok && rs.ids.kind == idInteger {
			return rs.entry(id, "", item), nil
		}
	case string:
		if rs.ids.kind == idInteger {
			break
		}
		if id, ok := rs.ids.parse(raw); ok {
			return rs.entry(id, "", item), nil
		}
		if raw != "" {
			return rs.entry(0, raw, item), nil
		}
	}
	if rs.spec.IDIsString {
		return store.Entry{}, edge.BadRequest(rs.spec.IDProperty, "is required: a string that names the %s", rs.singular)
	}
	return store.Entry{}, edge.BadRequest(rs.spec.IDProperty, "must be an integer (int64), as petmock gives ids in order")
}

// entries reads items given as JSON texts, as Config.Items holds them.
func (rs *Resource) entries(items []json.RawMessage) ([]store.Entry, error) {
	out := make([]store.Entry, 0, len(items))
	check := rs.newItemCheck()
	for i, raw := range items {
		v, e := edge.DecodeJSON(raw)
		if e != nil {
			return nil, &FixtureError{Resource: rs.spec.Name, Index: i, Err: e}
		}
		entry, err := check.item(i, v)
		if err != nil {
			return nil, err
		}
		out = append(out, entry)
	}
	check.finish(out)
	return out, nil
}
