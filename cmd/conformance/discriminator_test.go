package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
)

// discriminated is a document whose pets are a oneOf of a discriminator
// without a mapping, as OpenAPI's own example writes one: a Cat and a Dog,
// each an allOf of Pet, told apart by their petType alone, their own
// properties being optional.
const discriminated = `openapi: 3.0.3
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      responses:
        '200': {description: The pets., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/AnyPet'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/AnyPet'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/AnyPet'}}}}
  /pets/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      responses:
        '200': {description: The pet., content: {application/json: {schema: {$ref: '#/components/schemas/AnyPet'}}}}
        '404': {description: No such pet.}
    delete:
      responses:
        '204': {description: Deleted.}
        '404': {description: No such pet.}
components:
  schemas:
    AnyPet:
      oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
      discriminator: {propertyName: petType}
    Pet:
      type: object
      required: [id, petType]
      properties: {id: {type: integer, readOnly: true}, petType: {type: string}}
    Cat: {allOf: [{$ref: '#/components/schemas/Pet'}, {type: object, properties: {meow: {type: boolean}}}]}
    Dog: {allOf: [{$ref: '#/components/schemas/Pet'}, {type: object, properties: {bark: {type: boolean}}}]}
`

// TestDiscriminatedAnswers: a Cat that meows and has no bark is a Cat, as
// OpenAPI reads the discriminator, and the suite passes a server that
// answers such pets, where kin-openapi alone found each matched Cat and
// Dog; a pet whose petType names neither is caught, by the rule of the
// answer's contract.
func TestDiscriminatedAnswers(t *testing.T) {
	t.Parallel()
	path, c := writtenDocument(t, discriminated)

	natural := ct.Intercept(ct.PetmockOf(t, path), func(r *http.Request, rec *httptest.ResponseRecorder) {
		// Each pet as a server writes it: its own properties and no
		// other child's.
		ct.EditJSON(rec, eachPet(func(p map[string]any) {
			if p["petType"] == "Cat" {
				delete(p, "bark")
				p["meow"] = true
			} else {
				delete(p, "meow")
			}
		}))
	})
	url := servedAt(t, natural, c.Base)
	if r := judge(t, url, "--spec", path); r.code != 0 {
		t.Errorf("a server of cats that meow: exit %d, want 0\n%s", r.code, r)
	}
	res, err := http.Get(url + "/pets")
	if err != nil {
		t.Fatal(err)
	}
	var pets []map[string]any
	json.NewDecoder(res.Body).Decode(&pets)
	res.Body.Close()
	if len(pets) == 0 || !strings.Contains(pets[0]["petType"].(string), "Cat") && !strings.Contains(pets[0]["petType"].(string), "Dog") {
		t.Fatalf("the pets served are %v, want cats and dogs", pets)
	}

	horses := ct.Intercept(ct.PetmockOf(t, path), func(r *http.Request, rec *httptest.ResponseRecorder) {
		if r.Method == http.MethodGet {
			ct.EditJSON(rec, eachPet(func(p map[string]any) { p["petType"] = "Horse" }))
		}
	})
	r := judge(t, servedAt(t, horses, c.Base), "--spec", path)
	if r.code != 1 || !strings.Contains(r.stdout, "broken rule contract.response") || !strings.Contains(r.stdout, "petType") {
		t.Errorf("a server of horses: exit %d, want 1, the answer's contract broken at petType\n%s", r.code, r)
	}
}

// eachPet returns an edit of ct.EditJSON that applies edit to the pet, or
// to every pet of a list.
func eachPet(edit func(p map[string]any)) func(v any) any {
	return func(v any) any {
		switch v := v.(type) {
		case []any:
			for _, p := range v {
				if p, ok := p.(map[string]any); ok {
					edit(p)
				}
			}
		case map[string]any:
			edit(v)
		}
		return v
	}
}
