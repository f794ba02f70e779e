package spec

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Resource is a stateful resource the document describes: a collection
// path with GET and POST, such as /pets, and an item path one parameter
// below it, such as /pets/{petId}. What a client creates in the collection
// can then be read, listed, replaced, updated and deleted, as far as the
// document has those operations.
type Resource struct {
	// Name is the last literal segment of the collection path, such as
	// "pets", or, when two collections end alike, all of its literal
	// segments joined with "-".
	Name           string
	CollectionPath string
	ItemPath       string
	// IDParam is the path parameter of the item path, such as "petId".
	IDParam string
	// IDProperty is the property of an item that holds its id, such as
	// "id": the one the item has and the body of createPet has not.
	IDProperty string
	// IDIsString says that ids are strings; they are integers otherwise.
	IDIsString bool
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
	// Defaults are the values a created item takes for properties the
	// body leaves out, from x-petmock-defaults on the Create schema.
	Defaults map[string]any

	List, CreateOp, Read, Replace, Update, Delete *Operation
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

// Enum returns the values the filter's parameter allows, or nil for any.
func (f Filter) Enum() []string {
	if f.Param.Schema == nil || f.Param.Schema.Value == nil {
		return nil
	}
	var out []string
	for _, v := range f.Param.Schema.Value.Enum {
		if s, ok := v.(string); ok {
			out = append(out, s)
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
// their roles.
func (r *Resource) Operations() []*Operation {
	var out []*Operation
	for _, op := range []*Operation{r.List, r.CreateOp, r.Read, r.Replace, r.Update, r.Delete} {
		if op != nil {
			out = append(out, op)
		}
	}
	return out
}

// inferResources finds the resources of the document and gives their
// operations a role.
func (c *Contract) inferResources() {
	names := map[string]int{}
	var found []*Resource
	for _, op := range c.Operations {
		if op.Method != http.MethodGet {
			continue
		}
		r, why := c.inferResource(op.Template)
		if r == nil {
			if why != "" {
				c.Notes = append(c.Notes, why)
			}
			continue
		}
		found = append(found, r)
		names[r.Name]++
	}
	for _, r := range found {
		if names[r.Name] > 1 {
			r.Name = strings.Join(resourceWords(r.List.Template), "-")
		}
		for _, op := range r.Operations() {
			op.Resource = r
		}
		r.List.Role, r.CreateOp.Role = RoleList, RoleCreate
		for op, role := range map[*Operation]Role{r.Read: RoleRead, r.Replace: RoleReplace, r.Update: RoleUpdate, r.Delete: RoleDelete} {
			if op != nil {
				op.Role = role
			}
		}
		c.Resources = append(c.Resources, r)
	}
}

// inferResource reads the resource whose collection is path, or says why
// path is not one when it looks like one. It returns nil and "" for a path
// that has nothing of a collection.
func (c *Contract) inferResource(collection *PathTemplate) (*Resource, string) {
	path := collection.String()
	ops := c.PathOperations(path)
	list, create := ops[http.MethodGet], ops[http.MethodPost]
	if list == nil || create == nil {
		return nil, ""
	}
	var itemPath, idParam string
	for _, op := range c.Operations {
		if param, ok := op.Template.ItemOf(collection); ok {
			itemPath, idParam = op.Path, param
			break
		}
	}
	if itemPath == "" {
		return nil, fmt.Sprintf("paths.%s: GET and POST but no item path such as %s/{id}, so it is served as plain operations", path, path)
	}
	notResource := func(format string, args ...any) (*Resource, string) {
		return nil, fmt.Sprintf(format, args...) + ", so " + path + " and " + itemPath + " are served as plain operations"
	}
	items := c.Properties
	listSchema := list.JSONSchema(list.Success)
	if listSchema == nil || schemaType(listSchema) != "array" || listSchema.Items == nil || listSchema.Items.Value == nil {
		return notResource("%s.responses.%d: not a JSON array", list.Where, list.Success)
	}
	createBody := create.RequestSchema()
	if createBody == nil || schemaType(createBody) != "object" {
		return notResource("%s.requestBody: not a JSON object", create.Where)
	}
	itemOps := c.PathOperations(itemPath)
	item := listSchema.Items.Value
	if read := itemOps[http.MethodGet]; read != nil {
		if s := read.JSONSchema(read.Success); s != nil {
			item = s
		}
	}
	if schemaType(item) != "object" {
		return notResource("%s.responses.%d: the items are not JSON objects", list.Where, list.Success)
	}
	r := &Resource{
		CollectionPath: path,
		ItemPath:       itemPath,
		IDParam:        idParam,
		Item:           item,
		Create:         createBody,
		List:           list,
		CreateOp:       create,
		Read:           itemOps[http.MethodGet],
		Replace:        itemOps[http.MethodPut],
		Update:         itemOps[http.MethodPatch],
		Delete:         itemOps[http.MethodDelete],
	}
	words := resourceWords(collection)
	r.Name = words[len(words)-1]

	props := items(item)
	sent := map[string]bool{}
	for _, p := range items(createBody) {
		sent[p.Name] = true
	}
	var candidates []Property
	for _, p := range props {
		if t := schemaType(p.Schema); !sent[p.Name] && (t == "integer" || t == "string") {
			candidates = append(candidates, p)
		}
	}
	if len(candidates) == 0 {
		return notResource("%s: the item has no id property that the body of %s leaves out", list.Where, create.ID)
	}
	id := candidates[0]
	for _, p := range candidates {
		if p.Name == "id" || (p.Name == idParam && id.Name != "id") {
			id = p
		}
	}
	r.IDProperty, r.IDIsString = id.Name, schemaType(id.Schema) == "string"
	r.Properties = append([]Property{id}, slices.DeleteFunc(props, func(p Property) bool { return p.Name == id.Name })...)

	if raw, ok := createBody.Extensions["x-petmock-defaults"]; ok {
		d, isMap := raw.(map[string]any)
		if !isMap {
			return nil, fmt.Sprintf("%s.requestBody: x-petmock-defaults is not a mapping of property to value, so it is ignored", create.Where)
		}
		r.Defaults = d
	}

	r.Paging = Paging{Cursor: CursorParam}
	if p := list.Parameter(openapi3.ParameterInQuery, "limit"); p != nil && p.Schema != nil && p.Schema.Value != nil && schemaType(p.Schema.Value) == "integer" {
		s := p.Schema.Value
		r.Paging.Limit, r.Paging.Min, r.Paging.LimitSchema = p.Name, 1, s
		if s.Min != nil {
			r.Paging.Min = max(int(*s.Min), 1)
		}
		if s.Max != nil {
			r.Paging.Max = int(*s.Max)
		}
		r.Paging.Default = DefaultPageSize
		if r.Paging.Max > 0 {
			r.Paging.Default = min(r.Paging.Default, r.Paging.Max)
		}
		if d, ok := s.Default.(float64); ok {
			r.Paging.Default = int(d)
		}
	}
	for _, p := range list.Parameters {
		if p.In != openapi3.ParameterInQuery || p.Name == r.Paging.Limit || p.Name == r.Paging.Cursor {
			continue
		}
		prop, ok := r.Property(p.Name)
		if !ok {
			continue
		}
		switch schemaType(prop.Schema) {
		case "string", "integer", "number", "boolean":
			r.Filters = append(r.Filters, Filter{Param: p, Schema: prop.Schema})
		}
	}
	return r, ""
}

// resourceWords returns the words a resource of the collection path is
// named after: its literal segments, or "items" when it has none.
func resourceWords(collection *PathTemplate) []string {
	if words := collection.Literals(); len(words) > 0 {
		return words
	}
	return []string{"items"}
}
