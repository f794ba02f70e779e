package spec

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
)

// Contract is what the mock and the judge know of an OpenAPI document,
// read from it once: its operations, the resources they form, the pages of
// a list, the deprecations and the error codes. Both read every fact of
// the contract from here, so that a new version of the document changes
// what both do, and no fact is dug out of the document twice.
type Contract struct {
	// Doc is the loaded and validated document. It must not be changed.
	Doc *openapi3.T
	// Base is the path of the document's first server, such as "/v1",
	// or "" when the server is the root: see servers.go. Every operation
	// path is relative to it, but those of the paths and operations with
	// servers of their own, which are relative to their Operation.Base.
	Base string
	// Operations are the operations of the document, ordered by path and
	// then by method (GET, HEAD, POST, PUT, PATCH, DELETE, the others).
	Operations []*Operation
	// Resources are the stateful resources the operations form, ordered
	// by collection path.
	Resources []*Resource
	// ErrorCodes are the values of Error.code the document lists under
	// x-petmock-codes, each with the status it is sent with.
	ErrorCodes map[string]int
	// Notes say why path pairs that look like resources are not, such as
	// a list that is not an array; petmock serves their operations with
	// generated answers. They are meant for a start-up log.
	Notes []string
	// Warnings name what the lenient reading dropped or let pass, such as
	// an example that does not match its schema, one line each, with the
	// place in the document. They are meant for a start-up log.
	Warnings []string
	// Strict is set when the document was read with ReadOptions.Strict:
	// its readers then refuse, rather than make do with, a part they
	// cannot serve as written.
	Strict bool
	// ConvertedFrom names the version the document was converted from on
	// load, "Swagger 2.0", or is "" for an OpenAPI 3 document.
	ConvertedFrom string

	text
	order   propertyOrder
	byID    map[string]*Operation
	byRoute map[string]*Operation            // by method, space, and path template
	byPath  map[string]map[string]*Operation // by path template, then method
	byName  map[string]*Resource
	// itemPaths maps a path to the first operation of an item path below
	// it, such as /pets to getPet.
	itemPaths map[string]*Operation
	// getsBelow maps a path to the GETs of the paths below it by literal
	// segments, such as /pet to GET /pet/findByStatus.
	getsBelow map[string][]*Operation
	schemes   map[string]*Scheme
	// errorBody is the error body of a request of no operation, and of a
	// status an operation does not document: see ErrorBody.
	errorBody ErrorBody
	// bases are the base paths of the operations, Base first, and
	// pathBases those of the paths with servers of their own: see Bases
	// and PathBase.
	bases     []string
	pathBases map[string]string
}

// Role is what an operation does to a resource.
type Role int

// Roles of operations. An operation that is not part of a resource, such as
// a report or an action, is RoleOther.
const (
	RoleOther   Role = iota
	RoleList         // GET on the collection path
	RoleCreate       // POST on the collection path
	RoleRead         // GET on the item path
	RoleReplace      // PUT on the item path, or on the collection path with the id in the body
	RoleUpdate       // PATCH on the item path, or on the collection path with the id in the body
	RoleDelete       // DELETE on the item path
	RoleFind         // GET that lists items by their properties, such as /pet/findByStatus
)

var roleNames = [...]string{"other", "list", "create", "read", "replace", "update", "delete", "find"}

func (r Role) String() string { return roleNames[r] }

// Operation is one operation of the document.
type Operation struct {
	// ID is the operationId, or "METHOD /path" when there is none.
	ID     string
	Method string
	// Path is the path template below the base path, such as
	// "/pets/{petId}", as written.
	Path string
	// Base is the base path the operation is served below: that of the
	// first of its own servers, or else of its path's, or else the
	// document's, Contract.Base; such as "/v1", or "" for the root. A
	// request of the operation is sent to Base followed by Path, such as
	// /v1/pets/7, whatever the host of the server: a mock serves every
	// operation at its own (see servers.go).
	Base string
	// Template is Path, parsed; the operations of one path share it.
	Template *PathTemplate
	// Where names the operation in the document, for messages:
	// "paths./pets/{petId}.get".
	Where string
	Op    *openapi3.Operation
	Item  *openapi3.PathItem
	// Parameters are the operation's parameters and those of its path,
	// the operation's winning where both name one.
	Parameters []*openapi3.Parameter
	// Security is the security that applies: the operation's, or the
	// document's. Empty means no key is needed.
	Security openapi3.SecurityRequirements
	// Requirements are Security resolved: alternatives, each of schemes
	// that must all be met.
	Requirements []Requirement
	// Statuses are the documented response statuses, in order.
	Statuses []int
	// Ranges are the ranges of statuses the operation documents, written
	// 4XX, each by its first digit, in order: [4, 5] of 4XX and 5XX. A
	// status of a range is documented (see Documents).
	Ranges []int
	// Success is the status a valid request is answered with: the lowest
	// documented 2xx, or 200 when only 2XX or a default response is
	// documented. Zero means the document gives no success answer.
	Success int
	// Deprecation is set when the operation is deprecated.
	Deprecation *Deprecation
	// Resource and Role are set when the operation is part of a resource;
	// Resource is nil otherwise.
	Resource *Resource
	Role     Role
}

// Read reads the contract of a document, YAML or JSON, leniently: see
// ReadOptions.
func Read(data []byte) (*Contract, error) {
	return ReadOptions{}.Read(data)
}

// Default returns the contract of the embedded document, read strictly:
// it has nothing to drop.
func Default() (*Contract, error) {
	return ReadOptions{Strict: true}.Read(document)
}

// ReadFile reads the contract of the document at path, leniently: see
// ReadOptions.
func ReadFile(path string) (*Contract, error) {
	return ReadOptions{}.ReadFile(path)
}

// Source returns the document as written.
func (c *Contract) Source() []byte { return slices.Clone(c.source) }

// JSON returns the document as JSON, every object's members in the order
// the document gives them.
func (c *Contract) JSON() ([]byte, error) { return slices.Clone(c.json), nil }

// Operation returns the operation with the given id, or nil.
func (c *Contract) Operation(id string) *Operation { return c.byID[id] }

// OperationAt returns the operation of method on the path template path
// as written, such as "/pets/{petId}", or nil.
func (c *Contract) OperationAt(method, path string) *Operation {
	return c.byRoute[method+" "+path]
}

// RouteOperation returns the operation a route of the document's router
// found, or nil.
func (c *Contract) RouteOperation(route *routers.Route) *Operation {
	if route == nil {
		return nil
	}
	return c.OperationAt(route.Method, route.Path)
}

// Scheme returns the security scheme of the document with the given
// name, or nil.
func (c *Contract) Scheme(name string) *Scheme { return c.schemes[name] }

// Resource returns the resource with the given name, or nil.
func (c *Contract) Resource(name string) *Resource { return c.byName[name] }

// PathOperations returns the operations of one path, by method.
func (c *Contract) PathOperations(path string) map[string]*Operation {
	out := maps.Clone(c.byPath[path])
	if out == nil {
		out = map[string]*Operation{}
	}
	return out
}

// Properties returns the properties of an object schema, its allOf
// members' included, in the order the document gives them.
func (c *Contract) Properties(s *openapi3.Schema) []Property {
	return objectProperties(c.order, s)
}

// methodOrder orders the methods of one path.
var methodOrder = []string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodOptions, http.MethodTrace, http.MethodConnect,
}

func newContract(ctx context.Context, doc *openapi3.T, txt text, order propertyOrder) (*Contract, error) {
	base, err := basePath(doc)
	if err != nil {
		return nil, err
	}
	c := &Contract{
		Doc: doc, Base: base, text: txt,
		order:   order,
		byID:    map[string]*Operation{},
		byRoute: map[string]*Operation{},
		byPath:  map[string]map[string]*Operation{},
		schemes: readSchemes(doc),
	}
	paths := make([]string, 0, doc.Paths.Len())
	for p := range doc.Paths.Map() {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, path := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		item := doc.Paths.Value(path)
		tmpl, err := ParsePath(path)
		if err != nil {
			return nil, fmt.Errorf("paths.%w", err)
		}
		ops := item.Operations()
		for _, method := range methodOrder {
			op := ops[method]
			if op == nil {
				continue
			}
			o, err := c.readOperation(tmpl, method, item, op)
			if err != nil {
				return nil, err
			}
			if _, dup := c.byID[o.ID]; dup {
				return nil, fmt.Errorf("%s: operationId %s is used twice", o.Where, o.ID)
			}
			c.byID[o.ID] = o
			c.byRoute[method+" "+path] = o
			if c.byPath[path] == nil {
				c.byPath[path] = map[string]*Operation{}
			}
			c.byPath[path][method] = o
			c.Operations = append(c.Operations, o)
		}
	}
	if err := c.readBases(); err != nil {
		return nil, err
	}
	if c.ErrorCodes, err = errorCodes(doc); err != nil {
		return nil, err
	}
	c.errorBody = c.readErrorBody()
	c.inferResources()
	for _, o := range c.Operations {
		if o.Deprecation != nil && o.Deprecation.ReplacedBy != "" && c.byID[o.Deprecation.ReplacedBy] == nil {
			return nil, fmt.Errorf("%s: x-replaced-by: no operation %q", o.Where, o.Deprecation.ReplacedBy)
		}
	}
	return c, nil
}

func (c *Contract) readOperation(tmpl *PathTemplate, method string, item *openapi3.PathItem, op *openapi3.Operation) (*Operation, error) {
	path := tmpl.String()
	o := &Operation{
		ID:       op.OperationID,
		Method:   method,
		Path:     path,
		Template: tmpl,
		Where:    "paths." + path + "." + strings.ToLower(method),
		Op:       op,
		Item:     item,
	}
	if o.ID == "" {
		o.ID = method + " " + path
	}
	base, err := operationBase(c.Base, path, method, item, op)
	if err != nil {
		return nil, err
	}
	o.Base = base
	for _, ref := range item.Parameters {
		if ref.Value != nil {
			o.Parameters = append(o.Parameters, ref.Value)
		}
	}
	for _, ref := range op.Parameters {
		p := ref.Value
		if p == nil {
			continue
		}
		o.Parameters = slices.DeleteFunc(o.Parameters, func(q *openapi3.Parameter) bool { return q.In == p.In && q.Name == p.Name })
		o.Parameters = append(o.Parameters, p)
	}
	o.Security = c.Doc.Security
	if op.Security != nil {
		o.Security = *op.Security
	}
	o.Requirements = requirements(c.schemes, o.Security)
	if op.Responses != nil {
		for code := range op.Responses.Map() {
			if n, err := strconv.Atoi(code); err == nil {
				o.Statuses = append(o.Statuses, n)
			} else if n := statusRange(code); n != 0 {
				o.Ranges = append(o.Ranges, n)
			}
		}
	}
	slices.Sort(o.Statuses)
	slices.Sort(o.Ranges)
	for _, s := range o.Statuses {
		if s >= 200 && s < 300 {
			o.Success = s
			break
		}
	}
	if o.Success == 0 && (slices.Contains(o.Ranges, 2) || op.Responses != nil && op.Responses.Default() != nil) {
		o.Success = http.StatusOK
	}
	if op.Deprecated {
		d, err := readDeprecation(op)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.Where, err)
		}
		o.Deprecation = &d
	}
	return o, nil
}

// Parameter returns the parameter of o with the given location and name,
// or nil.
func (o *Operation) Parameter(in, name string) *openapi3.Parameter {
	for _, p := range o.Parameters {
		if p.In == in && p.Name == name {
			return p
		}
	}
	return nil
}

// statusRange returns the first digit of a range of statuses as OpenAPI
// writes it, 4 of 4XX, or 0 for a code that is none.
func statusRange(code string) int {
	if len(code) == 3 && code[0] >= '1' && code[0] <= '5' && strings.EqualFold(code[1:], "XX") {
		return int(code[0] - '0')
	}
	return 0
}

// Documents reports whether o documents the status: as itself, in a range
// such as 4XX, or by a default response.
func (o *Operation) Documents(status int) bool {
	return slices.Contains(o.Statuses, status) || slices.Contains(o.Ranges, status/100) && status >= 100 && status < 600 ||
		(o.Op.Responses != nil && o.Op.Responses.Default() != nil)
}

// Response returns the response o documents for status: the one of that
// status, or the default. It is nil when there is none.
func (o *Operation) Response(status int) *openapi3.Response {
	if o.Op.Responses == nil {
		return nil
	}
	if r := statusResponse(o.Op.Responses, status); r != nil && r.Value != nil {
		return r.Value
	}
	if r := o.Op.Responses.Default(); r != nil {
		return r.Value
	}
	return nil
}

// JSONSchema returns the schema of the JSON body of the response o
// documents for status, or nil when it has none.
func (o *Operation) JSONSchema(status int) *openapi3.Schema {
	return jsonSchema(o.Response(status))
}

// RequestSchema returns the schema of o's JSON request body, or nil.
func (o *Operation) RequestSchema() *openapi3.Schema {
	if rb := o.Op.RequestBody; rb != nil && rb.Value != nil {
		if _, mt := jsonMedia(rb.Value.Content); mt != nil && mt.Schema != nil {
			return mt.Schema.Value
		}
	}
	return nil
}

// JSONContentType returns the Content-Type o sends a JSON body of the
// response it documents for status with: application/json, or the JSON
// type the document names, such as application/problem+json or
// application/json;charset=UTF-8. It is application/json when the
// response documents none.
func (o *Operation) JSONContentType(status int) string {
	if r := o.Response(status); r != nil {
		if name, mt := jsonMedia(r.Content); mt != nil {
			return name
		}
	}
	return JSONContentType
}

func jsonSchema(r *openapi3.Response) *openapi3.Schema {
	if r == nil {
		return nil
	}
	if _, mt := jsonMedia(r.Content); mt != nil && mt.Schema != nil {
		return mt.Schema.Value
	}
	return nil
}

// codeStatus finds the status in an x-petmock-codes description, such as
// "The body is invalid (400).".
var codeStatus = regexp.MustCompile(`\((\d{3})\)`)

func errorCodes(doc *openapi3.T) (map[string]int, error) {
	out := map[string]int{}
	if doc.Components == nil {
		return out, nil
	}
	ref := doc.Components.Schemas["Error"]
	if ref == nil || ref.Value == nil {
		return out, nil
	}
	raw, ok := ref.Value.Extensions["x-petmock-codes"]
	if !ok {
		return out, nil
	}
	codes, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("components.schemas.Error.x-petmock-codes: want a mapping of code to description")
	}
	for code, v := range codes {
		text, _ := v.(string)
		m := codeStatus.FindStringSubmatch(text)
		if m == nil {
			return nil, fmt.Errorf("components.schemas.Error.x-petmock-codes.%s: the description names no status, such as (400)", code)
		}
		out[code], _ = strconv.Atoi(m[1])
	}
	return out, nil
}

// statusResponse is kin-openapi's Responses.Status, the response of status
// or else of its range, such as 2XX, without a string made for the status
// on every call: the keys are made once.
func statusResponse(rs *openapi3.Responses, status int) *openapi3.ResponseRef {
	if status < 100 || status >= 600 {
		return rs.Status(status)
	}
	if r := rs.Value(statusKeys[status]); r != nil {
		return r
	}
	return rs.Value(rangeKeys[status/100])
}

// statusKeys are the keys of the responses of statuses 100 to 599, and
// rangeKeys of their ranges, by first digit.
var statusKeys, rangeKeys = func() (s [600]string, r [6]string) {
	for i := 100; i < 600; i++ {
		s[i] = strconv.Itoa(i)
	}
	for d := 1; d < 6; d++ {
		r[d] = strconv.Itoa(d) + "XX"
	}
	return s, r
}()
