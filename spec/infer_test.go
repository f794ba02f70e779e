package spec_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// shapeDoc returns a document of paths, given as YAML below paths:, whose
// schemas are given as YAML below components.schemas:. Every operation
// answers its status with the schema it names.
func shapeDoc(tb testing.TB, paths, schemas string) *spec.Contract {
	tb.Helper()
	doc := "openapi: 3.0.3\ninfo: {title: shapes, version: '1'}\npaths:\n" + indent(paths, "  ") +
		"components:\n  schemas:\n" + indent(schemas, "    ")
	c, err := spec.Read([]byte(doc))
	if err != nil {
		tb.Fatalf("%v\n%s", err, doc)
	}
	return c
}

func indent(s, by string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(strings.Trim(s, "\n"), "\n") {
		b.WriteString(by + line + "\n")
	}
	return b.String()
}

// op is the YAML of an operation that answers status with a JSON value of
// schema, and takes a JSON body of body when it is not "".
func op(id string, status int, schema, body string, params ...string) string {
	s := fmt.Sprintf("operationId: %s\n", id)
	if len(params) > 0 {
		s += "parameters:\n"
		for _, p := range params {
			s += "  - " + p + "\n"
		}
	}
	if body != "" {
		s += "requestBody: {required: true, content: {application/json: {schema: " + body + "}}}\n"
	}
	s += fmt.Sprintf("responses: {'%d': {description: ok", status)
	if schema != "" {
		s += ", content: {application/json: {schema: " + schema + "}}"
	}
	return s + "}}\n"
}

// path is the YAML of a path item of the given operations, by method.
func path(name string, ops ...string) string {
	s := name + ":\n"
	for i := 0; i+1 < len(ops); i += 2 {
		s += "  " + ops[i] + ":\n" + indent(ops[i+1], "    ")
	}
	return s
}

const (
	ref      = "{$ref: '#/components/schemas/%s'}"
	arrayOf  = "{type: array, items: {$ref: '#/components/schemas/%s'}}"
	intParam = "{name: %s, in: path, required: true, schema: {type: integer, format: int64}}"
	strParam = "{name: %s, in: path, required: true, schema: {type: string}}"
)

func roles(r *spec.Resource) string {
	var out []string
	for _, op := range r.Operations() {
		out = append(out, op.Role.String()+" "+op.Method+" "+op.Path)
	}
	return strings.Join(out, "; ")
}

func notesHolding(c *spec.Contract, text string) bool {
	return slices.ContainsFunc(c.Notes, func(n string) bool { return strings.Contains(n, text) })
}

// TestSingularCollection reads the shape of Swagger Petstore v3's /pet: a
// create and a replace on the collection, the id in their body, no list,
// the item read and deleted at /pet/{petId}, and finds below /pet.
func TestSingularCollection(t *testing.T) {
	pet := fmt.Sprintf(ref, "Pet")
	c := shapeDoc(t,
		path("/pet",
			"put", op("updatePet", 200, pet, pet),
			"post", op("addPet", 200, pet, pet))+
			path("/pet/findByStatus",
				"get", op("findPetsByStatus", 200, fmt.Sprintf(arrayOf, "Pet"), "", "{name: status, in: query, schema: {type: string, enum: [available, sold], default: available}}"))+
			path("/pet/findByTags",
				"get", op("findPetsByTags", 200, fmt.Sprintf(arrayOf, "Pet"), "", "{name: tags, in: query, schema: {type: array, items: {type: string}}}"))+
			path("/pet/{petId}",
				"get", op("getPetById", 200, pet, "", fmt.Sprintf(intParam, "petId")),
				"post", op("updatePetWithForm", 200, "", "", fmt.Sprintf(intParam, "petId")),
				"delete", op("deletePet", 200, "", "", fmt.Sprintf(intParam, "petId"))),
		`Pet: {type: object, required: [name], properties: {id: {type: integer, format: int64}, name: {type: string}, tags: {type: array, items: {type: string}}, status: {type: string, enum: [available, sold]}}}`)
	if len(c.Resources) != 1 {
		t.Fatalf("%d resources, want pet; notes: %q", len(c.Resources), c.Notes)
	}
	r := c.Resources[0]
	want := "create POST /pet; read GET /pet/{petId}; replace PUT /pet; delete DELETE /pet/{petId}; find GET /pet/findByStatus"
	if got := roles(r); got != want {
		t.Errorf("operations: %s, want %s", got, want)
	}
	if r.Name != "pet" || r.List != nil || r.IDProperty != "id" || r.IDIsString || !r.IDSent {
		t.Errorf("pet: name %q, list %v, id %q (string %v, sent %v), want pet, none, id (integer, sent)", r.Name, r.List, r.IDProperty, r.IDIsString, r.IDSent)
	}
	if !r.ByBody(r.Replace) || r.ByBody(r.Delete) {
		t.Errorf("ByBody(updatePet) = %v, ByBody(deletePet) = %v, want true, false", r.ByBody(r.Replace), r.ByBody(r.Delete))
	}
	if len(r.Finds) != 1 || len(r.Finds[0].Filters) != 1 || r.Finds[0].Filters[0].Name() != "status" {
		t.Errorf("finds %+v, want findPetsByStatus by status", r.Finds)
	}
	if op := c.Operation("updatePetWithForm"); op.Resource != nil {
		t.Errorf("updatePetWithForm is an operation of %s, want of none", op.Resource.Name)
	}
	for _, note := range []string{
		"paths./pet.put: replaces the pet whose id its body holds",
		"paths./pet.post.requestBody: a pet created is kept under the id its create sends, in place of the pet of that id if there is one, and under the next id when it sends none",
		"paths./pet/findByStatus.get: lists the items of /pet whose status",
		"paths./pet/findByTags.get: answers items of /pet, but its query names no property",
		"paths./pet: no GET, so what its POST creates is read at /pet/{petId} and listed only by findPetsByStatus",
	} {
		if !notesHolding(c, note) {
			t.Errorf("no note holding %q; notes:\n%s", note, strings.Join(c.Notes, "\n"))
		}
	}
	if notesHolding(c, "paths./pet/{petId}: GET and POST") {
		t.Errorf("a note takes the item path for a collection: %q", c.Notes)
	}
}

// TestIDProperty: the id property is the one the id parameter names, else
// id, else the parameter's name written otherwise, else the first the
// create leaves out; a string id is a string, and one the create sends
// names the item.
func TestIDProperty(t *testing.T) {
	tests := []struct {
		name, param, props, create string
		id                         string
		isString                   bool
	}{
		{"the parameter's name", fmt.Sprintf(strParam, "username"),
			"{id: {type: integer}, username: {type: string}, email: {type: string}}", "{username: {type: string}, email: {type: string}}", "username", true},
		{"id for orderId", fmt.Sprintf(intParam, "orderId"),
			"{petId: {type: integer}, id: {type: integer}, quantity: {type: integer}}", "{petId: {type: integer}, quantity: {type: integer}}", "id", false},
		{"written otherwise", fmt.Sprintf(strParam, "tagId"),
			"{label: {type: string}, tag_id: {type: string}}", "{label: {type: string}}", "tag_id", true},
		{"a uuid", fmt.Sprintf(strParam, "thingId"),
			"{id: {type: string, format: uuid}, label: {type: string}}", "{label: {type: string}}", "id", true},
		{"the first left out", fmt.Sprintf(strParam, "key"),
			"{label: {type: string}, code: {type: string}}", "{label: {type: string}}", "code", true},
		{"the first left out but a time", fmt.Sprintf(strParam, "key"),
			"{created_at: {type: string, format: date-time}, label: {type: string}, code: {type: string}}", "{label: {type: string}}", "code", true},
		{"the first left out but a time by its name", fmt.Sprintf(strParam, "key"),
			"{AuthorizedDateUtc: {type: string}, updatedAt: {type: string}, label: {type: string}, code: {type: string}}", "{label: {type: string}}", "code", true},
		{"the first left out that a patterned parameter holds", `{name: key, in: path, required: true, schema: {type: string, pattern: '^REP-[0-9a-f]{8}$'}}`,
			"{count: {type: integer}, label: {type: string}, code: {type: string}}", "{label: {type: string}}", "code", true},
		{"the first left out but a kind", fmt.Sprintf(strParam, "key"),
			"{class: {type: string, enum: [lamp, plug]}, label: {type: string}, code: {type: string}}", "{label: {type: string}}", "code", true},
		{"the first left out but a kind or a time of an allOf", fmt.Sprintf(strParam, "taskId"),
			"{taskStatus: {allOf: [{type: string, enum: [DONE, FAILED]}, {description: The status.}]}, begun: {allOf: [{type: string, format: date-time}]}, label: {type: string}, code: {type: string}}", "{label: {type: string}}", "code", true},
		{"the parameter's last word", fmt.Sprintf(strParam, "projectKey"),
			"{_id: {type: string}, key: {type: string}, name: {type: string}}", "{key: {type: string}, name: {type: string}}", "key", true},
		{"the last word before id", fmt.Sprintf(strParam, "flagKey"),
			"{id: {type: integer}, key: {type: string}}", "{key: {type: string}}", "key", true},
		{"a gid", fmt.Sprintf(strParam, "project_gid"),
			"{gid: {type: string}, name: {type: string}}", "{name: {type: string}}", "gid", true},
		{"a slug", fmt.Sprintf(strParam, "repo_slug"),
			"{uuid: {type: string, format: uuid}, slug: {type: string}, name: {type: string}}", "{name: {type: string}}", "slug", true},
		{"the resource's id", fmt.Sprintf(intParam, "n"),
			"{label: {type: string}, thing_id: {type: integer}}", "{label: {type: string}}", "thing_id", false},
		{"an _id", fmt.Sprintf(strParam, "ref"),
			"{label: {type: string}, _id: {type: string}}", "{label: {type: string}}", "_id", true},
		{"a uuid of another name", fmt.Sprintf(strParam, "ref"),
			"{uuid: {type: string, format: uuid}, label: {type: string}}", "{label: {type: string}}", "uuid", true},
		{"Appwrite's $id", fmt.Sprintf(strParam, "documentId"),
			"{$collection: {type: string}, $id: {type: string}, data: {type: object}}", "{data: {type: object}}", "$id", true},
		{"an ID in PascalCase", fmt.Sprintf(intParam, "domainid"),
			"{DKIMHost: {type: string}, ID: {type: integer}, Name: {type: string}}", "{Name: {type: string}}", "ID", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			param := tt.param[strings.Index(tt.param, "name: ")+6 : strings.Index(tt.param, ",")]
			item := fmt.Sprintf(ref, "Item")
			c := shapeDoc(t,
				path("/things", "get", op("list", 200, fmt.Sprintf(arrayOf, "Item"), ""), "post", op("create", 201, item, fmt.Sprintf(ref, "New")))+
					path("/things/{"+param+"}", "get", op("read", 200, item, "", tt.param)),
				"Item: {type: object, properties: "+tt.props+"}\nNew: {type: object, properties: "+tt.create+"}")
			if len(c.Resources) != 1 {
				t.Fatalf("no resource; notes: %q", c.Notes)
			}
			r := c.Resources[0]
			if r.IDProperty != tt.id || r.IDIsString != tt.isString {
				t.Errorf("id property %q (string %v), want %q (string %v)", r.IDProperty, r.IDIsString, tt.id, tt.isString)
			}
			if r.Properties[0].Name != tt.id {
				t.Errorf("properties begin with %q, want the id %q", r.Properties[0].Name, tt.id)
			}
			if sent := strings.Contains(tt.create, tt.id+":"); r.IDSent != sent {
				t.Errorf("IDSent = %v, want %v", r.IDSent, sent)
			}
		})
	}
}

// TestNestedResource: the pets of /owners/{ownerId}/pets belong to an
// owner, and the owners resource is their parent.
func TestNestedResource(t *testing.T) {
	owner, pet := fmt.Sprintf(ref, "Owner"), fmt.Sprintf(ref, "Pet")
	ownerParam := fmt.Sprintf(intParam, "ownerId")
	c := shapeDoc(t,
		path("/owners", "get", op("listOwners", 200, fmt.Sprintf(arrayOf, "Owner"), ""), "post", op("createOwner", 201, owner, owner))+
			path("/owners/{ownerId}", "get", op("getOwner", 200, owner, "", ownerParam))+
			path("/owners/{ownerId}/pets", "get", op("listPets", 200, fmt.Sprintf(arrayOf, "Pet"), "", ownerParam), "post", op("createPet", 201, pet, pet, ownerParam))+
			path("/owners/{ownerId}/pets/{petId}", "get", op("getPet", 200, pet, "", ownerParam, fmt.Sprintf(intParam, "petId"))),
		"Owner: {type: object, properties: {id: {type: integer, readOnly: true}, name: {type: string}}}\n"+
			"Pet: {type: object, properties: {id: {type: integer, readOnly: true}, name: {type: string}}}")
	owners, pets := c.Resource("owners"), c.Resource("pets")
	if owners == nil || pets == nil {
		t.Fatalf("resources %v, want owners and pets; notes %q", c.Resources, c.Notes)
	}
	if !slices.Equal(pets.ParentParams, []string{"ownerId"}) || pets.Parent != owners {
		t.Errorf("pets: parent params %v, parent %v, want [ownerId] and owners", pets.ParentParams, pets.Parent)
	}
	if owners.Parent != nil || len(owners.ParentParams) != 0 {
		t.Errorf("owners: parent %v, params %v, want none", owners.Parent, owners.ParentParams)
	}
	if !notesHolding(c, "paths./owners/{ownerId}/pets: the items of each ownerId are kept apart") {
		t.Errorf("no note on the pets of each owner: %q", c.Notes)
	}
}

// TestNotACollection: a POST without an item path, or a collection whose
// item path has no GET and that has no list, is no resource, and is not
// noted: nothing of it looks like one.
func TestNotACollection(t *testing.T) {
	thing := fmt.Sprintf(ref, "Thing")
	c := shapeDoc(t,
		path("/login", "post", op("login", 200, thing, thing))+
			path("/jobs", "post", op("startJob", 202, thing, thing))+
			path("/jobs/{jobId}", "delete", op("cancelJob", 204, "", "", fmt.Sprintf(intParam, "jobId"))),
		"Thing: {type: object, properties: {id: {type: integer}}}")
	if len(c.Resources) != 0 || len(c.Notes) != 0 {
		t.Errorf("resources %v, notes %q, want none", c.Resources, c.Notes)
	}
}

// TestOperationsWithoutSuccess: an operation that documents no success,
// as Swagger Petstore 2.0's addPet (405 only) and deleteOrder (400 and
// 404) do, takes no part in a resource: a create makes no resource, and
// another is answered as a plain operation; a note says so.
func TestOperationsWithoutSuccess(t *testing.T) {
	thing := fmt.Sprintf(ref, "Thing")
	doc := func(createStatus int) *spec.Contract {
		return shapeDoc(t,
			path("/things", "post", op("create", createStatus, thing, thing))+
				path("/things/{id}",
					"get", op("read", 200, thing, "", fmt.Sprintf(intParam, "id")),
					"delete", op("remove", 404, "", "", fmt.Sprintf(intParam, "id"))),
			"Thing: {type: object, properties: {id: {type: integer, readOnly: true}, label: {type: string}}}")
	}
	c := doc(405)
	if len(c.Resources) != 0 || !notesHolding(c, "paths./things.post.responses: no success (2xx) or default response, so /things and /things/{id} are served as plain operations") {
		t.Errorf("a create of 405 only: resources %v, notes %q, want none and a note", c.Resources, c.Notes)
	}
	c = doc(201)
	if len(c.Resources) != 1 || c.Resources[0].Delete != nil || c.Operation("remove").Role != spec.RoleOther {
		t.Fatalf("a delete of 404 only: resources %v, want one without a delete", c.Resources)
	}
	if !notesHolding(c, "paths./things/{id}.delete.responses: no success (2xx) or default response, so it is answered as a plain operation") {
		t.Errorf("no note on the delete of 404 only: %q", c.Notes)
	}
}

// TestFewIDs: an item path whose integer id takes fewer ids than a store
// gives in a session, such as the 1 to 10 of Swagger Petstore 2.0's
// getOrderById, is no resource's, and a note says so.
func TestFewIDs(t *testing.T) {
	thing := fmt.Sprintf(ref, "Thing")
	doc := func(max uint64) *spec.Contract {
		return shapeDoc(t,
			path("/things", "post", op("create", 201, thing, thing))+
				path("/things/{id}", "get", op("read", 200, thing, "", fmt.Sprintf("{name: id, in: path, required: true, schema: {type: integer, minimum: 1, maximum: %d}}", max))),
			"Thing: {type: object, properties: {id: {type: integer, readOnly: true}, label: {type: string}}}")
	}
	c := doc(10)
	if len(c.Resources) != 0 || !notesHolding(c, "paths./things/{id}.get.parameters.id: ids from 1 to 10 only, too few") {
		t.Errorf("ids 1 to 10: resources %v, notes %q, want none and a note", c.Resources, c.Notes)
	}
	for _, max := range []uint64{100000, math.MaxInt64} {
		if c := doc(max); len(c.Resources) != 1 {
			t.Errorf("ids 1 to %d: resources %v, want one; notes %q", max, c.Resources, c.Notes)
		}
	}
}

// TestChangesOfTheItem: a PUT or a PATCH of the item path is the
// resource's replace or update only where its body changes the item: a
// JSON object, or a JSON Patch for a PATCH. One that takes bytes, such as
// a part of an upload, is a plain operation, and a note says so.
func TestChangesOfTheItem(t *testing.T) {
	thing := fmt.Sprintf(ref, "Thing")
	idParam := fmt.Sprintf(intParam, "id")
	c := shapeDoc(t,
		path("/things", "get", op("listThings", 200, fmt.Sprintf(arrayOf, "Thing"), ""), "post", op("createThing", 201, thing, thing))+
			path("/things/{id}",
				"get", op("getThing", 200, thing, "", idParam),
				"put", op("uploadPart", 200, thing, "{type: string, format: binary}", idParam),
				"patch", op("patchThing", 200, thing, "{type: array, items: {type: object, properties: {op: {type: string}, path: {type: string}, value: {}}}}", idParam)),
		"Thing: {type: object, properties: {id: {type: integer, readOnly: true}, label: {type: string}}}")
	r := c.Resource("things")
	if r == nil || r.Replace != nil || r.Update == nil || r.Update.ID != "patchThing" {
		t.Fatalf("things: %v, want no replace and the JSON Patch as the update; notes %q", r, c.Notes)
	}
	if !notesHolding(c, "paths./things/{id}.put.requestBody: not a JSON object that changes the item, so it is answered as a plain operation") {
		t.Errorf("no note of the PUT of bytes: %q", c.Notes)
	}
}

// TestFlatItemPath: the items a collection below a parent creates are
// read, changed and deleted at a path of their own where the document
// has one, /settings/{settingId} of /configs/{configId}/settings, unless
// a collection of that path creates items of its own there, or another
// collection below a parent reads its items there first.
func TestFlatItemPath(t *testing.T) {
	setting := fmt.Sprintf(ref, "Setting")
	config := fmt.Sprintf(ref, "Config")
	configParam := fmt.Sprintf(strParam, "configId")
	settingParam := fmt.Sprintf(strParam, "settingId")
	c := shapeDoc(t,
		path("/configs", "get", op("listConfigs", 200, fmt.Sprintf(arrayOf, "Config"), ""), "post", op("createConfig", 201, config, config))+
			path("/configs/{configId}", "get", op("getConfig", 200, config, "", configParam))+
			path("/configs/{configId}/settings", "get", op("listSettings", 200, fmt.Sprintf(arrayOf, "Setting"), "", configParam), "post", op("createSetting", 201, setting, setting, configParam))+
			path("/teams/{teamId}/settings", "get", op("listTeamSettings", 200, fmt.Sprintf(arrayOf, "Setting"), "", fmt.Sprintf(strParam, "teamId")), "post", op("createTeamSetting", 201, setting, setting, fmt.Sprintf(strParam, "teamId")))+
			path("/settings/{settingId}",
				"get", op("getSetting", 200, setting, "", settingParam),
				"put", op("replaceSetting", 200, setting, setting, settingParam),
				"delete", op("deleteSetting", 204, "", "", settingParam))+
			path("/groups/{groupId}/members", "get", op("listGroupMembers", 200, fmt.Sprintf(arrayOf, "Config"), "", fmt.Sprintf(strParam, "groupId")), "post", op("addGroupMember", 201, config, config, fmt.Sprintf(strParam, "groupId")))+
			path("/members", "post", op("createMember", 201, config, config))+
			path("/members/{memberId}", "get", op("getMember", 200, config, "", fmt.Sprintf(strParam, "memberId"))),
		"Config: {type: object, properties: {id: {type: string, readOnly: true}, name: {type: string}}}\n"+
			"Setting: {type: object, properties: {id: {type: string, readOnly: true}, key: {type: string}, value: {type: string}}}")
	r := c.Resource("settings")
	if r == nil {
		t.Fatalf("no resource settings; notes:\n%s", strings.Join(c.Notes, "\n"))
	}
	want := "list GET /configs/{configId}/settings; create POST /configs/{configId}/settings; read GET /settings/{settingId}; replace PUT /settings/{settingId}; delete DELETE /settings/{settingId}"
	if got := roles(r); got != want || !r.Flat() || r.IDParam != "settingId" || r.Parent != c.Resource("configs") {
		t.Errorf("settings: %s (flat %v, id %s, parent %v), want %s, flat, settingId, configs", got, r.Flat(), r.IDParam, r.Parent, want)
	}
	if c.Resource("configs").Flat() {
		t.Errorf("configs is flat")
	}
	for _, note := range []string{
		"paths./configs/{configId}/settings: the items of each configId are kept apart: a path lists only those created below it, and /settings/{settingId} reads, changes and deletes any of them",
		"paths./teams/{teamId}/settings: its items would be read at /settings/{settingId}, which reads those of /configs/{configId}/settings, so it is served as plain operations",
		"paths./groups/{groupId}/members: its items would be read at /members/{memberId}, but /members creates items of its own there, so it is served as plain operations",
	} {
		if !notesHolding(c, note) {
			t.Errorf("no note %q; notes:\n%s", note, strings.Join(c.Notes, "\n"))
		}
	}
}
