package request

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// unsendable is a document of operations no request can meet as written:
// a path that holds a query string, security that only a client
// certificate meets, and two schemes at once whose credentials both go in
// Authorization; and one whose first alternative is such, and its second
// a key; and a query parameter of an array of objects, as Mastodon's
// markers take. Two OAuth 2 schemes at once, as Google's documents ask, both
// take the one bearer token, and are met.
const unsendable = `openapi: 3.1.0
info: {title: Unsendable, version: 1.0.0}
paths:
  /xml/?comp=list:
    get: {operationId: listContainers, responses: {'200': {description: Listed.}}}
  /certified:
    get: {operationId: certified, security: [{cert: []}], responses: {'200': {description: Done.}}}
  /rotate:
    put: {operationId: rotate, security: [{basic: [], token: []}], responses: {'200': {description: Done.}}}
  /either:
    get: {operationId: either, security: [{cert: []}, {token: []}], responses: {'200': {description: Done.}}}
  /matters:
    get: {operationId: matters, security: [{implicit: [read], code: [read]}], responses: {'200': {description: Listed.}}}
  /markers:
    get:
      operationId: markers
      parameters: [{name: timeline, in: query, required: true, schema: {type: array, items: {type: object}}}]
      responses: {'200': {description: Markers.}}
  /upload:
    post:
      operationId: upload
      requestBody: {required: true, content: {multipart/form-data: {schema: {type: string, format: binary}}}}
      responses: {'200': {description: Uploaded.}}
  /attach:
    post:
      operationId: attach
      requestBody: {content: {multipart/form-data: {schema: {type: string, format: binary}}}}
      responses: {'200': {description: Attached.}}
components:
  securitySchemes:
    implicit: {type: oauth2, flows: {implicit: {authorizationUrl: 'https://auth.example/a', scopes: {read: Read.}}}}
    code: {type: oauth2, flows: {authorizationCode: {authorizationUrl: 'https://auth.example/a', tokenUrl: 'https://auth.example/t', scopes: {read: Read.}}}}
    cert: {type: mutualTLS}
    basic: {type: http, scheme: basic}
    token: {type: apiKey, in: header, name: Authorization}
`

// TestCannotSend: an operation no request can meet skips its checks,
// saying why; one with an alternative a key meets is sent under it.
func TestCannotSend(t *testing.T) {
	c, err := spec.Read([]byte(unsendable))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ op, says string }{
		{"listContainers", "the document's path /xml/?comp=list holds a query string or a fragment"},
		{"certified", "certified requires security scheme cert (mutualTLS"},
		{"rotate", "rotate requires security schemes basic and token both at once, whose credentials both travel in header Authorization"},
		{"either", ""},
		{"matters", ""},
		{"markers", "markers requires the query parameter timeline, an array of objects, which no style of OpenAPI writes"},
		// A multipart body of a string, as codat's attachments take, has
		// no members to write: sent without a body where it may be.
		{"upload", "upload takes its body as multipart/form-data, and the suite makes JSON bodies, and form and multipart bodies of objects, only"},
		{"attach", ""},
	} {
		if got := CannotSend(c.Operation(tc.op)); tc.says == "" && got != "" || !strings.Contains(got, tc.says) {
			t.Errorf("%s: CannotSend %q, want %q", tc.op, got, tc.says)
		}
	}
	if v, err := NewMaker(c, nil, rand.New(rand.NewPCG(1, 2)), "run").Value(context.Background(), c.Operation("attach")); v != nil || err != nil {
		t.Errorf("attach: a body of %#v (%v), want none", v, err)
	}
	if req, ok := Requirement(c.Operation("either")); !ok || len(req) != 1 || req[0].Name != "token" {
		t.Errorf("either: the key goes under %v (%v), want token", req, ok)
	}
	if req, ok := Requirement(c.Operation("matters")); !ok || len(req) != 2 {
		t.Errorf("matters: the key goes under %v (%v), want implicit and code", req, ok)
	}
}

// files is a document whose path parameter's pattern takes characters a
// path must escape, such as }.
const files = `openapi: 3.0.3
info: {title: Files, version: 1.0.0}
paths:
  /files/{name}:
    get:
      operationId: getFile
      parameters: [{name: name, in: path, required: true, schema: {type: string, pattern: '^[^/]+\.json$'}}]
      responses: {'200': {description: A file.}}
`

// TestMadeUpPathValuesNeedNoEscape: a value made up for a path parameter
// is one a path holds as it is, where the schema lets the suite make one,
// so that no check rests on how a server decodes an escaped path.
func TestMadeUpPathValuesNeedNoEscape(t *testing.T) {
	c, err := spec.Read([]byte(files))
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(30) {
		m := NewMaker(c, nil, rand.New(rand.NewPCG(seed, 3)), "run")
		params, madeUp, err := m.PathParams(context.Background(), c.Operation("getFile"), nil)
		if err != nil || !madeUp {
			t.Fatalf("seed %d: %v, made up %v", seed, err, madeUp)
		}
		if v := params["name"]; url.PathEscape(v) != v || !strings.HasSuffix(v, ".json") {
			t.Errorf("seed %d: name %q, which a path escapes as %s", seed, v, url.PathEscape(v))
		}
	}
}

// selfNamed is a resource whose collection's parameter names the
// resource itself, as Orthanc's storage commitments are created below
// /modalities/{id} and read at /storage-commitment/{id}, where modalities
// are no resource.
const selfNamed = `openapi: 3.0.3
info: {title: Self, version: 1.0.0}
paths:
  /modalities/{id}/storage-commitment:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    get:
      operationId: listCommitments
      responses:
        '200':
          description: The commitments.
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Commitment'}}
    post:
      operationId: createCommitment
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {note: {type: string}}}
      responses:
        '201':
          description: Created.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Commitment'}
  /storage-commitment/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    get:
      operationId: getCommitment
      responses:
        '200':
          description: A commitment.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Commitment'}
components:
  schemas:
    Commitment:
      type: object
      properties:
        id: {type: string}
        note: {type: string}
`

// TestPathOfAResourceNamedByItsOwnParent: the path of an operation whose
// parameter names a resource whose collection's parameter names it again
// is made, the value made up, where the suite chose the parent of the
// collection without end and overflowed its stack.
func TestPathOfAResourceNamedByItsOwnParent(t *testing.T) {
	c, err := spec.Read([]byte(selfNamed))
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Operation("getCommitment").Resource; r == nil || len(r.ParentParams) == 0 {
		t.Fatalf("getCommitment: resource %+v, want one below a parent", r)
	}
	client := emptyDeployment(t, c)
	for _, id := range []string{"getCommitment", "listCommitments", "createCommitment"} {
		m := NewMaker(c, client, rand.New(rand.NewPCG(1, 3)), "run")
		params, _, err := m.PathParams(context.Background(), c.Operation(id), nil)
		if err != nil || params["id"] == "" {
			t.Errorf("%s: %v, %v; want a value of id", id, params, err)
		}
	}
}

// belowUnknownParents is a resource whose parents no list shows and no
// create makes, as Jira's comments are listed below an issue.
const belowUnknownParents = `openapi: 3.0.3
info: {title: Comments, version: 1.0.0}
paths:
  /issues/{issueId}/comments:
    parameters:
      - {name: issueId, in: path, required: true, schema: {type: string}}
    get:
      operationId: listComments
      responses:
        '200': {description: The comments., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Comment'}}}}}
        '404': {description: No such issue.}
    post:
      operationId: addComment
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Comment'}}}}
      responses:
        '201': {description: Added., content: {application/json: {schema: {$ref: '#/components/schemas/Comment'}}}}
  /issues/{issueId}/comments/{id}:
    parameters:
      - {name: issueId, in: path, required: true, schema: {type: string}}
      - {name: id, in: path, required: true, schema: {type: string}}
    get:
      operationId: getComment
      responses:
        '200': {description: A comment., content: {application/json: {schema: {$ref: '#/components/schemas/Comment'}}}}
components:
  schemas:
    Comment: {type: object, properties: {id: {type: string, readOnly: true}, body: {type: string}}}
`

// TestPathsBelowMadeUpParentsAreMadeUp: a path below the run's parents of
// a resource, which the suite made up, is made up, so that a 404 of it
// may be right: Jira's comments of an issue the suite named at random
// were held to a 2xx.
func TestPathsBelowMadeUpParentsAreMadeUp(t *testing.T) {
	c, err := spec.Read([]byte(belowUnknownParents))
	if err != nil {
		t.Fatal(err)
	}
	m := NewMaker(c, emptyDeployment(t, c), rand.New(rand.NewPCG(1, 3)), "run")
	for _, id := range []string{"listComments", "listComments", "addComment"} {
		params, madeUp, err := m.PathParams(context.Background(), c.Operation(id), nil)
		if err != nil || !madeUp || params["issueId"] == "" {
			t.Errorf("%s: %v made up %v (%v), want an issueId made up", id, params, madeUp, err)
		}
	}
}

// emptyDeployment returns a client of a deployment of c that lists no
// item, and answers every create with an item of the id "c1".
func emptyDeployment(t *testing.T, c *spec.Contract) *judge.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
			w.Write([]byte(`{"id":"c1"}`))
			return
		}
		w.Write([]byte(`[]`))
	}))
	t.Cleanup(srv.Close)
	base, _ := url.Parse(srv.URL)
	checker, err := answercheck.New(c, false)
	if err != nil {
		t.Fatal(err)
	}
	return judge.NewClient(judge.Config{Base: base, Contract: c, Checker: checker, MaxCreates: 10, Timeout: 5 * time.Second})
}

// cartsOfStrings is a document whose cart items are listed below a
// cartId of an integer, and created below a quoteId of a string, at a path
// that is the list's but for the parameter's name, as Magento's are: the
// create is served at the list's path, its parameter named cartId.
const cartsOfStrings = `openapi: 3.0.3
info: {title: Carts, version: 1.0.0}
paths:
  /carts/{cartId}/items:
    get:
      operationId: listItems
      parameters: [{name: cartId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: The items., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Item'}}}}}
  /carts/{quoteId}/items:
    post:
      operationId: addItem
      parameters: [{name: quoteId, in: path, required: true, schema: {type: string}}]
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
      responses:
        '200': {description: Added., content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
  /carts/{cartId}/items/{itemId}:
    delete:
      operationId: deleteItem
      parameters:
        - {name: cartId, in: path, required: true, schema: {type: integer}}
        - {name: itemId, in: path, required: true, schema: {type: integer}}
      responses:
        '200': {description: Deleted.}
components:
  schemas:
    Item: {type: object, properties: {item_id: {type: integer}, sku: {type: string}}}
`

// TestParentsAParameterTakes: the run's parent of a resource is a
// parameter's value only where the parameter takes it: Magento's cart
// items were listed by a cartId of an integer, sent the string made for
// the quoteId of their create, and refused.
func TestParentsAParameterTakes(t *testing.T) {
	c, err := spec.Read([]byte(cartsOfStrings))
	if err != nil {
		t.Fatal(err)
	}
	m := NewMaker(c, emptyDeployment(t, c), rand.New(rand.NewPCG(1, 3)), "run")
	for _, id := range []string{"addItem", "listItems", "deleteItem"} {
		op := c.Operation(id)
		if op == nil {
			t.Fatalf("no operation %s: %v", id, c.Warnings)
		}
		params, _, err := m.PathParams(context.Background(), op, nil)
		for name, v := range params {
			if p := op.Parameter("path", name); err != nil || p != nil && p.Schema.Value.VisitJSON(spec.TextValue(p.Schema.Value, v)) != nil {
				t.Errorf("%s: %s %q (%v), want a value its parameter takes", id, name, v, err)
			}
		}
	}
}
