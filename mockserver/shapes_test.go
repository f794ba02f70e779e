package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
)

// keyed are the headers of a request of the small documents, which take
// the key in X-API-Key.
var keyed = []string{"Authorization", "", "X-API-Key", key}

// want fails unless resp has status, naming the request.
func want(tb testing.TB, what string, resp *response, status int) {
	tb.Helper()
	if resp.StatusCode != status {
		tb.Errorf("%s: %s, want %d", what, resp, status)
	}
}

// object decodes a JSON object body.
func (r *response) object(tb testing.TB) map[string]any {
	tb.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.body, &v); err != nil {
		tb.Fatalf("decoding %s: %v", r.body, err)
	}
	return v
}

// array decodes a JSON array of objects.
func (r *response) array(tb testing.TB) []map[string]any {
	tb.Helper()
	var v []map[string]any
	if err := json.Unmarshal(r.body, &v); err != nil {
		tb.Fatalf("decoding %s: %v", r.body, err)
	}
	return v
}

// singularPaths are those of Swagger Petstore v3's pets: a create and a
// replace of /pet, the id in their body, no list, a read and a delete of
// /pet/{petId}, and a find by status.
const singularPaths = `
  /pet:
    put:
      operationId: updatePet
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/ShopPet'}}}}
      responses:
        '200': {description: Replaced., content: {application/json: {schema: {$ref: '#/components/schemas/ShopPet'}}}}
        '400': {description: Invalid ID supplied, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
        '404': {description: Pet not found, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
    post:
      operationId: addPet
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/ShopPet'}}}}
      responses:
        '200': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/ShopPet'}}}}
  /pet/findByStatus:
    get:
      operationId: findPetsByStatus
      parameters:
        - {name: status, in: query, schema: {type: string, enum: [available, pending, sold], default: available}}
      responses:
        '200': {description: Found., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/ShopPet'}}}}}
  /pet/{petId}:
    parameters:
      - {name: petId, in: path, required: true, schema: {type: integer, format: int64}}
    get:
      operationId: getPetById
      responses:
        '200': {description: A pet., content: {application/json: {schema: {$ref: '#/components/schemas/ShopPet'}}}}
        '404': {description: Pet not found, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
    delete:
      operationId: deletePet
      responses:
        '200': {description: Deleted.}
        '404': {description: Pet not found, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`

const petSchema = `
    ShopPet:
      type: object
      required: [name]
      properties:
        id: {type: integer, format: int64}
        name: {type: string}
        status: {type: string, enum: [available, pending, sold]}`

// TestSingularCollection: a pet created through POST /pet, under the id
// its body sends or the next, reads back at /pet/{petId}, is found by its
// status, is replaced through PUT /pet by the id in the body, and reads
// 404 once deleted; a create that sends the id of a pet replaces it.
func TestSingularCollection(t *testing.T) {
	c := documentWith(t, singularPaths, petSchema)
	ts := newTestServer(t, mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Count: 6}})

	created := ts.do(t, "POST", "/pet", `{"id":999,"name":"Rex","status":"sold"}`, keyed...)
	want(t, "POST /pet", created, 200)
	if pet := created.object(t); pet["id"] != 999.0 || pet["name"] != "Rex" {
		t.Errorf("POST /pet of id 999: %v, want Rex, 999", pet)
	}
	if got := created.Header.Get("Location"); !strings.HasSuffix(got, "/v1/pet/999") {
		t.Errorf("POST /pet: Location %q, want /v1/pet/999", got)
	}
	if resp := ts.do(t, "GET", "/pet/999", "", keyed...); resp.StatusCode != 200 || resp.object(t)["name"] != "Rex" {
		t.Errorf("GET /pet/999: %s, want Rex", resp)
	}
	if next := ts.do(t, "POST", "/pet", `{"name":"Fido"}`, keyed...).object(t); next["id"] != 1000.0 {
		t.Errorf("POST /pet without an id: %v, want the next id, 1000", next)
	}
	want(t, "POST /pet of the id of pet 3", ts.do(t, "POST", "/pet", `{"id":3,"name":"Three","status":"pending"}`, keyed...), 200)
	if resp := ts.do(t, "GET", "/pet/3", "", keyed...); resp.object(t)["name"] != "Three" {
		t.Errorf("GET /pet/3 after a create of its id: %s, want Three", resp)
	}

	sold := ts.do(t, "GET", "/pet/findByStatus?status=sold", "", keyed...)
	want(t, "GET /pet/findByStatus?status=sold", sold, 200)
	found := false
	for _, p := range sold.array(t) {
		found = found || p["id"] == 999.0
		if p["status"] != "sold" {
			t.Errorf("findByStatus?status=sold lists %v", p)
		}
	}
	if !found {
		t.Errorf("findByStatus?status=sold does not list the pet created: %s", sold)
	}
	// Without a status, the parameter's default, available, is asked for.
	for _, p := range ts.do(t, "GET", "/pet/findByStatus", "", keyed...).array(t) {
		if p["status"] != "available" {
			t.Errorf("findByStatus without a status lists %v, want only available ones", p)
		}
	}

	replaced := ts.do(t, "PUT", "/pet", `{"id":999,"name":"Rex II","status":"pending"}`, keyed...)
	if replaced.StatusCode != 200 || replaced.object(t)["name"] != "Rex II" {
		t.Errorf("PUT /pet of id 999: %s, want Rex II", replaced)
	}
	if resp := ts.do(t, "GET", "/pet/999", "", keyed...); resp.object(t)["status"] != "pending" {
		t.Errorf("GET /pet/999 after PUT /pet: %s, want pending", resp)
	}
	want(t, "PUT /pet without an id", ts.do(t, "PUT", "/pet", `{"name":"Nobody"}`, keyed...), 400)
	want(t, "PUT /pet of an id no pet has", ts.do(t, "PUT", "/pet", `{"id":4000,"name":"Nobody"}`, keyed...), 404)

	want(t, "DELETE /pet/999", ts.do(t, "DELETE", "/pet/999", "", keyed...), 200)
	want(t, "GET /pet/999 once deleted", ts.do(t, "GET", "/pet/999", "", keyed...), 404)
	for _, p := range ts.do(t, "GET", "/pet/findByStatus?status=pending", "", keyed...).array(t) {
		if p["id"] == 999.0 {
			t.Errorf("findByStatus lists the pet deleted")
		}
	}
}

// idPaths are those of a resource of things whose id has the schema id.
func idPaths(id string) (paths, schemas string) {
	return `
  /things:
    get:
      operationId: listThings
      responses:
        '200': {description: Things., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}
    post:
      operationId: createThing
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewThing'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
  /things/{thingId}:
    parameters:
      - {name: thingId, in: path, required: true, schema: {type: string}}
    get:
      operationId: getThing
      responses:
        '200': {description: A thing., content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        '404': {description: No such thing., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
    delete:
      operationId: deleteThing
      responses:
        '204': {description: Deleted.}
        '404': {description: No such thing., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`, `
    NewThing:
      type: object
      required: [label]
      properties:
        label: {type: string}
    Thing:
      type: object
      required: [id, label]
      properties:
        id: ` + id + `
        label: {type: string}`
}

// uuidV4 is a UUID of version 4, in lower case.
var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestStringIDs: ids of a string schema are written as the schema has
// them, digits, digits after a pattern's prefix, or UUIDs, in the
// catalogue and for the items created, and read back.
func TestStringIDs(t *testing.T) {
	tests := []struct {
		schema string
		want   *regexp.Regexp
	}{
		{"{type: string}", regexp.MustCompile(`^[0-9]+$`)},
		{"{type: string, pattern: '^thing-[0-9]+$'}", regexp.MustCompile(`^thing-[0-9]+$`)},
		{"{type: string, minLength: 6}", regexp.MustCompile(`^[0-9]{6}$`)},
		{"{type: string, format: uuid}", uuidV4},
	}
	for _, tt := range tests {
		t.Run(tt.schema, func(t *testing.T) {
			paths, schemas := idPaths(tt.schema)
			c := documentWith(t, paths, schemas)
			ts := newTestServer(t, mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Count: 3}})
			listed := ts.do(t, "GET", "/things", "", keyed...).array(t)
			created := ts.do(t, "POST", "/things", `{"label":"new"}`, keyed...)
			want(t, "POST /things", created, 201)
			ids := map[string]bool{}
			for _, thing := range append(listed, created.object(t)) {
				id, _ := thing["id"].(string)
				if !tt.want.MatchString(id) || ids[id] {
					t.Errorf("id %q: want one of %s, each once", id, tt.want)
				}
				ids[id] = true
				if resp := ts.do(t, "GET", "/things/"+id, "", keyed...); resp.StatusCode != 200 || resp.object(t)["label"] != thing["label"] {
					t.Errorf("GET /things/%s: %s, want %v", id, resp, thing)
				}
			}
			id := created.object(t)["id"].(string)
			if loc := created.Header.Get("Location"); !strings.HasSuffix(loc, "/things/"+id) {
				t.Errorf("Location %q, want one ending in /things/%s", loc, id)
			}
			want(t, "DELETE /things/"+id, ts.do(t, "DELETE", "/things/"+id, "", keyed...), 204)
			want(t, "GET /things/"+id+" once deleted", ts.do(t, "GET", "/things/"+id, "", keyed...), 404)
		})
	}
}

// TestUUIDsRepeat: the UUIDs of a catalogue and of the items created are
// drawn from the seed: the same seed gives the same, another another.
func TestUUIDsRepeat(t *testing.T) {
	paths, schemas := idPaths("{type: string, format: uuid}")
	c := documentWith(t, paths, schemas)
	run := func(seed uint64) string {
		ts := newTestServer(t, mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Seed: seed, Count: 2}})
		return string(ts.do(t, "GET", "/things", "", keyed...).body) + string(ts.do(t, "POST", "/things", `{"label":"new"}`, keyed...).body)
	}
	if a, b := run(1), run(1); a != b {
		t.Errorf("two runs of seed 1 differ:\n%s\n%s", a, b)
	}
	if a, b := run(1), run(2); a == b {
		t.Errorf("seeds 1 and 2 give the same ids: %s", a)
	}
}

// TestFixturesOfStringIDs: a fixture's own string ids, such as UUIDs
// petmock did not make, are the items' ids, in the fixture's order; new
// items get ids of their own; a duplicate is refused, naming it.
func TestFixturesOfStringIDs(t *testing.T) {
	paths, schemas := idPaths("{type: string, format: uuid}")
	c := documentWith(t, paths, schemas)
	const a, b = "0b9e1c7a-1d2e-4f3a-8b4c-5d6e7f809a1b", "f47ac10b-58cc-4372-a567-0e02b2c3d479"
	items := catalogue.Items{"things": {
		json.RawMessage(`{"id":"` + b + `","label":"first"}`),
		json.RawMessage(`{"id":"` + a + `","label":"second"}`),
	}}
	ts := newTestServer(t, mockserver.Config{Contract: c, Items: items})
	listed := ts.do(t, "GET", "/things", "", keyed...).array(t)
	if len(listed) != 2 || listed[0]["id"] != b || listed[1]["id"] != a {
		t.Errorf("GET /things: %v, want the fixture's two, in its order", listed)
	}
	if resp := ts.do(t, "GET", "/things/"+strings.ToUpper(a), "", keyed...); resp.StatusCode != 404 {
		t.Errorf("GET /things/%s: %s: a name is matched exactly, want 404", strings.ToUpper(a), resp)
	}
	if resp := ts.do(t, "GET", "/things/"+a, "", keyed...); resp.StatusCode != 200 || resp.object(t)["label"] != "second" {
		t.Errorf("GET /things/%s: %s, want second", a, resp)
	}
	created := ts.do(t, "POST", "/things", `{"label":"third"}`, keyed...).object(t)
	if id, _ := created["id"].(string); !uuidV4.MatchString(id) || id == a || id == b {
		t.Errorf("POST /things: id %v, want a new UUID", created["id"])
	}
	if _, err := ts.Items().ReplaceItems("things", strings.NewReader(`[{"id":"`+a+`","label":"x"},{"id":"`+a+`","label":"y"}]`)); err == nil ||
		!strings.Contains(err.Error(), `things[1]: id: "`+a+`" is also the id of things[0]`) {
		t.Errorf("a fixture with one id twice: %v, want things[1] refused", err)
	}
}

// TestIDsTheCreateSends: a resource whose create sends its string id,
// such as a user's username, knows each item by it; one sent again
// replaces the item, and one left out is made.
func TestIDsTheCreateSends(t *testing.T) {
	c := documentWith(t, `
  /user:
    post:
      operationId: createUser
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
      responses:
        '200': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
        default: {description: Failed., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /user/{username}:
    parameters:
      - {name: username, in: path, required: true, schema: {type: string}}
    get:
      operationId: getUserByName
      responses:
        '200': {description: A user., content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
        '404': {description: No such user., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`, `
    User:
      type: object
      properties:
        id: {type: integer, format: int64}
        username: {type: string}
        email: {type: string}`)
	ts := newTestServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}})
	want(t, "POST /user alice", ts.do(t, "POST", "/user", `{"id":10,"username":"alice","email":"a@example.com"}`, keyed...), 200)
	if resp := ts.do(t, "GET", "/user/alice", "", keyed...); resp.StatusCode != 200 || resp.object(t)["email"] != "a@example.com" {
		t.Errorf("GET /user/alice: %s, want alice", resp)
	}
	want(t, "POST /user alice again", ts.do(t, "POST", "/user", `{"username":"alice","email":"alice@example.org"}`, keyed...), 200)
	if resp := ts.do(t, "GET", "/user/alice", "", keyed...); resp.StatusCode != 200 || resp.object(t)["email"] != "alice@example.org" {
		t.Errorf("GET /user/alice after a second create: %s, want the second", resp)
	}
	made := ts.do(t, "POST", "/user", `{"email":"b@example.com"}`, keyed...).object(t)
	name, _ := made["username"].(string)
	if name == "" || name == "alice" {
		t.Fatalf("POST /user without a username: %v, want one made", made)
	}
	want(t, "GET /user/"+name, ts.do(t, "GET", "/user/"+name, "", keyed...), 200)
	// A name is held as it is: a path escapes it.
	want(t, "POST /user Tom Ford", ts.do(t, "POST", "/user", `{"username":"Tom Ford"}`, keyed...), 200)
	want(t, "GET /user/Tom%20Ford", ts.do(t, "GET", "/user/Tom%20Ford", "", keyed...), 200)

	// A catalogue's users have user names such as a user picks, each its
	// own, and are read by them.
	ts = newTestServer(t, mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Count: 20}})
	seen := map[string]bool{}
	for _, e := range ts.Items().Store("user").Entries() {
		if e.Name == "" || seen[e.Name] || strings.Trim(e.Name, "0123456789") == "" {
			t.Errorf("a user of the catalogue is named %q, want a user name, each once", e.Name)
		}
		seen[e.Name] = true
		want(t, "GET /user/"+e.Name, ts.do(t, "GET", "/user/"+url.PathEscape(e.Name), "", keyed...), 200)
	}
}

// TestNestedResource: the pets of /owners/{ownerId}/pets belong to the
// owner the path of their create names: each owner lists and reads its
// own, and a path below an owner that is not there is 404.
func TestNestedResource(t *testing.T) {
	c := documentWith(t, `
  /owners:
    get:
      operationId: listOwners
      responses:
        '200': {description: Owners., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Owner'}}}}}
    post:
      operationId: createOwner
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Owner'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Owner'}}}}
  /owners/{ownerId}:
    get:
      operationId: getOwner
      parameters: [{name: ownerId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: An owner., content: {application/json: {schema: {$ref: '#/components/schemas/Owner'}}}}
        '404': {description: No such owner., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /owners/{ownerId}/pets:
    parameters: [{name: ownerId, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: listPets
      responses:
        '200': {description: Pets., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/OwnedPet'}}}}}
        '404': {description: No such owner., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
    post:
      operationId: createPet
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/OwnedPet'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/OwnedPet'}}}}
        '404': {description: No such owner., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /owners/{ownerId}/pets/{petId}:
    parameters:
      - {name: ownerId, in: path, required: true, schema: {type: integer}}
      - {name: petId, in: path, required: true, schema: {type: integer}}
    get:
      operationId: getPet
      responses:
        '200': {description: A pet., content: {application/json: {schema: {$ref: '#/components/schemas/OwnedPet'}}}}
        '404': {description: No such pet., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`, `
    Owner:
      type: object
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
    OwnedPet:
      type: object
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}`)
	ts := newTestServer(t, mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Count: 4}})
	// The catalogue's pets go to each owner in turn.
	for owner := 1; owner <= 4; owner++ {
		if n := len(ts.do(t, "GET", fmt.Sprintf("/owners/%d/pets", owner), "", keyed...).array(t)); n != 1 {
			t.Errorf("GET /owners/%d/pets: %d pets, want the one of the catalogue", owner, n)
		}
	}
	created := ts.do(t, "POST", "/owners/2/pets", `{"name":"Rex"}`, keyed...)
	want(t, "POST /owners/2/pets", created, 201)
	id := created.object(t)["id"]
	if loc := created.Header.Get("Location"); !strings.HasSuffix(loc, fmt.Sprintf("/owners/2/pets/%v", id)) {
		t.Errorf("Location %q, want one below owner 2", loc)
	}
	listed := func(owner int) bool {
		for _, p := range ts.do(t, "GET", fmt.Sprintf("/owners/%d/pets", owner), "", keyed...).array(t) {
			if p["id"] == id {
				return true
			}
		}
		return false
	}
	if !listed(2) || listed(1) {
		t.Errorf("pet %v: listed below owner 2 %v, below owner 1 %v, want only below 2", id, listed(2), listed(1))
	}
	want(t, "GET the pet below its owner", ts.do(t, "GET", fmt.Sprintf("/owners/2/pets/%v", id), "", keyed...), 200)
	want(t, "GET the pet below another owner", ts.do(t, "GET", fmt.Sprintf("/owners/1/pets/%v", id), "", keyed...), 404)
	want(t, "POST below an owner that is not there", ts.do(t, "POST", "/owners/99/pets", `{"name":"Stray"}`, keyed...), 404)
	want(t, "GET the pets of an owner that is not there", ts.do(t, "GET", "/owners/99/pets", "", keyed...), 404)
}

// TestSentIDsTheItemPathRefuses: an id a create sends that the item
// path's parameter does not allow would name an item no read can reach:
// the item gets the next id instead.
func TestSentIDsTheItemPathRefuses(t *testing.T) {
	paths := strings.Replace(singularPaths, "schema: {type: integer, format: int64}}", "schema: {type: integer, format: int64, minimum: 1, maximum: 100000}}", 1)
	ts := newTestServer(t, mockserver.Config{Contract: documentWith(t, paths, petSchema), Items: catalogue.Items{}})
	created := ts.do(t, "POST", "/pet", `{"id":500000,"name":"Far"}`, keyed...)
	if pet := created.object(t); pet["id"] != 1.0 {
		t.Errorf("POST /pet of id 500000, where petId goes to 100000: %v, want the next id, 1", pet)
	}
	if resp := ts.do(t, "POST", "/pet", `{"id":50,"name":"Near"}`, keyed...).object(t); resp["id"] != 50.0 {
		t.Errorf("POST /pet of id 50: %v, want 50", resp)
	}
}
