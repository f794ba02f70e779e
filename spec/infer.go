package spec

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// A resource is inferred from the shapes documents commonly have: a
// collection path that creates with POST, and an item path one parameter
// below it, such as /pets and /pets/{petId}, with a read, a list or both.
// The collection may be singular (/pet) and have no list; a replace or an
// update may be on the collection, naming the item in its body (PUT
// /pet); other GETs below the collection that answer items may find them
// by their properties (GET /pet/findByStatus); and the collection may lie
// below another resource's item (/owners/{ownerId}/pets). Each inference
// a user may not expect is a note.

// maxResourceNotes bounds the notes of what was inferred of resources, and
// of paths that look like resources but are not; past it, one more line
// counts the rest.
const maxResourceNotes = 20

// inferResources finds the resources of the document and gives their
// operations a role.
func (c *Contract) inferResources() {
	c.itemPaths = map[string]*Operation{}
	c.getsBelow = map[string][]*Operation{}
	for _, op := range c.Operations {
		if path, _, ok := op.Template.collection(); ok && c.itemPaths[path] == nil {
			c.itemPaths[path] = op
		}
		if op.Method == http.MethodGet {
			for _, above := range collectionsAbove(op.Template) {
				c.getsBelow[above] = append(c.getsBelow[above], op)
			}
		}
	}
	names := map[string]int{}
	var found []*Resource
	var inferred []string // notes
	seen := map[string]bool{}
	items := map[string]*Resource{} // by item path
	for _, op := range c.Operations {
		if (op.Method != http.MethodGet && op.Method != http.MethodPost) || seen[op.Path] {
			continue
		}
		seen[op.Path] = true
		r, notes := c.inferResource(op.Template)
		inferred = append(inferred, notes...)
		if r == nil {
			continue
		}
		if first := items[r.ItemPath]; first != nil {
			// Two collections below parents whose items are read at
			// one flat path: the first has them.
			inferred = append(inferred, fmt.Sprintf("paths.%s: its items would be read at %s, which reads those of %s, so it is served as plain operations", r.CollectionPath, r.ItemPath, first.CollectionPath))
			continue
		}
		items[r.ItemPath] = r
		found = append(found, r)
		names[r.Name]++
	}
	// An operation of one resource is not another's find, such as a
	// collection below another's: /pets/archived of /pets.
	taken := map[*Operation]bool{}
	for _, r := range found {
		for _, op := range []*Operation{r.List, r.CreateOp, r.Read, r.Replace, r.Update, r.Delete} {
			taken[op] = true
		}
	}
	for _, r := range found {
		inferred = append(inferred, c.finds(r, taken)...)
		if r.List == nil {
			listed := "not listed"
			if len(r.Finds) > 0 {
				listed = "listed only by " + r.Finds[0].Op.ID
			}
			inferred = append(inferred, fmt.Sprintf("paths.%s: no GET, so what its POST creates is read at %s and %s", r.CollectionPath, r.ItemPath, listed))
		}
	}
	for _, r := range found {
		if names[r.Name] > 1 {
			r.Name = strings.Join(resourceWords(r.CreateOp.Template), "-")
		}
		for _, op := range r.Operations() {
			op.Resource = r
		}
		r.CreateOp.Role = RoleCreate
		for op, role := range map[*Operation]Role{r.List: RoleList, r.Read: RoleRead, r.Replace: RoleReplace, r.Update: RoleUpdate, r.Delete: RoleDelete} {
			if op != nil {
				op.Role = role
			}
		}
		for _, f := range r.Finds {
			f.Op.Role = RoleFind
		}
		c.Resources = append(c.Resources, r)
	}
	byItem := map[string]*Resource{}
	for _, r := range c.Resources {
		if t, err := ParsePath(r.ItemPath); err == nil && byItem[prefixPath(t.segments)] == nil {
			byItem[prefixPath(t.segments)] = r
		}
	}
	for _, r := range c.Resources {
		r.Parent = c.parentOf(r, byItem)
	}
	if len(inferred) > maxResourceNotes {
		// A start-up log of 60,000 such lines says no more than this.
		more := len(inferred) - maxResourceNotes
		inferred = append(inferred[:maxResourceNotes], fmt.Sprintf("and %d more such notes of paths that look like resources", more))
	}
	c.Notes = append(c.Notes, inferred...)
	c.byName = make(map[string]*Resource, len(c.Resources))
	for _, r := range c.Resources {
		if c.byName[r.Name] == nil {
			c.byName[r.Name] = r
		}
	}
}

// inferResource reads the resource whose collection is path, with notes
// on what it inferred, or says why path is not one when it looks like
// one. It returns nil and no note for a path that has nothing of a
// collection.
func (c *Contract) inferResource(collection *PathTemplate) (*Resource, []string) {
	path := collection.String()
	ops := c.PathOperations(path)
	list, create := ops[http.MethodGet], ops[http.MethodPost]
	if create == nil {
		return nil, nil
	}
	var itemPath, idParam string
	if op := c.itemPaths[path]; op != nil {
		_, idParam, _ = op.Template.collection()
		itemPath = op.Path
	}
	var flatNote string
	if itemPath == "" && !c.isItemPath(collection) {
		itemPath, idParam, flatNote = c.flatItem(collection)
	}
	if itemPath == "" {
		if list == nil || c.isItemPath(collection) {
			// An action, such as POST /login, or a POST on the item
			// of another collection, such as POST /pet/{petId}.
			return nil, nil
		}
		if flatNote != "" {
			return nil, []string{flatNote}
		}
		return nil, []string{fmt.Sprintf("paths.%s: GET and POST but no item path such as %s/{id}, so it is served as plain operations", path, path)}
	}
	itemOps := c.PathOperations(itemPath)
	read := itemOps[http.MethodGet]
	if list == nil && read == nil {
		return nil, nil
	}
	notResource := func(format string, args ...any) (*Resource, []string) {
		return nil, []string{fmt.Sprintf(format, args...) + ", so " + path + " and " + itemPath + " are served as plain operations"}
	}
	// An operation that documents no success has no answer that says it
	// did its part, such as addPet of Swagger Petstore 2.0, which
	// documents only 405: it is answered as a plain operation.
	if create.Success == 0 {
		return notResource("%s.responses: no success (2xx) or default response", create.Where)
	}
	var notes []string
	succeeds := func(op *Operation) *Operation {
		if op == nil || op.Success != 0 {
			return op
		}
		notes = append(notes, fmt.Sprintf("%s.responses: no success (2xx) or default response, so it is answered as a plain operation, and changes no item", op.Where))
		return nil
	}
	if list, read = succeeds(list), succeeds(read); list == nil && read == nil {
		return nil, notes
	}
	if where, lo, hi, few := fewIDs(idParam, read, itemOps); few {
		return notResource("%s.parameters.%s: ids from %d to %d only, too few for the items a store gives ids to in order", where, idParam, lo, hi)
	}
	words := resourceWords(collection)
	name := words[len(words)-1]
	var item *openapi3.Schema
	var readWrapper *Wrapper
	if read != nil {
		item, readWrapper = c.unwrap(read.JSONSchema(read.Success), nil, idParam, name)
	}
	var envelope *Envelope
	if list != nil {
		listItems, env, why := c.listed(list, item, name)
		if listItems == nil {
			return notResource("%s.responses.%d: %s", list.Where, list.Success, why)
		}
		if item != nil && readWrapper == nil && listsOf(c, item, listItems) {
			// GET /snippets/{workspace} of GET /snippets: the path
			// below the collection is a collection of its own.
			return notResource("%s.responses.%d: a list of the items of %s, not one of them", read.Where, read.Success, path)
		}
		if item != nil && readWrapper == nil {
			holder := ""
			if env != nil {
				holder = env.Items
			}
			item, readWrapper = c.unwrap(item, listItems, idParam, name, holder)
		}
		if item == nil {
			item = listItems
		}
		if !alike(c, item, listItems) {
			// Vercel's checks: the list's items are checks, and what
			// the item path reads is a DNS record.
			return notResource("%s.responses.%d: the items it lists share few properties with what %s reads", list.Where, list.Success, read.ID)
		}
		envelope = env
	}
	createBody := create.RequestSchema()
	if createBody == nil || schemaType(createBody) != "object" {
		return notResource("%s.requestBody: not a JSON object", create.Where)
	}
	holder := ""
	if readWrapper != nil {
		holder = readWrapper.Property
	}
	createWrapper := c.bodyWrapper(create, name, holder)
	createItem := createBody
	if createWrapper != nil {
		createItem = createWrapper.Inner(c)
	}
	if item == nil {
		return notResource("%s.responses.%d: no JSON schema of an item", read.Where, read.Success)
	}
	if schemaType(item) != "object" {
		where := list
		if read != nil && read.JSONSchema(read.Success) != nil {
			where = read
		}
		return notResource("%s.responses.%d: the items are not JSON objects", where.Where, where.Success)
	}
	r := &Resource{
		CollectionPath: path,
		ItemPath:       itemPath,
		ParentParams:   collection.Params(),
		IDParam:        idParam,
		Item:           item,
		Create:         createBody,
		List:           list,
		CreateOp:       create,
		Read:           read,
		Replace:        succeeds(c.changes(itemOps[http.MethodPut], &notes)),
		Update:         succeeds(c.changes(itemOps[http.MethodPatch], &notes)),
		Delete:         succeeds(itemOps[http.MethodDelete]),
	}
	r.Name = name

	props := WithUndeclared(item, c.Properties(item))
	sent := map[string]bool{}
	for _, p := range WithUndeclared(createItem, c.Properties(createItem)) {
		// A readOnly property is not sent, though the create's schema
		// be the item's own, as Train Travel's createBooking's is.
		if !p.Schema.ReadOnly {
			sent[p.Name] = true
		}
	}
	var param *openapi3.Schema // of the id in the item path
	for _, op := range []*Operation{r.Read, r.Replace, r.Update, r.Delete} {
		if op == nil || param != nil {
			continue
		}
		if p := op.Parameter(openapi3.ParameterInPath, idParam); p != nil && p.Schema != nil {
			param = p.Schema.Value
		}
	}
	id, ok := idProperty(props, idParam, r.Name, sent, param)
	if !ok {
		where := create.Where
		if list != nil {
			where = list.Where
		}
		return notResource("%s: the item has no id property that the body of %s leaves out", where, create.ID)
	}
	r.IDProperty, r.IDIsString, r.IDSent = id.Name, schemaType(id.Schema) == "string", sent[id.Name]
	r.Properties = append([]Property{id}, slices.DeleteFunc(props, func(p Property) bool { return p.Name == id.Name })...)

	if raw, ok := createBody.Extensions["x-petmock-defaults"]; ok {
		d, isMap := raw.(map[string]any)
		if !isMap {
			return nil, []string{fmt.Sprintf("%s.requestBody: x-petmock-defaults is not a mapping of property to value, so it is ignored", create.Where)}
		}
		r.Defaults = d
	}
	if list != nil {
		r.ListEnvelope = envelope
		r.Paging = readPaging(list, envelope)
		r.Filters = filters(r, list, r.Paging)
	}
	notes = append(notes, c.byBody(r, ops, succeeds)...)
	c.wrappers(r, readWrapper, createWrapper)
	return r, append(notes, r.inferenceNotes()...)
}

// wrappers reads how the operations of r answer the item, or take it in
// their bodies, inside an object: the read as read says, the create's
// body as create says, and the others by their schemas.
func (c *Contract) wrappers(r *Resource, read, create *Wrapper) {
	add := func(m *map[*Operation]*Wrapper, op *Operation, w *Wrapper) {
		if w == nil {
			return
		}
		if *m == nil {
			*m = map[*Operation]*Wrapper{}
		}
		(*m)[op] = w
	}
	add(&r.Wrapped, r.Read, read)
	add(&r.BodyWrapped, r.CreateOp, create)
	holder := ""
	if read != nil {
		holder = read.Property
	}
	for _, op := range []*Operation{r.CreateOp, r.Replace, r.Update, r.Delete} {
		if op == nil {
			continue
		}
		if s := op.JSONSchema(op.Success); s != nil && s != r.Item {
			_, w := c.unwrap(s, r.Item, r.IDParam, r.Name, holder)
			add(&r.Wrapped, op, w)
		}
		if op != r.CreateOp && op.Method != http.MethodDelete {
			add(&r.BodyWrapped, op, c.bodyWrapper(op, r.Name, holder))
		}
	}
}

// changes returns op, a PUT or a PATCH of an item path, if it changes the
// item with a body of it: a JSON object, or for a PATCH a JSON Patch
// (RFC 6902), an array of operations each with an op and a path. Else,
// such as the PUT of Box's upload sessions, which takes bytes of a file,
// it returns nil, with a note: op is answered as a plain operation.
func (c *Contract) changes(op *Operation, notes *[]string) *Operation {
	if op == nil {
		return nil
	}
	s := op.RequestSchema()
	switch {
	case s == nil:
	case schemaType(s) == "object":
		return op
	case op.Method == http.MethodPatch && IsJSONPatch(c, s):
		return op
	}
	*notes = append(*notes, fmt.Sprintf("%s.requestBody: not a JSON object that changes the item, so it is answered as a plain operation, and changes no item", op.Where))
	return nil
}

// IsJSONPatch reports whether s is the schema of a JSON Patch (RFC 6902):
// an array of objects that have an op and a path.
func IsJSONPatch(c *Contract, s *openapi3.Schema) bool {
	if schemaType(s) != "array" || s.Items == nil || s.Items.Value == nil {
		return false
	}
	var op, path bool
	for _, p := range c.Properties(s.Items.Value) {
		op, path = op || p.Name == "op", path || p.Name == "path"
	}
	return op && path
}

// minIDs is the fewest ids an item path must take to be a resource's:
// a store gives an id to each item created, in order, and a range of
// fewer, such as the 1 to 10 of Swagger Petstore 2.0's getOrderById,
// leaves the items of a session out of reach.
const minIDs = 1000

// fewIDs reports whether the integer id parameter of the item path takes
// fewer than minIDs ids, with the place it is declared and its bounds.
func fewIDs(idParam string, read *Operation, itemOps map[string]*Operation) (where string, lo, hi int64, few bool) {
	ops := []*Operation{read}
	for _, m := range methodOrder {
		ops = append(ops, itemOps[m])
	}
	for _, op := range ops {
		if op == nil {
			continue
		}
		p := op.Parameter(openapi3.ParameterInPath, idParam)
		if p == nil || p.Schema == nil || p.Schema.Value == nil || schemaType(p.Schema.Value) != "integer" || p.Schema.Value.Max == nil {
			continue
		}
		// The bounds are compared as the float64s they are read as: a
		// maximum of 2^63-1 is 2^63 there, which no int64 holds.
		s := p.Schema.Value
		if s.Min == nil || *s.Max-*s.Min+1 >= minIDs {
			continue
		}
		return op.Where, int64(*s.Min), int64(*s.Max), true
	}
	return "", 0, 0, false
}

// flatItem returns the item path of the items a collection below a
// parent creates where they are read, changed and deleted at a path of
// their own, not below that parent: /settings/{settingId} of
// /configs/{configId}/settings, /v1/refunds/{refund} of
// /v1/application_fees/{id}/refunds. Its collection is the literal
// segments the collection begins with, or fewer of them, then the
// collection's last segment. It returns "" where there is none, with a
// note where one is there but another collection creates its items.
func (c *Contract) flatItem(collection *PathTemplate) (itemPath, idParam, note string) {
	segs := collection.segments
	n := len(segs)
	if n < 2 || segs[n-1].Kind != SegmentLiteral || len(collection.params) == 0 {
		return "", "", ""
	}
	first := slices.IndexFunc(segs, func(s Segment) bool { return s.Kind != SegmentLiteral })
	for k := first; k >= 0; k-- {
		flat := prefixPath(append(slices.Clone(segs[:k]), segs[n-1]))
		op := c.itemPaths[flat]
		if op == nil || op.Method == "" {
			continue
		}
		if c.byPath[flat][http.MethodPost] != nil {
			return "", "", fmt.Sprintf("paths.%s: its items would be read at %s, but %s creates items of its own there, so it is served as plain operations", collection, op.Path, flat)
		}
		_, idParam, _ = op.Template.collection()
		return op.Path, idParam, ""
	}
	return "", "", ""
}

// isItemPath reports whether t is the item path of a path with POST.
func (c *Contract) isItemPath(t *PathTemplate) bool {
	path, _, ok := t.collection()
	return ok && c.byPath[path][http.MethodPost] != nil
}

// listed returns the schema of the items a list answers, and the
// envelope they are answered in, nil for a JSON array; or nil and why
// the list's answer holds no items. item is the schema of an item as its
// read answers it, if known; name is the resource's.
func (c *Contract) listed(list *Operation, item *openapi3.Schema, name string) (*openapi3.Schema, *Envelope, string) {
	s := list.JSONSchema(list.Success)
	if s == nil {
		return nil, nil, "not a JSON array"
	}
	if schemaType(s) == "array" {
		if s.Items == nil || s.Items.Value == nil {
			return nil, nil, "a JSON array of no schema of items"
		}
		return s.Items.Value, nil, ""
	}
	e, why := c.envelope(s, item, name, list)
	if e == nil {
		return nil, nil, why
	}
	return e.Property(c, []string{e.Items}).Items.Value, e, ""
}

// alike reports whether a and b, the schemas of an item as its read
// answers it and as its list does, describe one thing: the same schema,
// or objects that share at least half the properties of the one of
// fewer, as a compact form of the item shares with the full one.
func alike(c *Contract, a, b *openapi3.Schema) bool {
	if a == b {
		return true
	}
	pa, pb := c.Properties(a), c.Properties(b)
	if len(pa) > len(pb) {
		pa, pb = pb, pa
	}
	if len(pa) == 0 {
		return true
	}
	shared := 0
	for _, p := range pa {
		if slices.ContainsFunc(pb, func(q Property) bool { return q.Name == p.Name }) {
			shared++
		}
	}
	return 2*shared >= len(pa)
}

// listsOf reports whether s, the answer of a read, is a list of items of
// the schema item: an array of them, or an object with an array of them.
func listsOf(c *Contract, s, item *openapi3.Schema) bool {
	if schemaType(s) == "array" {
		return s.Items != nil && s.Items.Value == item
	}
	return slices.ContainsFunc(c.Properties(s), func(p Property) bool {
		return schemaType(p.Schema) == "array" && p.Schema.Items != nil && p.Schema.Items.Value == item
	})
}

// readPaging reads how list is paged: by its limit parameter, if it has
// one, and petmock's cursor, in the query parameter that takes back the
// cursor of its envelope where it has one.
func readPaging(list *Operation, e *Envelope) Paging {
	pg := Paging{Cursor: CursorParam}
	if e != nil && e.Cursor != nil {
		pg.Cursor = cursorParam(list, e.Cursor[len(e.Cursor)-1]).Name
	}
	p := list.Parameter(openapi3.ParameterInQuery, "limit")
	if p == nil || p.Schema == nil || p.Schema.Value == nil || schemaType(p.Schema.Value) != "integer" {
		return pg
	}
	s := p.Schema.Value
	pg.Limit, pg.Min, pg.LimitSchema = p.Name, 1, s
	if s.Min != nil {
		pg.Min = max(int(*s.Min), 1)
	}
	if s.Max != nil {
		pg.Max = int(*s.Max)
	}
	pg.Default = DefaultPageSize
	if pg.Max > 0 {
		pg.Default = min(pg.Default, pg.Max)
	}
	if d, ok := s.Default.(float64); ok {
		pg.Default = int(d)
	}
	return pg
}

// filters returns the query parameters of op that name a property of the
// item of a simple type, other than the paging's.
func filters(r *Resource, op *Operation, paging Paging) []Filter {
	var out []Filter
	for _, p := range op.Parameters {
		if p.In != openapi3.ParameterInQuery || p.Name == paging.Limit || p.Name == paging.Cursor {
			continue
		}
		prop, ok := r.Property(p.Name)
		if !ok {
			continue
		}
		switch schemaType(prop.Schema) {
		case "string", "integer", "number", "boolean":
			out = append(out, Filter{Param: p, Schema: prop.Schema})
		}
	}
	return out
}

// byBody takes a PUT or PATCH of the collection path as the replace or
// update of an item path that has none, where its body has the id
// property, as PUT /pet of Swagger Petstore v3 has.
func (c *Contract) byBody(r *Resource, ops map[string]*Operation, succeeds func(*Operation) *Operation) []string {
	var notes []string
	for _, m := range []struct {
		method string
		op     **Operation
		verb   string
	}{{http.MethodPut, &r.Replace, "replaces"}, {http.MethodPatch, &r.Update, "updates"}} {
		op := ops[m.method]
		if *m.op != nil || op == nil {
			continue
		}
		body := op.RequestSchema()
		if body == nil || !slices.ContainsFunc(c.Properties(body), func(p Property) bool { return p.Name == r.IDProperty }) {
			continue
		}
		if op = succeeds(op); op == nil {
			continue
		}
		*m.op = op
		notes = append(notes, fmt.Sprintf("%s: %s the %s whose %s its body holds, as %s has no %s", op.Where, m.verb, Singular(r.Name), r.IDProperty, r.ItemPath, m.method))
	}
	return notes
}

// finds takes the GETs below the collection path, such as
// /pet/findByStatus, that answer an array of items, as finds of the
// resource by the properties their query names, unless taken by a
// resource. One whose query names none is served as a plain operation,
// with a note.
func (c *Contract) finds(r *Resource, taken map[*Operation]bool) []string {
	var notes []string
	collection := r.CreateOp.Template
	for _, op := range c.getsBelow[collection.String()] {
		if taken[op] || !literalsBelow(op.Template, collection) {
			continue
		}
		items, env, _ := c.listed(op, r.Item, r.Name)
		if items == nil || !r.isItem(c, items) {
			continue
		}
		fs := filters(r, op, Paging{Cursor: CursorParam})
		if len(fs) == 0 {
			notes = append(notes, fmt.Sprintf("%s: answers items of %s, but its query names no property petmock can match them by, so its answers are made up", op.Where, r.CollectionPath))
			continue
		}
		r.Finds = append(r.Finds, Find{Op: op, Filters: fs, Envelope: env})
		var named []string
		for _, f := range fs {
			named = append(named, f.Name())
		}
		notes = append(notes, fmt.Sprintf("%s: lists the items of %s whose %s its query asks for", op.Where, r.CollectionPath, strings.Join(named, " and ")))
	}
	return notes
}

// collectionsAbove returns the paths t is literalsBelow, such as /pet of
// /pet/findByStatus, and /a and /a/b of /a/b/c: a contract indexes its
// GETs by them once, rather than look through every operation for each
// resource, which for 30,000 resources took 40 s.
func collectionsAbove(t *PathTemplate) []string {
	var out []string
	for k := len(t.segments) - 1; k >= 1 && t.segments[k].Kind == SegmentLiteral; k-- {
		out = append(out, prefixPath(t.segments[:k]))
	}
	return out
}

// prefixPath returns the path of the segments, such as /owners/{ownerId}.
func prefixPath(segments []Segment) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteString("/")
		b.WriteString(s.Text)
	}
	return b.String()
}

// literalsBelow reports whether t is the collection c followed by one or
// more literal segments, such as /pet/findByStatus of /pet.
func literalsBelow(t, c *PathTemplate) bool {
	n := len(c.segments)
	if len(t.segments) <= n {
		return false
	}
	for i, s := range c.segments {
		if t.segments[i].Text != s.Text {
			return false
		}
	}
	for _, s := range t.segments[n:] {
		if s.Kind != SegmentLiteral {
			return false
		}
	}
	return true
}

// isItem reports whether s is the schema of an item of r: the same one,
// or an object with the id property.
func (r *Resource) isItem(c *Contract, s *openapi3.Schema) bool {
	if s == nil {
		return false
	}
	if s == r.Item {
		return true
	}
	return schemaType(s) == "object" && slices.ContainsFunc(c.Properties(s), func(p Property) bool { return p.Name == r.IDProperty })
}

// inferenceNotes says what petmock makes of the resource that its
// document does not say plainly.
func (r *Resource) inferenceNotes() []string {
	var notes []string
	one := Singular(r.Name)
	if r.IDSent {
		made := "the next id"
		if r.IDIsString {
			made = "one petmock makes"
		}
		notes = append(notes, fmt.Sprintf("%s.requestBody: %s created is kept under the %s its create sends, in place of the %s of that %s if there is one, and under %s when it sends none",
			r.CreateOp.Where, aOrAn(one), r.IDProperty, one, r.IDProperty, made))
	}
	switch {
	case len(r.ParentParams) > 0 && r.Flat():
		notes = append(notes, fmt.Sprintf("paths.%s: the items of each %s are kept apart: a path lists only those created below it, and %s reads, changes and deletes any of them", r.CollectionPath, strings.Join(r.ParentParams, " and "), r.ItemPath))
	case len(r.ParentParams) > 0:
		notes = append(notes, fmt.Sprintf("paths.%s: the items of each %s are kept apart: a path lists and reads only those created below it", r.CollectionPath, strings.Join(r.ParentParams, " and ")))
	}
	return notes
}

// parentOf returns the resource whose item path r's collection path lies
// below, the nearest, such as owners of /owners/{ownerId}/pets, or nil.
// byItem holds the resources by their item paths, the first of each.
func (c *Contract) parentOf(r *Resource, byItem map[string]*Resource) *Resource {
	if len(r.ParentParams) == 0 {
		return nil
	}
	collection := r.CreateOp.Template
	for k := len(collection.segments) - 1; k >= 1; k-- {
		if p := byItem[prefixPath(collection.segments[:k])]; p != nil && p != r {
			return p
		}
	}
	return nil
}

// resourceWords returns the words a resource of the collection path is
// named after: its literal segments, or "items" when it has none.
func resourceWords(collection *PathTemplate) []string {
	if words := collection.Literals(); len(words) > 0 {
		return words
	}
	return []string{"items"}
}

// aOrAn writes a word with its article: "a pet", "an environment".
func aOrAn(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
