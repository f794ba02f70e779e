package mockserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestChangeAnswersWhatTheDocumentDocuments: an update whose documented
// success is not the item but the modifications, as ETSI's package
// modified answers {"operationState": ...} where the item has an
// operationalState, answers the item with what was sent over it, which
// matches that schema, but what the schema marks writeOnly, where it
// answered the item, which did not.
func TestChangeAnswersWhatTheDocumentDocuments(t *testing.T) {
	c := documentWith(t, `
  /packages:
    post:
      operationId: createPackage
      requestBody: {required: true, content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Package'}}}}
  /packages/{id}:
    get:
      operationId: getPackage
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A package., content: {application/json: {schema: {$ref: '#/components/schemas/Package'}}}}
    patch:
      operationId: modifyPackage
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Modifications'}}}}
      responses:
        '200': {description: The modifications., content: {application/json: {schema: {$ref: '#/components/schemas/Modifications'}}}}
    delete:
      operationId: deletePackage
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: Deleted., content: {application/json: {schema: {$ref: '#/components/schemas/Done'}}}}
`, `
    Done:
      type: object
      required: [results]
      properties:
        results: {nullable: true}
    Package:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
        operationalState: {type: string, enum: [ENABLED, DISABLED]}
    Modifications:
      type: object
      required: [operationState]
      properties:
        operationState: {type: string, enum: [ENABLED, DISABLED]}
        secret: {type: string, writeOnly: true}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	req, resp, body := fetch(t, http.MethodPatch, base+"/v1/packages/1", `{"operationState":"DISABLED","secret":"hush"}`, auth...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("PATCH /v1/packages/1: %d\n%s", resp.StatusCode, body)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("PATCH /v1/packages/1: %v\n%s", err, body)
	}
	if !strings.Contains(string(body), `"operationState":"DISABLED"`) {
		t.Errorf("PATCH /v1/packages/1 answered %s, want the modification sent", body)
	}
	if strings.Contains(string(body), "hush") {
		t.Errorf("PATCH /v1/packages/1 answered %s, which holds the writeOnly secret sent", body)
	}
	// A delete documented to answer doqs.dev's {"results": null} answers
	// a value of that, not the item deleted.
	req, resp, body = fetch(t, http.MethodDelete, base+"/v1/packages/1", "", auth...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE /v1/packages/1: %d\n%s", resp.StatusCode, body)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("DELETE /v1/packages/1: %v\n%s", err, body)
	}
}

// TestReadOnlyMembersOfWhatIsSent: a member a request may leave out, as
// readOnly, and every answer requires, within an object sent, is made
// where the object is stored: InfluxData's mapping sent with links of no
// self is answered with links.self, as its schema requires.
func TestReadOnlyMembersOfWhatIsSent(t *testing.T) {
	c := documentWith(t, `
  /mappings:
    post:
      operationId: createMapping
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewMapping'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Mapping'}}}}
  /mappings/{id}:
    get:
      operationId: getMapping
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A mapping., content: {application/json: {schema: {$ref: '#/components/schemas/Mapping'}}}}
`, `
    Mapping:
      type: object
      required: [database]
      properties:
        id: {type: integer, readOnly: true}
        database: {type: string}
        links: {$ref: '#/components/schemas/Links'}
        tags:
          type: array
          items: {type: object, required: [self], properties: {self: {$ref: '#/components/schemas/Link'}, name: {type: string}}}
        share:
          type: object
          additionalProperties: false
          required: [url]
          properties: {url: {$ref: '#/components/schemas/Link'}, vanity: {type: string}}
        account:
          oneOf:
            - {type: object, additionalProperties: false, required: [kind, iban], properties: {kind: {enum: [iban]}, iban: {type: string}, formFactor: {type: string}}}
            - {type: object, additionalProperties: false, required: [kind, number], properties: {kind: {enum: [us]}, number: {type: string}, formFactor: {type: string}}}
    NewMapping:
      type: object
      required: [database]
      properties:
        database: {type: string}
        links: {$ref: '#/components/schemas/Links'}
        share: {type: object, properties: {vanity: {type: string}, password: {type: string}}}
        account: {type: object, properties: {formFactor: {type: string, enum: [physical, virtual]}}}
        tags:
          type: array
          items: {type: object, required: [self], properties: {self: {$ref: '#/components/schemas/Link'}, name: {type: string}}}
    Links:
      type: object
      required: [self]
      properties:
        self: {$ref: '#/components/schemas/Link'}
    Link: {type: string, format: uri, readOnly: true}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	req, resp, body := fetch(t, http.MethodPost, base+"/v1/mappings", `{"database":"db","links":{},"tags":[{"name":"a"}],"share":{"vanity":"mine","password":"p"},"account":{"formFactor":"virtual"}}`, auth...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v1/mappings: %d\n%s", resp.StatusCode, body)
	}
	// Box's shared link, sent with a password its answers do not hold,
	// keeps the vanity name sent.
	if !strings.Contains(string(body), `"vanity":"mine"`) || strings.Contains(string(body), `"password"`) {
		t.Errorf("POST /v1/mappings answered %s, want the share's vanity sent, and no password", body)
	}
	// Adyen's bank account, sent with its form factor and answered as
	// one of two accounts, keeps the form factor sent.
	if !strings.Contains(string(body), `"formFactor":"virtual"`) {
		t.Errorf("POST /v1/mappings answered %s, want the account's formFactor sent", body)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("POST /v1/mappings: %v\n%s", err, body)
	}
	req, resp, body = fetch(t, http.MethodGet, resp.Header.Get("Location"), "", auth...)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET of the mapping created: %d %v\n%s", resp.StatusCode, err, body)
	}
}

// TestUndeclaredMembersSent: a member of the item that a create does not
// declare, and takes all the same, is held to the item's schema where it
// is sent: Asana's section requires a project it does not declare, sent
// as a gid, and answers it as an object; a created_at of any text sent is
// not answered as the date-time the item's schema asks for.
func TestUndeclaredMembersSent(t *testing.T) {
	c := documentWith(t, `
  /sections:
    post:
      operationId: createSection
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name, project], properties: {name: {type: string}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Section'}}}}
  /sections/{id}:
    get:
      operationId: getSection
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A section., content: {application/json: {schema: {$ref: '#/components/schemas/Section'}}}}
`, `
    Section:
      type: object
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        created_at: {type: string, format: date-time}
        project: {type: object, required: [gid], properties: {gid: {type: string}}}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	req, resp, body := fetch(t, http.MethodPost, base+"/v1/sections", `{"name":"Next","project":"live","created_at":"yesterday"}`, auth...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v1/sections: %d\n%s", resp.StatusCode, body)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("POST /v1/sections: %v\n%s", err, body)
	}
	req, resp, body = fetch(t, http.MethodGet, resp.Header.Get("Location"), "", auth...)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET of the section created: %d %v\n%s", resp.StatusCode, err, body)
	}
}

// TestWrappedReferences: a write answered with a reference to the item in
// an object, of another schema than the item's, as Ijenko's
// {"resource": {"id", "entity", "href"}} and Apideck's {"data": {"id"}},
// holds what that schema requires: the item's id, and values made of the
// rest.
func TestWrappedReferences(t *testing.T) {
	c := documentWith(t, `
  /users:
    post:
      operationId: createUser
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Created'}}}}
  /users/{userId}:
    parameters: [{name: userId, in: path, required: true, schema: {type: string}}]
    get:
      operationId: getUser
      responses:
        '200': {description: A user., content: {application/json: {schema: {type: object, required: [user], properties: {user: {$ref: '#/components/schemas/User'}}}}}}
    patch:
      operationId: updateUser
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
      responses:
        '200': {description: Updated., content: {application/json: {schema: {$ref: '#/components/schemas/Created'}}}}
`, `
    User:
      type: object
      required: [name]
      properties:
        userId: {type: string, readOnly: true}
        name: {type: string}
    Created:
      type: object
      required: [resource, code]
      properties:
        code: {type: integer, enum: [201]}
        resource:
          type: object
          required: [id, entity, href]
          properties: {id: {type: string}, entity: {type: string, enum: [User]}, href: {type: string, minLength: 1}}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	req, resp, body := fetch(t, http.MethodPost, base+"/v1/users", `{"name":"Ada"}`, auth...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v1/users: %d\n%s", resp.StatusCode, body)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("POST /v1/users: %v\n%s", err, body)
	}
	loc := resp.Header.Get("Location")
	id := loc[strings.LastIndexByte(loc, '/')+1:]
	if !strings.Contains(string(body), `"id":"`+id+`"`) {
		t.Errorf("POST /v1/users answered %s, want the id of its Location, %s", body, id)
	}
	req, resp, body = fetch(t, http.MethodPatch, loc, `{"name":"Grace"}`, auth...)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("PATCH of the user created: %d %v\n%s", resp.StatusCode, err, body)
	}
}

// TestCreateAnswerOfMoreThanTheRead: a create answered in a schema that
// declares more than the read's holds what was sent of it, as BigOven's
// recipe created is answered with the HeroPhotoUrl sent, which its read
// does not declare, and Telstra's message with the numbers it was sent to,
// where its read holds one; the read answers without them.
func TestCreateAnswerOfMoreThanTheRead(t *testing.T) {
	c := documentWith(t, `
  /recipes:
    post:
      operationId: createRecipe
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewRecipe'}}}}
      responses:
        '200': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/NewRecipe'}}}}
  /recipes/{id}:
    get:
      operationId: getRecipe
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A recipe., content: {application/json: {schema: {$ref: '#/components/schemas/Recipe'}}}}
`, `
    NewRecipe:
      type: object
      properties:
        id: {type: integer}
        title: {type: string}
        hero: {type: string, format: uri}
        to: {oneOf: [{type: array, items: {type: string}}, {type: string}]}
    Recipe:
      type: object
      properties:
        id: {type: integer}
        title: {type: string}
        to: {type: string}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	req, resp, body := fetch(t, http.MethodPost, base+"/v1/recipes", `{"title":"Soup","hero":"https://example.com/soup.jpg","to":["ann","bo"]}`, auth...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /v1/recipes: %d\n%s", resp.StatusCode, body)
	}
	if !strings.Contains(string(body), `"hero":"https://example.com/soup.jpg"`) {
		t.Errorf("POST /v1/recipes answered %s, want the hero sent", body)
	}
	// Telstra's message sent to two numbers is answered with both, where
	// its read holds one.
	if !strings.Contains(string(body), `"to":["ann","bo"]`) {
		t.Errorf("POST /v1/recipes answered %s, want the two sent to", body)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("POST /v1/recipes: %v\n%s", err, body)
	}
	req, resp, body = fetch(t, http.MethodGet, resp.Header.Get("Location"), "", auth...)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusOK || strings.Contains(string(body), "hero") {
		t.Errorf("GET of the recipe created: %d %v, want it without the hero\n%s", resp.StatusCode, err, body)
	}
}

// TestBodiesWrappedBesideOtherValues: a create whose body holds the item
// beside values that are no objects, as Square's {"idempotency_key": ...,
// "invoice": {...}}, keeps what it holds; one that leaves the item out,
// as its schema allows, creates an item of what the item requires, made,
// where petmock panicked, and then answered without it.
func TestBodiesWrappedBesideOtherValues(t *testing.T) {
	c := documentWith(t, `
  /invoices:
    post:
      operationId: createInvoice
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [idempotency_key], properties: {idempotency_key: {type: string}, invoice: {$ref: '#/components/schemas/Invoice'}}}
      responses:
        '200': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/InvoiceAnswer'}}}}
  /invoices/{id}:
    get:
      operationId: getInvoice
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: An invoice., content: {application/json: {schema: {$ref: '#/components/schemas/InvoiceAnswer'}}}}
`, `
    InvoiceAnswer:
      type: object
      properties:
        invoice: {$ref: '#/components/schemas/Invoice'}
    Invoice:
      type: object
      required: [title]
      properties:
        id: {type: string, readOnly: true}
        title: {type: string}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	_, resp, body := fetch(t, http.MethodPost, base+"/v1/invoices", `{"idempotency_key":"k1","invoice":{"title":"Rent"}}`, auth...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /v1/invoices: %d\n%s", resp.StatusCode, body)
	}
	req, resp, body := fetch(t, http.MethodGet, resp.Header.Get("Location"), "", auth...)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || !strings.Contains(string(body), `"title":"Rent"`) {
		t.Errorf("GET of the invoice created: %d %v, want its title\n%s", resp.StatusCode, err, body)
	}
	req, resp, body = fetch(t, http.MethodPost, base+"/v1/invoices", `{"idempotency_key":"k2"}`, auth...)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("POST /v1/invoices of no invoice: %d %v, want 200\n%s", resp.StatusCode, err, body)
	}
}

// TestReadsShowWhatTheCreateAnswered: what a create's answer, of another
// schema than the item's, requires and the body leaves out is made where
// the item is stored, so that its reads show the values the create
// answered: VTEX's reservation created answers the dates its read may
// leave out.
func TestReadsShowWhatTheCreateAnswered(t *testing.T) {
	c := documentWith(t, `
  /reservations:
    post:
      operationId: createReservation
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {sku: {type: string}}}}}}
      responses:
        '200':
          description: Created.
          content:
            application/json:
              schema: {type: object, required: [id, stamp], properties: {id: {type: string}, sku: {type: string}, stamp: {type: string}}}
  /reservations/{id}:
    get:
      operationId: getReservation
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: A reservation., content: {application/json: {schema: {$ref: '#/components/schemas/Reservation'}}}}
`, `
    Reservation:
      type: object
      properties:
        id: {type: string}
        sku: {type: string}
        stamp: {type: string}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	_, resp, created := fetch(t, http.MethodPost, base+"/v1/reservations", `{"sku":"A1"}`, auth...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /v1/reservations: %d\n%s", resp.StatusCode, created)
	}
	_, resp, read := fetch(t, http.MethodGet, resp.Header.Get("Location"), "", auth...)
	var a, b map[string]any
	if json.Unmarshal(created, &a) != nil || json.Unmarshal(read, &b) != nil || a["stamp"] == nil || a["stamp"] != b["stamp"] {
		t.Errorf("created %s, read %d %s: want the stamp the create answered", created, resp.StatusCode, read)
	}
}

// TestCreatedIDOfAnotherType: a create answered with the id alone, of a
// type the item's schema writes it otherwise, answers the item's id in
// that type: Tradematic's connection is read with a connectionid of a
// string and created with one of an integer, where petmock answered a
// made-up integer.
func TestCreatedIDOfAnotherType(t *testing.T) {
	c := documentWith(t, `
  /connections:
    post:
      operationId: createConnection
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {host: {type: string}}}}}}
      responses:
        '200': {description: Created., content: {application/json: {schema: {type: object, properties: {connectionid: {type: integer}}}}}}
  /connections/{connectionid}:
    get:
      operationId: getConnection
      parameters: [{name: connectionid, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A connection., content: {application/json: {schema: {$ref: '#/components/schemas/Connection'}}}}
`, `
    Connection:
      type: object
      properties:
        connectionid: {type: string}
        host: {type: string}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	_, resp, body := fetch(t, http.MethodPost, base+"/v1/connections", `{"host":"h"}`, auth...)
	loc := resp.Header.Get("Location")
	if want := `{"connectionid":` + loc[strings.LastIndexByte(loc, '/')+1:] + `}`; strings.TrimSpace(string(body)) != want {
		t.Errorf("POST /v1/connections: %d %s, Location %s: want %s", resp.StatusCode, body, loc, want)
	}
}

// TestSeededItemsOfPropertiesSeveralMembersDeclare: a property that
// several allOf members of an item declare is made of them all, where
// GitHub's SCIM groups were seeded with one member's example of members,
// which lacks the $ref the other member requires, and every list of them
// broke the document.
func TestSeededItemsOfPropertiesSeveralMembersDeclare(t *testing.T) {
	c := documentWith(t, `
  /groups:
    get:
      operationId: listGroups
      responses:
        '200': {description: The groups., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Group'}}}}}
    post:
      operationId: createGroup
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewGroup'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Group'}}}}
  /groups/{id}:
    get:
      operationId: getGroup
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: A group., content: {application/json: {schema: {$ref: '#/components/schemas/Group'}}}}
`, `
    NewGroup:
      type: object
      required: [members]
      properties:
        members: {type: array, items: {type: object, required: [value], properties: {value: {type: string}}}}
    Group:
      allOf:
        - type: object
          required: [id, members]
          properties:
            id: {type: string}
            members:
              type: array
              items: {type: object, required: [value, $ref], properties: {value: {type: string}, $ref: {type: string}}}
        - type: object
          properties:
            members:
              type: array
              example: [{"$+ref": "https://x/Users/1", value: "1"}]
              items: {type: object, properties: {value: {type: string}, $ref: {type: string}}}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	req, resp, body := fetch(t, http.MethodGet, base+"/v1/groups", "", "X-API-Key", key)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"$ref"`) {
		t.Errorf("GET /v1/groups: %d %v, want groups whose members hold their $ref\n%s", resp.StatusCode, err, body)
	}
	// A group created with members of no $ref keeps them, each given
	// the $ref the item requires, within the array as the allOf gives it.
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	req, resp, body = fetch(t, http.MethodPost, base+"/v1/groups", `{"members":[{"value":"u1"},{"value":"u2"}]}`, auth...)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusCreated || !strings.Contains(string(body), `"value":"u2"`) {
		t.Errorf("POST /v1/groups: %d %v, want the group created with its members\n%s", resp.StatusCode, err, body)
	}
}

// TestCreateAnsweredInTextAlone: a resource whose create answers in
// text/plain alone, as PhantAuth's users do, keeps the user created and
// answers as its document says, of a text made of it: a create that asked
// for text/plain was a 500, the first of no media types offered taken,
// and one that did not an empty body of no Content-Type.
func TestCreateAnsweredInTextAlone(t *testing.T) {
	c := documentWith(t, `
  /users:
    post:
      operationId: createUser
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
      responses:
        '200': {description: The user's token., content: {text/plain: {schema: {type: string}}}}
  /users/{id}:
    get:
      operationId: getUser
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: A user., content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
    delete:
      operationId: deleteUser
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: Deleted., content: {text/plain: {schema: {type: string}}}}
        '404': {description: No such user., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
`, `
    User:
      type: object
      properties:
        id: {type: string}
        name: {type: string}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	req, resp, body := fetch(t, http.MethodPost, base+"/v1/users", `{"name":"John"}`, "X-API-Key", key, "Content-Type", "application/json", "Accept", "text/plain")
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /v1/users: %d %v\n%s", resp.StatusCode, err, body)
	}
	// The user is kept all the same, and read where the answer says.
	_, resp, body = fetch(t, http.MethodGet, resp.Header.Get("Location"), "", "X-API-Key", key)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"name":"John"`) {
		t.Errorf("GET of the user created: %d %s, want John", resp.StatusCode, body)
	}
	// A refusal is the resource's: a delete of no such user is a 404.
	req, resp, body = fetch(t, http.MethodDelete, base+"/v1/users/nobody", "", "X-API-Key", key)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("DELETE of no such user: %d %v\n%s", resp.StatusCode, err, body)
	}
}

// TestCreateAnswersTheIDItKeeps: a create answered in another schema than
// the read's, sent an id it does not declare, answers the id the item is
// kept under, that of its Location: SendGrid's campaign sent with its
// example's id was answered with that id, and kept under another.
func TestCreateAnswersTheIDItKeeps(t *testing.T) {
	c := documentWith(t, `
  /campaigns:
    post:
      operationId: createCampaign
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewCampaign'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/CampaignAnswer'}}}}
  /campaigns/{id}:
    get:
      operationId: getCampaign
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A campaign., content: {application/json: {schema: {$ref: '#/components/schemas/Campaign'}}}}
`, `
    NewCampaign:
      type: object
      required: [title]
      properties:
        title: {type: string}
    CampaignAnswer:
      allOf:
        - {$ref: '#/components/schemas/NewCampaign'}
        - {type: object, required: [status], properties: {id: {type: integer}, status: {type: string}}}
    Campaign:
      type: object
      properties:
        id: {type: integer}
        title: {type: string}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	req, resp, body := fetch(t, http.MethodPost, base+"/v1/campaigns", `{"title":"May","id":986724}`, auth...)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v1/campaigns: %d %v\n%s", resp.StatusCode, err, body)
	}
	var created struct{ ID json.Number }
	loc := resp.Header.Get("Location")
	if json.Unmarshal(body, &created) != nil || !strings.HasSuffix(loc, "/campaigns/"+created.ID.String()) {
		t.Errorf("POST /v1/campaigns answered id %s at Location %s, want the id of its Location\n%s", created.ID, loc, body)
	}
}
