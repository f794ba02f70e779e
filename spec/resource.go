package spec

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Resource is a stateful resource the document describes: a collection
// path with POST, such as /pets, and an item path one parameter below it,
// such as /pets/{petId}, or, for a collection below a parent, a path of
// its own (see Flat), with GET on one of them or both. What a client
// creates in the collection can then be read, listed, found, replaced,
// updated and deleted, as far as the document has those operations.
type Resource struct {
	// Name is the last literal segment of the collection path, such as
	// "pets", or, when two collections end alike, all of its literal
	// segments joined with "-".
	Name           string
	CollectionPath string
	ItemPath       string
	// ParentParams are the path parameters of the collection path, such
	// as ownerId of /owners/{ownerId}/pets: an item belongs to the parent
	// they name when it is created, and is found below that parent only.
	ParentParams []string
	// Parent is the resource whose item path the collection path lies
	// below, such as owners of /owners/{ownerId}/pets; nil when none is.
	Parent *Resource
	// IDParam is the path parameter of the item path, such as "petId".
	IDParam string
	// IDProperty is the property of an item that holds its id: the one
	// the id parameter names, such as "username" of {username}; else
	// "id", or the parameter's name written otherwise, such as pet_id of
	// {petId}; else the first the body of the create leaves out.
	IDProperty string
	// IDIsString says that ids are strings; they are integers otherwise.
	IDIsString bool
	// IDSent says that the body of the create has the id property: the
	// id it sends names the item created, in place of the item of that
	// id if there is one.
	IDSent bool
	// Item is the schema of an item as answered.
	Item *openapi3.Schema
	// Properties are the properties of Item in the order the document
	// gives them, the id first.
	Properties []Property
	// Create is the schema of the body that creates an item.
	Create *openapi3.Schema
	// Filters are the query parameters of the list that name a property
	// of the item, such as status.
	Filters []Filter
	// Paging says how the list is paged.
	Paging Paging
	// Wrapped are the operations of the resource that answer the item
	// inside an object, such as Asana's {"data":{...}}, with how, by
	// operation; one not in it answers the item itself. Item is then the
	// schema of what the read's wrapper holds. ItemOf reads either.
	Wrapped map[*Operation]*Wrapper
	// BodyWrapped are the operations whose body holds the item inside an
	// object, such as Asana's creates, {"data":{...}}, by operation; one
	// not in it takes the item itself. Create stays the schema of the
	// whole body.
	BodyWrapped map[*Operation]*Wrapper
	// ListEnvelope is how the list answers its items inside an object,
	// such as {"data":[...],"has_more":false}; nil when it answers the
	// JSON array itself, or has no list. ListItems reads either.
	ListEnvelope *Envelope
	// Defaults are the values a created item takes for properties the
	// body leaves out, from x-petmock-defaults on the Create schema.
	Defaults map[string]any
	// Finds are the other operations that list items of the resource, by
	// the values of their properties, such as GET /pet/findByStatus.
	Finds []Find

	// List is nil for a collection without GET, such as Swagger Petstore
	// v3's /pet; CreateOp is never nil. Replace and Update are on the item
	// path, or on the collection path with the id in their body (see
	// ByBody), such as PUT /pet.
	List, CreateOp, Read, Replace, Update, Delete *Operation
}

// Find is an operation other than the list that lists items of a resource
// whose properties have the values its query asks for, such as
// findPetsByStatus, GET /pet/findByStatus?status=sold.
type Find struct {
	Op *Operation
	// Filters are its query parameters that name a property of the item.
	Filters []Filter
	// Envelope is how it answers its items inside an object, as
	// Resource.ListEnvelope; nil for a JSON array.
	Envelope *Envelope
}

// ListItems returns the items of an answer of op, a list or a find of
// the resource, decoded JSON: the array answered, or the one its
// envelope holds. ok is false when the answer holds none.
func (r *Resource) ListItems(op *Operation, v any) (items []any, ok bool) {
	if op == r.List {
		return r.ListEnvelope.ItemsOf(v)
	}
	for _, f := range r.Finds {
		if f.Op == op {
			return f.Envelope.ItemsOf(v)
		}
	}
	return nil, false
}

// ListsIDs reports whether op, the list or a find of r, answers the ids
// of its items rather than the items: its schema of an item is not an
// object but of the id's type, as Pinecone's list of its collections'
// names is a list of strings.
func (r *Resource) ListsIDs(c *Contract, op *Operation) bool {
	if op == nil || len(r.Properties) == 0 {
		return false
	}
	var e *Envelope
	switch {
	case op == r.List:
		e = r.ListEnvelope
	default:
		i := slices.IndexFunc(r.Finds, func(f Find) bool { return f.Op == op })
		if i < 0 {
			return false
		}
		e = r.Finds[i].Envelope
	}
	s := op.JSONSchema(op.Success)
	if e != nil {
		s = e.Property(c, []string{e.Items})
	}
	if s == nil || s.Items == nil || s.Items.Value == nil {
		return false
	}
	t := TypeOf(s.Items.Value)
	return t != "" && t != "object" && t == TypeOf(r.Properties[0].Schema)
}

// Flat reports whether the item path of r names none of the parents of
// its collection: the items a collection below a parent creates are
// read, changed and deleted at a path of their own, such as
// /settings/{settingId} of /configs/{configId}/settings, or Billbee's
// /customers/addresses/{id} of /customers/{id}/addresses, whose item is
// named as its parent is.
func (r *Resource) Flat() bool {
	if len(r.ParentParams) == 0 {
		return false
	}
	t, err := ParsePath(r.ItemPath)
	return err == nil && (!slices.Contains(t.Params(), r.ParentParams[0]) || !strings.HasPrefix(r.ItemPath, r.CollectionPath+"/"))
}

// ByBody reports whether op, an operation of the resource, names the item
// it acts on by the id property of its body rather than by the item path:
// a replace or an update of the collection path, such as PUT /pet.
func (r *Resource) ByBody(op *Operation) bool {
	return op != nil && op.Path == r.CollectionPath && (op.Role == RoleReplace || op.Role == RoleUpdate)
}

// Property is one property of an object schema.
type Property struct {
	Name     string
	Schema   *openapi3.Schema
	Required bool
}

// Filter is a query parameter of a list that selects the items whose
// property of the same name has the value asked for.
type Filter struct {
	Param  *openapi3.Parameter
	Schema *openapi3.Schema // of the property
}

// Name returns the name of the parameter, which is that of the property.
func (f Filter) Name() string { return f.Param.Name }

// Takes reports whether the filter's parameter takes v, a value of the
// property, as it is or as its text: Twitter's compliance jobs are
// expired, and listed by a status of four values, expired not among them.
func (f Filter) Takes(v any) bool {
	if f.Param.Schema == nil || f.Param.Schema.Value == nil {
		return true
	}
	s := f.Param.Schema.Value
	if TypeOf(s) == "array" && s.Items != nil && s.Items.Value != nil {
		s = s.Items.Value
	}
	// What a server reads of the query is the value's text, read as the
	// parameter's type: a "5" of a string property is 5 to an integer
	// parameter.
	var read any = ValueText(v)
	switch text := ValueText(v); TypeOf(s) {
	case "integer", "number":
		if _, err := strconv.ParseFloat(text, 64); err == nil {
			read = json.Number(text)
		}
	case "boolean":
		if b, err := strconv.ParseBool(text); err == nil {
			read = b
		}
	}
	return s.VisitJSON(read, openapi3.DisableSchemaErrorDetails()) == nil || s.VisitJSON(v, openapi3.DisableSchemaErrorDetails()) == nil
}

// Spells reports whether text is how a value of the property is written,
// so that an item of it is told by its text: a boolean's true or false, an
// integer's digits. Vercel's projects are filtered by a gitForkProtection
// of "1" or "0", a boolean's other spelling, which a server may read as it
// likes.
func (f Filter) Spells(text string) bool {
	switch TypeOf(f.Schema) {
	case "boolean":
		return text == "true" || text == "false"
	case "integer", "number":
		n := json.Number(text)
		_, err := n.Float64()
		return err == nil && ValueText(n) == text
	}
	return true
}

// Enum returns the values the filter's parameter allows, or nil for any.
func (f Filter) Enum() []string {
	if f.Param.Schema == nil || f.Param.Schema.Value == nil {
		return nil
	}
	var out []string
	for _, v := range f.Param.Schema.Value.Enum {
		switch v.(type) {
		case string, float64, json.Number, bool:
			out = append(out, ValueText(v))
		}
	}
	return out
}

// Paging says how the list of a resource is paged: at most Limit items a
// page, and a cursor to the next. The interface leaves the cursor open;
// petmock's is the Cursor query parameter, which it accepts whether the
// document declares it or not.
type Paging struct {
	// Limit names the query parameter that caps a page, such as "limit";
	// "" when the list has none. Min, Max and Default are its bounds and
	// default; Max is 0 when the document sets no maximum.
	Limit             string
	Min, Max, Default int
	// LimitSchema is the schema of the limit parameter, which tells which
	// of the bounds the document gives itself; nil without a limit.
	LimitSchema *openapi3.Schema
	// Cursor names the query parameter of the next page.
	Cursor string
}

// Cursor returns the query parameter that carries the cursor of a next
// page of op, the list or a find of the resource: the one that takes back
// the cursor of its envelope, if it has one, else CursorParam.
func (r *Resource) Cursor(op *Operation) string {
	if op == r.List {
		return r.Paging.Cursor
	}
	for _, f := range r.Finds {
		if f.Op == op && f.Envelope != nil && f.Envelope.Cursor != nil {
			return cursorParam(op, f.Envelope.Cursor[len(f.Envelope.Cursor)-1]).Name
		}
	}
	return CursorParam
}

// DefaultPageSize is the size of a page of a list whose document gives no
// default limit.
const DefaultPageSize = 20

// CursorParam is the query parameter that carries petmock's cursor.
const CursorParam = "cursor"

// Property returns the property of the item with the given name.
func (r *Resource) Property(name string) (Property, bool) {
	for _, p := range r.Properties {
		if p.Name == name {
			return p, true
		}
	}
	return Property{}, false
}

// Filter returns the filter of the given name, or false.
func (r *Resource) Filter(name string) (Filter, bool) {
	for _, f := range r.Filters {
		if f.Name() == name {
			return f, true
		}
	}
	return Filter{}, false
}

// Operations returns the operations of the resource, in the order of
// their roles, the finds last.
func (r *Resource) Operations() []*Operation {
	var out []*Operation
	for _, op := range []*Operation{r.List, r.CreateOp, r.Read, r.Replace, r.Update, r.Delete} {
		if op != nil {
			out = append(out, op)
		}
	}
	for _, f := range r.Finds {
		out = append(out, f.Op)
	}
	return out
}
