package spec_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// example is an example the document gives, with the schema it must
// match.
type example struct {
	where  string
	value  any
	schema *openapi3.Schema
	noted  bool // it sits beside an x-petmock-example note
}

// documentExamples returns the examples of schemas, parameters and media
// types that a document's components and operations give.
func documentExamples(doc *openapi3.T) []example {
	var out []example
	note := func(ext map[string]any) bool { return ext["x-petmock-example"] != nil }
	for name, ref := range doc.Components.Schemas {
		if s := ref.Value; s != nil && s.Example != nil {
			out = append(out, example{"components.schemas." + name, s.Example, s, note(s.Extensions)})
		}
	}
	param := func(where string, p *openapi3.Parameter) {
		if p != nil && p.Example != nil && p.Schema != nil {
			out = append(out, example{where, p.Example, p.Schema.Value, note(p.Extensions)})
		}
	}
	content := func(where string, c openapi3.Content) {
		for mediaType, mt := range c {
			if mt.Example != nil && mt.Schema != nil {
				out = append(out, example{where + "." + mediaType, mt.Example, mt.Schema.Value, note(mt.Extensions)})
			}
		}
	}
	for name, ref := range doc.Components.Parameters {
		param("components.parameters."+name, ref.Value)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			where := "paths." + path + "." + strings.ToLower(method)
			for _, ref := range op.Parameters {
				if ref.Ref == "" {
					param(where+".parameters."+ref.Value.Name, ref.Value)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				content(where+".requestBody", op.RequestBody.Value.Content)
			}
			for status, ref := range op.Responses.Map() {
				if ref.Ref == "" && ref.Value != nil {
					content(where+".responses."+status, ref.Value.Content)
				}
			}
		}
	}
	return out
}

// TestExamplesMatchTheirSchemas: every example of the Petstore's document
// and of its later versions is valid against its schema, so that what an
// API explorer's "Try it out" sends is accepted, and is marked as
// petmock's, since the interface gives none.
func TestExamplesMatchTheirSchemas(t *testing.T) {
	for _, file := range []string{"", "../testdata/evolved-field.yaml", "../testdata/evolved-ops.yaml"} {
		c := contract(t)
		if file != "" {
			var err error
			if c, err = spec.ReadFile(file); err != nil {
				t.Fatal(err)
			}
		} else {
			file = "spec/openapi.yaml"
		}
		var where []string
		for _, ex := range documentExamples(c.Doc) {
			where = append(where, ex.where)
			// Values read from YAML are checked as a JSON body is.
			data, err := json.Marshal(ex.value)
			if err != nil {
				t.Fatalf("%s: %s: %v", file, ex.where, err)
			}
			var value any
			json.Unmarshal(data, &value)
			if err := ex.schema.VisitJSON(value); err != nil {
				t.Errorf("%s: %s: example %s does not match its schema: %v", file, ex.where, data, err)
			}
			if !ex.noted {
				t.Errorf("%s: %s: example without an x-petmock-example note", file, ex.where)
			}
		}
		for _, want := range []string{
			"components.schemas.Pet", "components.schemas.Pets", "components.schemas.Error",
			"components.parameters.limit", "components.parameters.status", "components.parameters.petId",
			"paths./pets.post.requestBody.application/json",
		} {
			if !slices.Contains(where, want) {
				t.Errorf("%s: %s has no example", file, want)
			}
		}
		// An example on NewPet or its properties would change what is
		// made from them: the generated catalogues, and the bodies the
		// conformance suite sends, which would all take its values.
		newPet := c.Doc.Components.Schemas["NewPet"].Value
		if newPet.Example != nil {
			t.Errorf("%s: NewPet has an example; give it on createPet's request body instead", file)
		}
		for name, p := range newPet.Properties {
			if p.Value.Example != nil {
				t.Errorf("%s: NewPet.%s has an example, which the generated catalogues would take", file, name)
			}
		}
	}
}
