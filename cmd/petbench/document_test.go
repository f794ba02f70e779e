package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// keyed is a document of a resource and a report, whose key goes in a
// header of its own, and a lookup whose key goes in the query.
const keyed = `openapi: 3.0.3
info: {title: Keyed, version: 1.0.0}
servers: [{url: /api}]
security: [{headerKey: []}]
paths:
  /things:
    get:
      responses: {'200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewThing'}}}}
      responses: {'201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}}
  /things/{thingId}:
    get:
      parameters: [{name: thingId, in: path, required: true, schema: {type: integer}}]
      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}}
  /search:
    get:
      parameters: [{name: q, in: query, required: true, schema: {type: string}}]
      responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}
  /reports/{year}:
    get:
      security: [{queryKey: []}]
      parameters: [{name: year, in: path, required: true, schema: {type: integer, minimum: 2000, maximum: 2100}}]
      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {total: {type: integer}}}}}}}
components:
  securitySchemes:
    headerKey: {type: apiKey, in: header, name: X-Api-Key}
    queryKey: {type: apiKey, in: query, name: key}
  schemas:
    NewThing: {type: object, properties: {name: {type: string}}}
    Thing: {type: object, required: [id], properties: {id: {type: integer}, name: {type: string}}}
`

// TestDocumentTargets: --spec measures a resource's list and an operation
// answered from the document that petbench can fill, each with the key
// where the document asks for it.
func TestDocumentTargets(t *testing.T) {
	c, err := spec.ReadOptions{}.Read([]byte(keyed))
	if err != nil {
		t.Fatal(err)
	}
	list, made, err := documentTargets(c)
	if err != nil {
		t.Fatal(err)
	}
	if list == nil || list.Path != "/things" {
		t.Fatalf("list = %v, want GET /things", list)
	}
	if made == nil || made.Path != "/reports/{year}" {
		t.Fatalf("made = %v, want GET /reports/{year}: /search needs a query petbench cannot fill", made)
	}

	target, headers, err := requestOf(c, list)
	if err != nil {
		t.Fatal(err)
	}
	if target != "/things" || !slices.Equal(headers, []string{"X-Api-Key: " + mockserver.DefaultAPIKey}) {
		t.Errorf("list: target %q, headers %q", target, headers)
	}
	target, headers, err = requestOf(c, made)
	if err != nil {
		t.Fatal(err)
	}
	path, query, _ := strings.Cut(target, "?")
	if !strings.HasPrefix(path, "/reports/") || query != "key="+mockserver.DefaultAPIKey || len(headers) != 0 {
		t.Errorf("report: target %q, headers %q; want a year and the key in the query", target, headers)
	}
	if _, match := made.Template.Match(path); !match {
		t.Errorf("%s does not match %s", path, made.Path)
	}
}

// TestDocumentTargetsNeedOne: a document with neither target is refused
// in one line.
func TestDocumentTargetsNeedOne(t *testing.T) {
	c, err := spec.ReadOptions{}.Read([]byte(`openapi: 3.0.3
info: {title: Search, version: 1.0.0}
paths:
  /search:
    get:
      parameters: [{name: q, in: query, required: true, schema: {type: string}}]
      responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err = documentTargets(c); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("err = %v, want one line", err)
	}
}
