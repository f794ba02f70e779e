package catalogue

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// A list whose document answers its items inside an object, such as
// {"data":[...],"has_more":true,"url":"/v1/customers"}, is answered as the
// store's page of items in that object: its items property first, then
// the siblings the document requires, made once from their schemas (the
// object: "list" of Stripe), and those that say where the list goes on,
// written for each page so that they agree with it: the link to the next
// page, the same as the Link header's; the cursor the list takes back; the
// count of the items of every page the filters select; whether more
// follow. On the last page, a link or a cursor is left out, or null where
// the document requires it and allows null.

// envelope writes the answers of one list or find in its envelope.
type envelope struct {
	spec *spec.Envelope
	// open is the text the answer begins with: {"data":
	open []byte
	// rest are the siblings of the items every answer has, made once;
	// each answer writes a copy with its own next, cursor, total and
	// more.
	rest  map[string]any
	shape *shape.Shape // of the whole answer
	// On the last page, the next link and the cursor are null where
	// nullNext and nullCursor say so, else cut at the length cutNext and
	// cutCursor of their paths; the made value stays where it is 0 (see
	// lastPage).
	nullNext, nullCursor bool
	cutNext, cutCursor   int
	// bare is whether a page of no items leaves its items property out:
	// Twitter's lists document data as an array of at least one item,
	// not required, and answer none for no items.
	bare bool
}

// newEnvelope returns the writer of the answers of a list in e, with the
// siblings the document requires made by gen, or a warning when they
// cannot be made, in which case they are left out.
func newEnvelope(c *spec.Contract, e *spec.Envelope, shapes *shape.Builder, gen *fake.Generator, where string) (*envelope, string) {
	key, _ := json.Marshal(e.Items)
	out := &envelope{spec: e, open: append(append([]byte{'{'}, key...), ':'), shape: shapes.Of(e.Schema), rest: map[string]any{}}
	var failed []string
	required := func(s *openapi3.Schema, into map[string]any, skip string) {
		for _, p := range c.Properties(s) {
			if !p.Required || p.Name == skip {
				continue
			}
			v, err := gen.Valid(p.Schema, fake.Hint{Property: p.Name})
			if err != nil {
				failed = append(failed, p.Name)
				continue
			}
			into[p.Name] = v
		}
	}
	required(e.Schema, out.rest, e.Items)
	// The objects a sibling below the top lies in, such as links of
	// links.next, are there in every answer, with what they require.
	for _, path := range [][]string{e.Next, e.Cursor, e.Total, e.More} {
		at := out.rest
		for i, name := range path[:max(len(path)-1, 0)] {
			next, ok := at[name].(map[string]any)
			if !ok {
				next = map[string]any{}
				required(e.Property(c, path[:i+1]), next, "")
				at[name] = next
			}
			at = next
		}
	}
	out.bare = e.LeavesOutNone(c)
	out.cutNext, out.nullNext = lastPage(c, e, e.Next)
	out.cutCursor, out.nullCursor = lastPage(c, e, e.Cursor)
	if len(failed) > 0 {
		return out, fmt.Sprintf("%s: no value made for %s of the list's answer matches its schema, so the list answers without it", where, strings.Join(failed, " and "))
	}
	return out, ""
}

// lastPage says what the last page writes at path, a sibling that says
// where the list goes on: nothing, where the document does not require
// it; else null, where it allows null; else nothing in place of the
// nearest object it lies in that the document does not require (cut is
// the length of the path to that object); else the value made.
func lastPage(c *spec.Contract, e *spec.Envelope, path []string) (cut int, null bool) {
	for n := len(path); n > 0; n-- {
		parent := e.Schema
		if n > 1 {
			parent = e.Property(c, path[:n-1])
		}
		i := slices.IndexFunc(c.Properties(parent), func(p spec.Property) bool { return p.Name == path[n-1] })
		if i < 0 {
			return n, false
		}
		p := c.Properties(parent)[i]
		switch {
		case !p.Required:
			return n, false
		case n == len(path) && p.Schema.VisitJSON(nil, spec.SchemaOptions(c.Doc)...) == nil:
			return 0, true
		}
	}
	return 0, false
}

// page is what the siblings of one page say.
type page struct {
	next   string // the link to the next page, "" on the last
	cursor string // the cursor of the next page, "" on the last
	total  int
	more   bool
}

// close returns the text the answer of a page ends with, after its
// items: its siblings, and the closing brace.
func (e *envelope) close(pg page) []byte {
	m := maps.Clone(e.rest)
	e.set(m, e.spec.Next, pg.next, e.nullNext, e.cutNext)
	e.set(m, e.spec.Cursor, pg.cursor, e.nullCursor, e.cutCursor)
	if e.spec.Total != nil {
		e.put(m, e.spec.Total, json.Number(strconv.Itoa(pg.total)))
	}
	if e.spec.More != nil {
		e.put(m, e.spec.More, pg.more)
	}
	text := e.shape.AppendJSON(nil, m)
	if len(text) == 2 { // {}
		return []byte{'}'}
	}
	text[0] = ','
	return text
}

// closed appends to body, the answer of a page up to its items, which
// begin at start, the text the answer ends with, closing; a page of no
// items leaves out its items property where the envelope is bare.
func (e *envelope) closed(body []byte, start int, closing []byte) []byte {
	if !e.bare || string(body[start:]) != "[]" {
		return append(body, closing...)
	}
	return append(body[:start-len(e.open)], e.withoutItems(closing)...)
}

// withoutItems returns the answer of a page of no items that leaves out
// its items property, whose text after its items would be closing.
func (e *envelope) withoutItems(closing []byte) []byte {
	if closing[0] == ',' {
		return append([]byte{'{'}, closing[1:]...)
	}
	return []byte("{}")
}

// set writes a link or a cursor: v, or on the last page, null, nothing
// in place of the path's first cut names, or the value made.
func (e *envelope) set(m map[string]any, path []string, v string, null bool, cut int) {
	switch {
	case path == nil:
	case v != "":
		e.put(m, path, v)
	case null:
		e.put(m, path, nil)
	case cut > 0:
		e.put(m, path[:cut], absent{})
	}
}

// absent is put in place of a member to remove it.
type absent struct{}

// put sets the member at path of m to v, copying the objects it lies in,
// which the next answer shares; absent{} removes it.
func (e *envelope) put(m map[string]any, path []string, v any) {
	for _, name := range path[:len(path)-1] {
		inner, _ := m[name].(map[string]any)
		inner = maps.Clone(inner)
		if inner == nil {
			inner = map[string]any{}
		}
		m[name] = inner
		m = inner
	}
	if _, remove := v.(absent); remove {
		delete(m, path[len(path)-1])
		return
	}
	m[path[len(path)-1]] = v
}

// count returns how many items have every match of where: the store
// counts one match at no cost; more are counted item by item.
func (rs *Resource) count(where []store.Match) int {
	switch len(where) {
	case 0:
		return rs.store.Count(nil)
	case 1:
		return rs.store.Count(&where[0])
	}
	n := 0
	rs.store.Scan(math.MinInt64, false, where, func(int64, []byte) bool { n++; return true })
	return n
}

// pageOf returns what the siblings of the page pg of the request c say:
// next is the link to the next page, "" on the last, whose cursor
// follows the item with id last.
func (rs *Resource) pageOf(c *edge.Call, pg store.Page, next string, last int64, more bool) page {
	out := page{next: next, more: more}
	if more {
		out.cursor = edge.EncodeCursor(last)
	}
	if env := rs.envelopes[c.Op.Spec]; env != nil && env.spec.Total != nil {
		out.total = rs.count(pg.Where)
	}
	return out
}

// wrapLists makes the writers of the list and the finds of rs that
// answer their items in an envelope, the siblings they require made from
// seed, and returns what it warns of.
func (rs *Resource) wrapLists(c *spec.Contract, shapes *shape.Builder, seed uint64) []string {
	var notes []string
	gen := &fake.Generator{Contract: c, Faker: fake.NewFaker(seed), Examples: true}
	wrap := func(op *spec.Operation, e *spec.Envelope) {
		if op == nil {
			return
		}
		if items := listedSchema(c, op, e); items != nil && items != rs.spec.Item {
			if rs.listShapes == nil {
				rs.listShapes = map[*spec.Operation]*listShape{}
			}
			ls := &listShape{shape: shapes.Of(items)}
			if rs.spec.ListsIDs(c, op) {
				ls.id = rs.spec.IDProperty
				notes = append(notes, fmt.Sprintf("%s.responses.%d: a list of %ss, so the %s of each item is listed", op.Where, op.Success, spec.TypeOf(items), ls.id))
			} else {
				ls.schema, ls.props, ls.idProp, ls.seed = items, c.Properties(items), rs.spec.IDProperty, seed^hashString("list "+op.ID)
				ls.fit = &fitter{hint: rs.spec.Name, opts: spec.SchemaOptions(c.Doc), gen: &fake.Generator{Contract: c, Examples: true}}
			}
			rs.listShapes[op] = ls
		}
		if e == nil {
			return
		}
		env, note := newEnvelope(c, e, shapes, gen, op.Where+".responses."+strconv.Itoa(op.Success))
		if rs.envelopes == nil {
			rs.envelopes = map[*spec.Operation]*envelope{}
		}
		rs.envelopes[op] = env
		if note != "" {
			notes = append(notes, note)
		}
	}
	for _, l := range listings(rs.spec) {
		wrap(l.op, l.envelope)
	}
	return notes
}

// listedSchema returns the schema of the items op, a list or a find,
// answers, in the envelope e or as the array itself; nil where it gives
// none.
func listedSchema(c *spec.Contract, op *spec.Operation, e *spec.Envelope) *openapi3.Schema {
	s := op.JSONSchema(op.Success)
	if e != nil {
		s = e.Property(c, []string{e.Items})
	}
	if s == nil || s.Items == nil {
		return nil
	}
	return s.Items.Value
}

// listShape is how a list or a find writes its items, where its schema
// of an item is not the item's.
type listShape struct {
	shape *shape.Shape
	id    string // the property written alone, where items are listed by it
	// schema is the list's schema of an item, which an item listed is
	// made to fit where it does not (fit), by values made from seed and
	// its id, the same each time it is listed: VTEX's brands listed
	// require createdAt, which the read's schema, and so the items kept,
	// need not have.
	schema *openapi3.Schema
	props  []spec.Property // of schema
	idProp string
	seed   uint64
	fit    *fitter
}

// fitted returns item as the list's schema of an item takes it: itself
// where what it holds of the members the schema declares matches it;
// else those members, each converted or made anew (fitter.member) where
// the schema refuses it, and those it requires and the item lacks made,
// by values drawn from the item's id alone, so that the item is listed
// the same each time. The id is never changed, but written in the type
// the list's schema gives it: Jira's security levels are listed with ids
// of strings, where the schemes they are listed of have integers.
func (ls *listShape) fitted(item map[string]any) any {
	f := ls.fit
	shown := item
	if len(ls.props) > 0 {
		shown = make(map[string]any, len(ls.props))
		for _, p := range ls.props {
			if v, ok := item[p.Name]; ok {
				shown[p.Name] = v
			}
		}
	}
	if ls.schema.VisitJSON(shown, f.opts...) == nil {
		return item
	}
	if len(ls.props) == 0 {
		return item
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gen.Faker = fake.NewFaker(ls.seed ^ hashString(spec.ValueText(item[ls.idProp])))
	for _, p := range ls.props {
		v, ok := shown[p.Name]
		switch {
		case p.Name == ls.idProp:
			if ok && p.Schema.VisitJSON(v, f.opts...) != nil {
				if c := converted(v, spec.TypeOf(p.Schema)); c != nil && p.Schema.VisitJSON(c, f.opts...) == nil {
					shown[p.Name] = c
				}
			}
		case ok:
			f.member(shown, p, v, 1)
		case p.Required:
			if made, ok := f.fresh(p.Schema, p.Name); ok {
				shown[p.Name] = made
			}
		}
	}
	return shown
}

// reshaped returns page, a JSON array of items as the store holds them,
// each written anew in the shape of ls, such as a list's schema of an item
// that declares fewer members than the read's, those it does not declare
// left out; or as its id, where the list is of ids.
func (ls *listShape) reshaped(page []byte) []byte {
	sh := ls.shape
	v, err := edge.DecodeJSON(page)
	items, ok := v.([]any)
	if err != nil || !ok {
		return page
	}
	out := make([]byte, 0, len(page))
	out = append(out, '[')
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		if m, ok := it.(map[string]any); ok && ls.id != "" {
			it = m[ls.id]
		}
		if m, ok := it.(map[string]any); ok && ls.fit != nil {
			it = ls.fitted(m)
		}
		out = sh.AppendJSON(out, it)
	}
	return append(out, ']')
}
