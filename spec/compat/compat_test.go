package compat_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/compat"
)

// swaggerShelter is a Swagger 2.0 document: a Pet made of a NewPet and an
// id by allOf, created by POST /pets.
const swaggerShelter = `swagger: "2.0"
info:
  title: Shelter
  version: 1.0.0
basePath: /v1
paths:
  /pets:
    post:
      operationId: createPet
      consumes: [application/json]
      produces: [application/json]
      parameters:
        - name: body
          in: body
          required: true
          schema:
            $ref: '#/definitions/NewPet'
      responses:
        '201':
          description: The pet created.
          schema:
            $ref: '#/definitions/Pet'
definitions:
  NewPet:
    type: object
    required: [name]
    properties:
      name:
        type: string
  Pet:
    allOf:
      - $ref: '#/definitions/NewPet'
      - type: object
        required: [id]
        properties:
          id:
            type: integer
`

// flatShelter is swaggerShelter as OpenAPI 3.1, its schemas written in
// place, the Pet's properties in one object, and an optional request
// property more.
const flatShelter = `openapi: 3.1.0
info:
  title: Shelter
  version: 1.1.0
servers:
  - url: /v1
paths:
  /pets:
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name:
                  type: string
                age:
                  type: integer
      responses:
        '201':
          description: The pet created.
          content:
            application/json:
              schema:
                type: object
                required: [id, name]
                properties:
                  name:
                    type: string
                  id:
                    type: integer
`

// read reads a document of the test's, failing the test if it cannot.
func read(tb testing.TB, name, doc string) *compat.Document {
	tb.Helper()
	d, err := compat.Read(name, []byte(doc))
	if err != nil {
		tb.Fatalf("Read %s: %v", name, err)
	}
	return d
}

// compare compares two documents, failing the test if it cannot.
func compare(tb testing.TB, base, revision *compat.Document) *compat.Report {
	tb.Helper()
	r, err := compat.Compare(base, revision)
	if err != nil {
		tb.Fatalf("Compare %s %s: %v", base.Name, revision.Name, err)
	}
	return r
}

// TestSwaggerAndRestructuring: a Swagger 2.0 document is compared with
// the OpenAPI 3.1 one it became, and what was only rewritten, a body
// parameter as a request body, an allOf as one object, a $ref as the
// schema in place, is no change of the operation. The request property
// added is.
func TestSwaggerAndRestructuring(t *testing.T) {
	base, revision := read(t, "swagger.yaml", swaggerShelter), read(t, "flat.yaml", flatShelter)
	if base.Title != "Shelter" || base.Version != "1.0.0" || revision.Version != "1.1.0" {
		t.Errorf("the documents read as %q %q and %q %q", base.Title, base.Version, revision.Title, revision.Version)
	}
	r := compare(t, base, revision)
	var ops []string
	for _, c := range r.Changes {
		if c.Section == "paths" {
			ops = append(ops, c.String())
		}
	}
	want := []string{"POST /pets: added the new optional request property `age`"}
	if !slices.Equal(ops, want) {
		t.Errorf("the changes of the operations are %q, want %q", ops, want)
	}
	if n := r.Count(compat.Breaking) + r.Count(compat.MayBreak); n != 0 {
		t.Errorf("%d changes break or may break clients, want none: %v", n, r.Changes)
	}
}

// TestPathParametersMoved: a parameter written once for a path and the
// same written on each of its operations are no change.
func TestPathParametersMoved(t *testing.T) {
	const perPath = `openapi: 3.0.3
info: {title: Shelter, version: 1.0.0}
paths:
  /pets/{petId}:
    parameters:
      - {name: petId, in: path, required: true, schema: {type: integer}}
    get:
      responses:
        '200': {description: The pet.}
    delete:
      responses:
        '204': {description: Gone.}
`
	perOperation := strings.Replace(perPath, "    parameters:\n      - {name: petId, in: path, required: true, schema: {type: integer}}\n", "", 1)
	perOperation = strings.ReplaceAll(perOperation, "      responses:\n", "      parameters:\n        - {name: petId, in: path, required: true, schema: {type: integer}}\n      responses:\n")
	if perOperation == perPath {
		t.Fatal("the document was not rewritten")
	}
	for _, pair := range [][2]string{{perPath, perOperation}, {perOperation, perPath}} {
		if r := compare(t, read(t, "a.yaml", pair[0]), read(t, "b.yaml", pair[1])); len(r.Changes) != 0 {
			t.Errorf("the parameters moved are changes: %v", r.Changes)
		}
	}
}

// TestUnmergeableAllOf: a document with an allOf no value can match, and
// so that cannot be merged into one schema, is compared as written.
func TestUnmergeableAllOf(t *testing.T) {
	const odd = `openapi: 3.0.3
info: {title: Odd, version: 1.0.0}
paths:
  /things:
    get:
      responses:
        '200':
          description: A thing.
          content:
            application/json:
              schema:
                allOf:
                  - type: string
                  - type: integer
`
	r := compare(t, read(t, "odd.yaml", odd), read(t, "odder.yaml", strings.Replace(odd, "/things:", "/stuff:", 1)))
	if len(r.Changes) == 0 || r.Changes[0].String() != "GET /things: api path removed without deprecation" || r.Changes[0].Severity != compat.Breaking {
		t.Errorf("the changes are %v, want first GET /things removed, which breaks", r.Changes)
	}
}

// TestCompareLeavesDocuments: a document compared once compares the same
// again, with either side: Compare works on copies of its own.
func TestCompareLeavesDocuments(t *testing.T) {
	base, revision := read(t, "swagger.yaml", swaggerShelter), read(t, "flat.yaml", flatShelter)
	first := compare(t, base, revision)
	again := compare(t, base, revision)
	if !slices.Equal(first.Changes, again.Changes) {
		t.Errorf("the second comparison found %v, the first %v", again.Changes, first.Changes)
	}
	back := compare(t, revision, base)
	if back.Count(compat.MayBreak) != 1 || !strings.Contains(back.Changes[0].String(), "POST /pets: removed the request property `age`") {
		t.Errorf("the other way round, the changes are %v, want first the request property age removed, which may break", back.Changes)
	}
}

// TestOrder: the breaking changes come first, then those that may break,
// then the rest; a document compared with itself has no changes.
func TestOrder(t *testing.T) {
	base := read(t, "openapi.yaml", string(spec.YAML()))
	if r := compare(t, base, base); len(r.Changes) != 0 {
		t.Errorf("the document compared with itself has changes: %v", r.Changes)
	}
	revision := strings.Replace(string(spec.YAML()), "        - name\n        - categoryId\n", "        - name\n        - categoryId\n        - status\n", 1)
	revision = strings.Replace(revision, "        categoryId:\n          type: integer\n          format: int64\n          description: Identifier of the category the animal belongs to.\n", "", 1)
	revision = strings.Replace(revision, "  /pets/{petId}:\n", "  /pets/{petId}/photos:\n    get:\n      operationId: listPhotos\n      parameters:\n        - $ref: '#/components/parameters/petId'\n      responses:\n        '200':\n          description: The photos.\n  /pets/{petId}:\n", 1)
	r := compare(t, base, read(t, "revision.yaml", revision))
	var severities []compat.Severity
	for _, c := range r.Changes {
		severities = append(severities, c.Severity)
	}
	if !slices.IsSortedFunc(severities, func(a, b compat.Severity) int { return int(b) - int(a) }) {
		t.Errorf("the changes are not ordered by severity: %v", r.Changes)
	}
	for _, s := range []compat.Severity{compat.Breaking, compat.NonBreaking} {
		if r.Count(s) == 0 {
			t.Errorf("no %s change among %v", s, r.Changes)
		}
	}
}

// TestReadRefuses: what is not an OpenAPI document, or not a valid one,
// is refused with what is wrong.
func TestReadRefuses(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"", "the document is empty"},
		{"a: [\n", "not YAML or JSON"},
		{"openapi: 3.0.3\ninfo:\n  title: x\n  tags: [a, b\npaths: {}\n", "not YAML or JSON: line 4: "},
		{"[1, 2]", "its top level is not a mapping"},
		{"title: Shelter\n", "openapi: missing"},
		{strings.Replace(swaggerShelter, `"2.0"`, "2.0", 1), `write it in quotes: swagger: "2.0"`},
		{strings.Replace(swaggerShelter, `"2.0"`, `"1.2"`, 1), `swagger: version "1.2" is not one this reads`},
		{strings.Replace(flatShelter, "type: integer", "type: integr", 1), "validate:"},
		{strings.Replace(flatShelter, "type: object\n              required: [name]", "$ref: 'other.yaml#/NewPet'", 1), "load:"},
	} {
		_, err := compat.Read("doc.yaml", []byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read %q: %v, want an error that says %q", tc.doc, err, tc.want)
		}
	}
}

// TestSeverityText: a severity is written in JSON as the text report
// writes it, and read back.
func TestSeverityText(t *testing.T) {
	for _, s := range []compat.Severity{compat.NonBreaking, compat.MayBreak, compat.Breaking} {
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != `"`+s.String()+`"` {
			t.Errorf("%v is written %s", s, data)
		}
		var back compat.Severity
		if err := json.Unmarshal(data, &back); err != nil || back != s {
			t.Errorf("%s reads back as %v, %v", data, back, err)
		}
	}
	var s compat.Severity
	if err := json.Unmarshal([]byte(`"fatal"`), &s); err == nil {
		t.Error(`"fatal" is read as a severity`)
	}
}

// ExampleCompare compares a document with a later version of it, in which
// a query parameter became required and a response gained a property.
func ExampleCompare() {
	const v1 = `openapi: 3.0.3
info: {title: Shelter, version: 1.0.0}
paths:
  /pets:
    get:
      parameters:
        - {name: status, in: query, schema: {type: string}}
      responses:
        '200':
          description: The pets.
          content:
            application/json:
              schema:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
`
	v2 := strings.Replace(v1, "version: 1.0.0", "version: 2.0.0", 1)
	v2 = strings.Replace(v2, "in: query,", "in: query, required: true,", 1)
	v2 = strings.Replace(v2, "name: {type: string}", "name: {type: string}\n                    age: {type: integer}", 1)
	base, err := compat.Read("v1.yaml", []byte(v1))
	if err != nil {
		fmt.Println(err)
		return
	}
	revision, err := compat.Read("v2.yaml", []byte(v2))
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := compat.Compare(base, revision)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range report.Changes {
		fmt.Printf("%s: %s\n", c.Severity, c)
	}
	fmt.Println(report.Count(compat.Breaking), "breaking")
	// Output:
	// breaking: GET /pets: the `query` request parameter `status` became required
	// non-breaking: GET /pets: added the optional property `items/age` to the response with the `200` status
	// 1 breaking
}

// TestVersioningIsNoChange: what the versions say of a breaking change,
// such as a version that stayed the same, is a remark of its own, not a
// change that does not break clients; and nothing is remarked of versions
// that carry the breaking change, or where nothing breaks.
func TestVersioningIsNoChange(t *testing.T) {
	const v1 = `openapi: 3.0.3
info: {title: Shelter, version: 1.0.0}
paths:
  /pets:
    get:
      responses: {'200': {description: The pets.}}
  /cats:
    get:
      responses: {'200': {description: The cats.}}
`
	removed := strings.Replace(v1, "  /cats:\n    get:\n      responses: {'200': {description: The cats.}}\n", "", 1)
	added := strings.Replace(v1, "  /cats:\n", "  /dogs:\n    get:\n      responses: {'200': {description: The dogs.}}\n  /cats:\n", 1)
	for _, tt := range []struct {
		name, revision string
		want           []string // the rules of the remarks
	}{
		{"a breaking change, the same version", removed, []string{"api-version-not-bumped"}},
		{"a breaking change, a lower version", strings.Replace(removed, "1.0.0", "0.9.0", 1), []string{"api-version-decreased"}},
		{"a breaking change, a minor step", strings.Replace(removed, "1.0.0", "1.1.0", 1), []string{"api-major-version-not-bumped"}},
		{"a breaking change, a major step", strings.Replace(removed, "1.0.0", "2.0.0", 1), nil},
		{"nothing breaks, the same version", added, nil},
	} {
		r := compare(t, read(t, "v1.yaml", v1), read(t, "v2.yaml", tt.revision))
		var rules []string
		for _, v := range r.Versioning {
			rules = append(rules, v.Rule)
			if !strings.Contains(v.Text, "breaking change") {
				t.Errorf("%s: the remark %q does not say what it is about", tt.name, v.Text)
			}
		}
		if !slices.Equal(rules, tt.want) {
			t.Errorf("%s: remarks %q, want %q", tt.name, rules, tt.want)
		}
		for _, c := range r.Changes {
			if c.Section == "info" || strings.Contains(c.Rule, "version") {
				t.Errorf("%s: %s %q is listed as a change", tt.name, c.Severity, c)
			}
		}
	}
}
