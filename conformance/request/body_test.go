package request

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/petstore/contract/spec"
)

// bodies is a document of bodies of every shape the suite makes: an
// object with read-only properties at every depth (in an object, in the
// items of an array, below an allOf), a form with a deepObject and an
// array, a multipart form with a file of the media types its encoding lists and one of an empty schema, a JSON
// patch, and a GET whose document requires a Content-Type and takes an
// optional form, and a query parameter of an enum below an allOf.
const bodies = `openapi: 3.0.3
info: {title: Bodies, version: 1.0.0}
servers: [{url: /b}]
paths:
  /items:
    post:
      operationId: createItem
      parameters:
        - {name: mode, in: query, required: true, schema: {allOf: [{$ref: '#/components/schemas/Mode'}]}}
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}
      responses: {'204': {description: Taken.}}
  /forms:
    post:
      operationId: submitForm
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [name, tags, metadata]
              properties:
                name: {type: string}
                count: {type: integer}
                tags: {type: array, items: {type: string}}
                metadata: {type: object, required: [colour], properties: {colour: {type: string}}}
            encoding:
              metadata: {style: deepObject, explode: true}
      responses: {'204': {description: Taken.}}
  /uploads:
    post:
      operationId: upload
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: {type: object, required: [file, title], properties: {file: {type: string, format: binary}, title: {type: string}}}
            encoding: {file: {contentType: 'image/png, image/jpeg'}}
      responses: {'204': {description: Taken.}}
  /patches:
    patch:
      operationId: patch
      requestBody:
        required: true
        content: {application/json-patch+json: {schema: {type: array, minItems: 1, items: {type: object, required: [op, path], properties: {op: {type: string, enum: [add, remove]}, path: {type: string}}}}}}
      responses: {'204': {description: Taken.}}
  /reports:
    get:
      operationId: report
      parameters:
        - {name: Content-Type, in: header, required: true, schema: {type: string, enum: [application/json]}}
      requestBody:
        content: {application/x-www-form-urlencoded: {schema: {type: object, properties: {expand: {type: array, items: {type: string}}, count: {type: integer}}}}}
      responses: {'204': {description: A report.}}
  /files:
    post:
      operationId: uploadAny
      requestBody:
        content: {multipart/form-data: {schema: {}}}
      responses: {'204': {description: Taken.}}
components:
  schemas:
    Mode: {type: string, enum: [fast, slow]}
    Item:
      type: object
      required: [name, parts, owner]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        parts:
          type: array
          minItems: 2
          items:
            type: object
            required: [label]
            properties:
              serial: {type: string, readOnly: true}
              label: {type: string}
        owner:
          allOf:
            - {$ref: '#/components/schemas/Stamped'}
            - type: object
              required: [login]
              properties: {login: {type: string}}
    Stamped:
      type: object
      required: [created]
      properties:
        created: {type: string, format: date-time, readOnly: true}
`

// TestBodiesOfEveryShape: the suite makes a valid body of every shape a
// document asks for, and sends it in the media type the operation takes,
// with the required parameters of every kind: the document's own
// validator takes each request as sent, and no read-only property is sent
// at any depth.
func TestBodiesOfEveryShape(t *testing.T) {
	c, err := spec.Read([]byte(bodies))
	if err != nil {
		t.Fatal(err)
	}
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMaker(c, nil, rand.New(rand.NewPCG(1, 2)), "run")
	for _, op := range c.Operations {
		if op.ID == "uploadAny" {
			// openapi3filter decodes no multipart body of a schema that
			// is not an object's, though any body matches {}.
			body, _ := m.Value(context.Background(), op)
			if ct := m.OpRequest(op, nil, nil, body).Header.Get("Content-Type"); !strings.HasPrefix(ct, "multipart/form-data; boundary=") {
				t.Errorf("uploadAny: Content-Type %q, want multipart/form-data", ct)
			}
			continue
		}
		for seed := range 20 {
			m.rnd = rand.New(rand.NewPCG(uint64(seed), 2))
			body, err := m.Value(context.Background(), op)
			if err != nil {
				t.Fatalf("%s: %v", op.ID, err)
			}
			r := m.OpRequest(op, nil, nil, body)
			raw := r.Body()
			req := httptest.NewRequest(op.Method, "http://example.test/b"+r.Path+"?"+r.Query, bytes.NewReader(raw))
			req.Header = r.Header.Clone()
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("%s %s: %v", op.Method, req.URL, err)
			}
			in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
				Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
			if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
				t.Errorf("%s %s, Content-Type %s, body %s: the document's validator refuses it: %v", op.Method, req.URL, r.Header.Get("Content-Type"), raw, err)
			}
			for _, ro := range []string{`"id"`, `"serial"`, `"created"`} {
				if bytes.Contains(raw, []byte(ro)) {
					t.Errorf("%s: the body holds the read-only %s: %s", op.ID, ro, raw)
				}
			}
		}
	}
	form := c.Operation("submitForm")
	body, _ := m.Value(context.Background(), form)
	raw := string(m.OpRequest(form, nil, nil, body).Body())
	for _, want := range []string{"metadata%5Bcolour%5D=", "tags="} {
		if !strings.Contains(raw, want) {
			t.Errorf("submitForm: the form %s holds no %s", raw, want)
		}
	}
	if body, err := m.Value(context.Background(), c.Operation("report")); body != nil || err != nil {
		t.Errorf("report: a GET is sent the body %v (%v), which its document makes optional", body, err)
	}
	for _, ir := range InvalidRequests(c, c.Operation("report")) {
		if ir.Body != nil {
			t.Errorf("report: %q breaks a body its GET does not send", ir.Name)
		}
	}
	if ct := m.OpRequest(c.Operation("report"), nil, nil, nil).Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("report: Content-Type %q, want the application/json its document requires", ct)
	}
}
