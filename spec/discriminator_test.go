package spec_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// discriminatorDocument holds the ways documents write a discriminator:
// without a mapping, members told apart by optional properties only;
// members each an allOf of a parent that lists them; members that
// enumerate their value; a mapping that names some members; a parent's
// enumeration every member shares; a member written in place.
const discriminatorDocument = `
openapi: 3.0.3
info: {title: Pets, version: 1.0.0}
paths: {}
components:
  schemas:
    Pet:
      type: object
      required: [id, petType]
      properties: {id: {type: integer}, petType: {type: string}}
    Cat: {allOf: [{$ref: '#/components/schemas/Pet'}, {type: object, properties: {meow: {type: boolean}}}]}
    Dog: {allOf: [{$ref: '#/components/schemas/Pet'}, {type: object, properties: {bark: {type: boolean}}}]}
    Bird: {allOf: [{$ref: '#/components/schemas/Pet'}, {type: object, properties: {sings: {type: boolean}}}]}
    AnyPet:
      oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
      discriminator: {propertyName: petType}
    Parent:
      type: object
      required: [id, petType]
      properties: {id: {type: integer}, petType: {type: string}}
      oneOf: [{$ref: '#/components/schemas/Kitten'}, {$ref: '#/components/schemas/Puppy'}]
      discriminator: {propertyName: petType}
    Kitten: {allOf: [{$ref: '#/components/schemas/Parent'}, {type: object, properties: {meow: {type: boolean}}}]}
    Puppy: {allOf: [{$ref: '#/components/schemas/Parent'}, {type: object, properties: {bark: {type: boolean}}}]}
    Track: {type: object, required: [type], properties: {type: {type: string, enum: [track]}, duration: {type: integer}}}
    Episode: {type: object, required: [type], properties: {type: {type: string, enum: [episode]}, show: {type: string}}}
    Playable:
      oneOf: [{$ref: '#/components/schemas/Track'}, {$ref: '#/components/schemas/Episode'}]
      discriminator: {propertyName: type}
    Partly:
      oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}, {$ref: '#/components/schemas/Bird'}]
      discriminator: {propertyName: petType, mapping: {cat: '#/components/schemas/Cat'}}
    Shared:
      type: object
      required: [kind]
      properties: {kind: {type: string, enum: [a, b]}}
    SharedA: {allOf: [{$ref: '#/components/schemas/Shared'}, {properties: {x: {type: string}}}]}
    SharedB: {allOf: [{$ref: '#/components/schemas/Shared'}, {properties: {y: {type: string}}}]}
    Alike:
      oneOf: [{$ref: '#/components/schemas/SharedA'}, {$ref: '#/components/schemas/SharedB'}]
      discriminator: {propertyName: kind}
    InPlace:
      oneOf: [{$ref: '#/components/schemas/Cat'}, {type: object, properties: {petType: {type: string}}}]
      discriminator: {propertyName: petType}
`

// TestImplicitMapping: a discriminator without a mapping is read as
// OpenAPI 3.0 reads it, each value naming the member of its name, so
// that a correct answer, a Cat with a meow and no bark, is one value of
// AnyPet where kin-openapi alone found it matched Cat and Dog; a member
// that enumerates its value is named by it, and members a mapping does
// not name by their names. Where the mapping cannot be told, the
// discriminator is left as written.
func TestImplicitMapping(t *testing.T) {
	c, err := spec.Read([]byte(discriminatorDocument))
	if err != nil {
		t.Fatal(err)
	}
	schemas := c.Doc.Components.Schemas
	mapping := func(name string) string {
		var out []string
		m := schemas[name].Value.Discriminator.Mapping
		for _, key := range slices.Sorted(maps.Keys(m)) {
			out = append(out, key+"="+m[key].Ref[strings.LastIndexByte(m[key].Ref, '/')+1:])
		}
		return strings.Join(out, " ")
	}
	for name, want := range map[string]string{
		"AnyPet":   "Cat=Cat Dog=Dog",
		"Parent":   "Kitten=Kitten Puppy=Puppy",
		"Playable": "episode=Episode track=Track",
		"Partly":   "Bird=Bird Dog=Dog cat=Cat",
		"Alike":    "",
		"InPlace":  "",
	} {
		if got := mapping(name); got != want {
			t.Errorf("%s's mapping = %q, want %q", name, got, want)
		}
	}

	answer := openapi3.VisitAsResponse()
	for _, tt := range []struct {
		schema string
		value  map[string]any
		valid  bool
	}{
		{"AnyPet", map[string]any{"id": 1.0, "petType": "Cat", "meow": true}, true},
		{"AnyPet", map[string]any{"id": 1.0, "petType": "Dog"}, true},
		{"AnyPet", map[string]any{"id": 1.0, "petType": "Cat", "meow": "loud"}, false},
		{"AnyPet", map[string]any{"id": 1.0, "petType": "Horse"}, false},
		{"Parent", map[string]any{"id": 1.0, "petType": "Kitten", "meow": true}, true},
		{"Parent", map[string]any{"id": "one", "petType": "Kitten"}, false},
		{"Playable", map[string]any{"type": "track", "duration": 3.0}, true},
		{"Playable", map[string]any{"type": "Track"}, false},
		{"Partly", map[string]any{"id": 1.0, "petType": "cat"}, true},
		{"Partly", map[string]any{"id": 1.0, "petType": "Bird", "sings": true}, true},
	} {
		err := schemas[tt.schema].Value.VisitJSON(tt.value, answer)
		if (err == nil) != tt.valid {
			t.Errorf("%s: %v: valid = %v, want %v (%v)", tt.schema, tt.value, err == nil, tt.valid, err)
		}
	}
}

// TestImplicitMappingIsOpenAPI30s: a document of OpenAPI 3.1, whose
// schemas are JSON Schema's, is not given a mapping it did not write.
func TestImplicitMappingIsOpenAPI30s(t *testing.T) {
	doc := strings.Replace(discriminatorDocument, "openapi: 3.0.3", "openapi: 3.1.0", 1)
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Doc.Components.Schemas["AnyPet"].Value.Discriminator.Mapping; len(m) != 0 {
		t.Errorf("AnyPet's mapping = %v, want none", m)
	}
}
