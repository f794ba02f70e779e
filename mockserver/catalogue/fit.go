package catalogue

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// What a client sends is held to the create's schema, and answered by the
// item's: the read's, the list's. Where the two disagree, what is stored
// is made to fit the item's schema, so that every answer holds to it: a
// property the item requires and the create need not send is made from
// its schema; a value sent that the item's schema does not take is
// converted to the type it asks for (the string "12" of a create that
// takes strings, where the item has a number, is 12), or, where it cannot
// be, made anew from that schema, member by member for an object. A value
// the item's schema takes is kept as sent. The start-up notes say where
// the schemas disagree.

// fitter makes the items a client sends fit the item's schema.
type fitter struct {
	// made are the properties the item requires that a body may leave
	// out; checked those a body may send a value of another schema of;
	// patched every one, which a JSON Patch may change.
	made, checked, patched []spec.Property
	hint                   string // the resource, for the values made
	// opts check a value against a schema as the document's version
	// asks.
	opts []openapi3.SchemaValidationOption

	// whole is the resource whose item's schema has a oneOf or an anyOf
	// its properties do not list, nil for any other: an item is checked
	// against it whole, with idValue as its id, and given the members of
	// a value made of it that tell the alternatives apart.
	whole   *spec.Resource
	id      string
	idValue any
	// lists are the schemas of an item of the lists and finds that are
	// not the item's own: see fitLists.
	lists []listed

	mu  sync.Mutex // guards gen, shared and items
	gen *fake.Generator
	// shared and items are, of each schema conform met, its properties
	// (fake.Shared) and its items' schema (fake.Items), made once: made
	// anew for each value, they were new schemas the generator's caches,
	// keyed by schema, kept for the life of the fitter.
	shared map[*openapi3.Schema][]spec.Property
	items  map[*openapi3.Schema]*openapi3.Schema
}

// sharedProps returns the properties of s, of every allOf member's
// declaration (fake.Shared), made once. Callers hold f.mu.
func (f *fitter) sharedProps(s *openapi3.Schema) []spec.Property {
	if props, ok := f.shared[s]; ok {
		return props
	}
	if f.shared == nil {
		f.shared = map[*openapi3.Schema][]spec.Property{}
	}
	props := fake.Shared(s, f.gen.Contract.Properties(s))
	f.shared[s] = props
	return props
}

// itemsOf returns the schema of the items of s (fake.Items), made once.
// Callers hold f.mu.
func (f *fitter) itemsOf(s *openapi3.Schema) *openapi3.Schema {
	if items, ok := f.items[s]; ok {
		return items
	}
	if f.items == nil {
		f.items = map[*openapi3.Schema]*openapi3.Schema{}
	}
	items := fake.Items(s)
	f.items[s] = items
	return items
}

// newFitter returns the fitter of r's items, the values it makes drawn
// from seed, with notes of where what a client sends and the item's
// schema disagree; nil, when they do not.
func newFitter(c *spec.Contract, r *spec.Resource, seed uint64) (*fitter, []string) {
	sent := map[string][]spec.Property{} // by name, of each body
	var others []*openapi3.Schema        // of the members a body does not declare
	for _, op := range []*spec.Operation{r.CreateOp, r.Replace, r.Update} {
		if op == nil {
			continue
		}
		s := schemaOf(c, r.BodyWrapped[op], op.RequestSchema())
		if s == nil {
			continue
		}
		for _, p := range c.Properties(s) {
			sent[p.Name] = append(sent[p.Name], p)
		}
		if ap := s.AdditionalProperties; ap.Has == nil || *ap.Has {
			other := &openapi3.Schema{}
			if ap.Schema != nil && ap.Schema.Value != nil {
				other = ap.Schema.Value
			}
			others = append(others, other)
		}
	}
	// A member of the item a body does not declare may be sent all the
	// same, of any value its additionalProperties takes: Asana's section
	// requires a project it does not declare, whose item answers it as
	// an object.
	for _, p := range r.Properties[1:] {
		if _, ok := sent[p.Name]; !ok {
			for _, other := range others {
				sent[p.Name] = append(sent[p.Name], spec.Property{Name: p.Name, Schema: other})
			}
		}
	}
	f := &fitter{hint: r.Name, opts: spec.SchemaOptions(c.Doc)}
	var notes, required []string
	created := map[string]spec.Property{}
	if s := schemaOf(c, r.BodyWrapped[r.CreateOp], r.Create); s != nil {
		for _, p := range c.Properties(s) {
			created[p.Name] = p
		}
	}
	// A body that need not hold the item it wraps, as Square's
	// {"order": {...}} of an order created, sends none of what the item
	// requires where it leaves it out.
	optionalItem := false
	if w := r.BodyWrapped[r.CreateOp]; w != nil {
		optionalItem = !slices.Contains(w.Schema.Required, w.Property)
	}
	// What the create's answer, of another schema than the item's,
	// requires of the item is made where it is stored, so that the reads
	// show what the create answered: VTEX's reservation created answers
	// the dates its read may leave out.
	answered := map[string]bool{}
	if s := schemaOf(c, r.Wrapped[r.CreateOp], r.CreateOp.JSONSchema(r.CreateOp.Success)); s != nil && s != r.Item {
		for _, p := range c.Properties(s) {
			answered[p.Name] = p.Required
		}
	}
	// A property several allOf members of the item declare is held to
	// them all (see fake.Shared).
	for _, p := range fake.Shared(r.Item, r.Properties)[1:] {
		if cp, ok := created[p.Name]; (p.Required || answered[p.Name]) && (optionalItem || !(ok && cp.Required)) {
			f.made = append(f.made, p)
			required = append(required, p.Name)
		}
		if _, ok := sent[p.Name]; ok && readOnlyWithin(c, p.Schema, 0) {
			// What a request leaves out and an answer requires, such
			// as InfluxData's links.self, is made where it is sent.
			f.checked = append(f.checked, p)
			continue
		}
		for _, sp := range sent[p.Name] {
			if sp.Schema == p.Schema {
				continue
			}
			f.checked = append(f.checked, p)
			if a, b := spec.TypeOf(sp.Schema), spec.TypeOf(p.Schema); a != b && a != "" && b != "" {
				notes = append(notes, fmt.Sprintf("%s.requestBody: %s is %s there, and %s in the %s %s answers, so a %s sent is converted to %s, or made anew where it cannot be",
					r.CreateOp.Where, p.Name, article(a), article(b), spec.Singular(r.Name), answerer(r), p.Name, article(b)))
			}
			break
		}
	}
	if len(required) > 0 {
		notes = append(notes, fmt.Sprintf("%s.requestBody: %s requires %s, which a create need not send, so petmock makes what it leaves out from the item's schema",
			r.CreateOp.Where, article(spec.Singular(r.Name)), strings.Join(required, ", ")))
	}
	if r.Update != nil && spec.IsJSONPatch(c, r.Update.RequestSchema()) {
		f.patched = r.Properties[1:]
	}
	f.lists = listSchemas(c, r)
	alt := alternatives(r.Item)
	if len(f.made) == 0 && len(f.checked) == 0 && len(f.patched) == 0 && len(f.lists) == 0 && !alt {
		return nil, nil
	}
	f.gen = &fake.Generator{Contract: c, Faker: fake.NewFaker(seed ^ hashString("fit "+r.Name)), Examples: true}
	if alt {
		// An id to check an item with before it has its own.
		if id, err := f.gen.Valid(r.Properties[0].Schema, fake.Hint{Property: r.IDProperty, Resource: r.Name}); err == nil {
			f.whole, f.id, f.idValue = r, r.IDProperty, id
		}
	}
	return f, notes
}

// readOnlyWithin reports whether a value of s, an object or an array of
// them, has a member its schema requires and marks readOnly, at any depth:
// a request may leave it out, and an answer must hold it.
func readOnlyWithin(c *spec.Contract, s *openapi3.Schema, depth int) bool {
	if s == nil || depth > 8 {
		return false
	}
	switch spec.TypeOf(s) {
	case "array":
		return s.Items != nil && readOnlyWithin(c, s.Items.Value, depth+1)
	case "object":
		for _, p := range c.Properties(s) {
			if p.Required && p.Schema.ReadOnly || readOnlyWithin(c, p.Schema, depth+1) {
				return true
			}
		}
	}
	return false
}

// listSchemas returns the schemas of an item of the lists and finds of r
// that are not the item's own, nor of ids.
func listSchemas(c *spec.Contract, r *spec.Resource) []listed {
	var out []listed
	for _, l := range listings(r) {
		if items := listedSchema(c, l.op, l.envelope); items != nil && items != r.Item && !r.ListsIDs(c, l.op) {
			out = append(out, listed{items, r})
		}
	}
	return out
}

// listed is a list's schema of an item of a resource that is not the
// item's own.
type listed struct {
	items *openapi3.Schema
	r     *spec.Resource
}

// fitLists makes the members of item that a list's schema of an item
// declares too fit that schema as well as the item's, and gives it those
// the list requires and the item's schema declares: Azure's campaigns are
// read with a startTime of any text and listed with one of a date-time,
// VTEX's brands listed require the createdAt a read may leave out. A
// member the two schemas take no value of in common is left as it is.
// Callers hold f.mu.
func (f *fitter) fitLists(item map[string]any) {
	for _, l := range f.lists {
		for _, p := range f.gen.Contract.Properties(l.items) {
			v, has := item[p.Name]
			own, declared := l.r.Property(p.Name)
			if !declared || p.Schema == nil || p.Name == l.r.IDProperty {
				continue
			}
			var fitted any
			var ok bool
			switch {
			case has && p.Schema.VisitJSON(v, f.opts...) != nil:
				fitted, ok = f.conform(v, p.Schema, p.Name, 1)
			case !has && p.Required:
				// The list requires what the read may leave out: the
				// item holds it, so that both show it (VTEX's createdAt).
				fitted, ok = f.fresh(p.Schema, p.Name)
			}
			if ok && (own.Schema == nil || own.Schema.VisitJSON(fitted, f.opts...) == nil) {
				item[p.Name] = fitted
			}
		}
	}
}

// fitToLists is fitLists, for the items of a catalogue.
func (f *fitter) fitToLists(item map[string]any) {
	if f == nil || len(f.lists) == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fitLists(item)
}

// article writes a word with its article: "a string", "an integer", "an
// offer".
func article(t string) string {
	if t != "" && strings.ContainsRune("aeiouAEIOU", rune(t[0])) {
		return "an " + t
	}
	return "a " + t
}

// answerer names the operation that answers an item of r.
func answerer(r *spec.Resource) string {
	if r.Read != nil {
		return r.Read.ID
	}
	if r.List != nil {
		return r.List.ID
	}
	return r.CreateOp.ID
}

// fit makes item, a body sent, fit the item's schema: see above.
func (f *fitter) fit(item map[string]any) {
	if f == nil || item == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.made {
		if _, ok := item[p.Name]; !ok {
			if v, ok := f.fresh(p.Schema, p.Name); ok {
				item[p.Name] = v
			}
		}
	}
	for _, p := range f.checked {
		if v, ok := item[p.Name]; ok {
			f.member(item, p, v, 0)
		}
	}
	f.alternative(item)
	f.fitLists(item)
}

// alternative gives item, where it matches none of the alternatives of
// the item's schema or more than one, as Intellifi's item sent without
// any of location, location_id and location_url matches all three, the
// members of a value made of the schema that it lacks, and then, if it
// still does not match, that value's members the item's properties do
// not list. Callers hold f.mu.
func (f *fitter) alternative(item map[string]any) {
	if f.whole == nil {
		return
	}
	matches := func() bool {
		probe := maps.Clone(item)
		if _, ok := probe[f.id]; !ok {
			probe[f.id] = f.idValue
		}
		return f.gen.Matches(f.whole.Item, probe)
	}
	if matches() {
		return
	}
	made, err := f.gen.Valid(f.whole.Item, fake.Hint{Resource: f.hint})
	m, ok := made.(map[string]any)
	if err != nil || !ok {
		return
	}
	delete(m, f.id)
	for k, v := range m {
		if _, has := item[k]; !has {
			item[k] = v
		}
	}
	if matches() {
		return
	}
	for k, v := range m {
		if !slices.ContainsFunc(f.whole.Properties, func(p spec.Property) bool { return p.Name == k }) {
			item[k] = v
		}
	}
}

// fitUpdate is fit for an item an update changed by body: a JSON Patch
// may have changed any property, each held to the item's schema.
func (f *fitter) fitUpdate(item map[string]any, body any) {
	if _, isPatch := body.([]any); !isPatch || f == nil {
		f.fit(item)
		return
	}
	f.fit(item)
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.patched {
		if v, ok := item[p.Name]; ok {
			f.member(item, p, v, 0)
		}
	}
}

// member sets the member p of the object m, of value v, to what p's
// schema takes: see conform. A member that fits in no way is left out
// where the schema does not require it.
func (f *fitter) member(m map[string]any, p spec.Property, v any, depth int) {
	fitted, ok := f.conform(v, p.Schema, p.Name, depth)
	if !ok && !p.Required {
		delete(m, p.Name)
		return
	}
	m[p.Name] = fitted
}

// maxFitDepth bounds how deep conform goes into a value before it makes
// the rest anew.
const maxFitDepth = 16

// conform returns v, if s takes it, else v converted to what s takes, or
// made anew from it: an object member by member, an array item by item.
// ok is false where nothing s takes was had.
func (f *fitter) conform(v any, s *openapi3.Schema, name string, depth int) (any, bool) {
	if s == nil || s.VisitJSON(v, f.opts...) == nil {
		return v, true
	}
	if depth < maxFitDepth {
		var tried any
		switch spec.TypeOf(s) {
		case "object":
			if m, ok := v.(map[string]any); ok {
				out := make(map[string]any, len(m))
				for k, e := range m {
					out[k] = e
				}
				for _, p := range f.sharedProps(s) {
					e, ok := out[p.Name]
					switch {
					case ok:
						f.member(out, p, e, depth+1)
					case p.Required:
						if made, ok := f.fresh(p.Schema, p.Name); ok {
							out[p.Name] = made
						}
					}
				}
				tried = out
			}
		case "array":
			if list, ok := v.([]any); ok && f.itemsOf(s) != nil {
				out := make([]any, 0, len(list))
				for _, e := range list {
					if fitted, ok := f.conform(e, f.itemsOf(s), name, depth+1); ok {
						out = append(out, fitted)
					}
				}
				tried = out
			}
		default:
			tried = converted(v, spec.TypeOf(s))
		}
		if tried != nil && s.VisitJSON(tried, f.opts...) == nil {
			return tried, true
		}
	}
	made, ok := f.fresh(s, name)
	if !ok {
		return v, false
	}
	if kept := f.keepSent(made, v, s); kept != nil {
		return kept, true
	}
	return made, true
}

// keepSent returns made, an object made anew of s for an object sent, v,
// that s does not take, with the members of v whose values s's schemas of
// them take, where s takes the whole: Box's shared link sent with its
// vanity_name keeps it, among the members only the server writes. The
// schemas of the members are s's, or those of one of its alternatives:
// Adyen's bank account sent with its formFactor, answered as a oneOf of
// an IBAN and a US account, keeps it. It returns nil where made or v is
// no object, or s takes no such whole.
func (f *fitter) keepSent(made, v any, s *openapi3.Schema) any {
	m, isMade := made.(map[string]any)
	sent, isSent := v.(map[string]any)
	if !isMade || !isSent {
		return nil
	}
	shapes := []*openapi3.Schema{s}
	for _, member := range slices.Concat(s.OneOf, s.AnyOf) {
		if member != nil && member.Value != nil {
			shapes = append(shapes, member.Value)
		}
	}
	for _, shape := range shapes {
		out := maps.Clone(m)
		kept := false
		for _, p := range f.gen.Contract.Properties(shape) {
			if e, ok := sent[p.Name]; ok && p.Schema.VisitJSON(e, f.opts...) == nil {
				out[p.Name] = e
				kept = true
			}
		}
		if kept && s.VisitJSON(out, f.opts...) == nil {
			return out
		}
	}
	return nil
}

// fresh makes a value of s anew; ok is false where none made matches.
func (f *fitter) fresh(s *openapi3.Schema, name string) (any, bool) {
	v, err := f.gen.Valid(s, fake.Hint{Property: name, Resource: f.hint})
	return v, err == nil
}

// converted returns v written as a value of the JSON type t, or nil where
// it cannot be: a number read from a string, a string of a number or a
// boolean, a boolean of "true" or "false".
func converted(v any, t string) any {
	switch t {
	case "integer":
		switch v := v.(type) {
		case string:
			if _, ok := spec.ExactInt64(strings.TrimSpace(v)); ok {
				return json.Number(strings.TrimSpace(v))
			}
		case json.Number:
			if f, err := v.Float64(); err == nil && f == float64(int64(f)) {
				return json.Number(strconv.FormatInt(int64(f), 10))
			}
		case bool:
			if v {
				return json.Number("1")
			}
			return json.Number("0")
		}
	case "number":
		if s, ok := v.(string); ok {
			if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
				return json.Number(strings.TrimSpace(s))
			}
		}
	case "string":
		switch v := v.(type) {
		case json.Number:
			return string(v)
		case bool:
			return strconv.FormatBool(v)
		}
	case "boolean":
		if s, ok := v.(string); ok {
			if b, err := strconv.ParseBool(s); err == nil {
				return b
			}
		}
	}
	return nil
}

// declaredOnly removes from item the members the item's schema does not
// declare, where it takes no others (additionalProperties: false): an
// update's schema may name members the item has not, such as ReadMe's
// position, which the item's answers leave out, and which would make the
// item patched break its schema.
func (rs *Resource) declaredOnly(item map[string]any) {
	if ap := rs.spec.Item.AdditionalProperties.Has; ap == nil || *ap {
		return
	}
	for name := range item {
		if _, ok := rs.spec.Property(name); !ok {
			delete(item, name)
		}
	}
}

// listing is a list or a find of a resource, with its envelope.
type listing struct {
	op       *spec.Operation
	envelope *spec.Envelope
}

// listings returns the list and the finds of r.
func listings(r *spec.Resource) []listing {
	var out []listing
	if r.List != nil {
		out = append(out, listing{r.List, r.ListEnvelope})
	}
	for _, f := range r.Finds {
		out = append(out, listing{f.Op, f.Envelope})
	}
	return out
}
