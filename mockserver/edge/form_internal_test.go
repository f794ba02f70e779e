package edge

import (
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// TestTextFormsDroppedWithTheirSchema reads two forms' schemas, one with a
// member of no type and one without: the first is read by a copy that
// takes the member as text, made once, the second as it is; and once the
// schemas are collected, as a document --watch replaced is, neither is
// held any more.
func TestTextFormsDroppedWithTheirSchema(t *testing.T) {
	var keys []weak.Pointer[openapi3.SchemaRef]
	func() {
		object := &openapi3.Types{openapi3.TypeObject}
		untyped := &openapi3.SchemaRef{Value: &openapi3.Schema{Type: object, Properties: openapi3.Schemas{
			"config": {Value: &openapi3.Schema{}},
			"name":   {Value: openapi3.NewStringSchema()},
		}}}
		plain := &openapi3.SchemaRef{Value: &openapi3.Schema{Type: object, Properties: openapi3.Schemas{
			"name": {Value: openapi3.NewStringSchema()},
		}}}
		read := textForm(untyped)
		if read == untyped || spec.TypeOf(read.Value.Properties["config"].Value) != "string" || read.Value.Properties["name"] != untyped.Value.Properties["name"] {
			t.Fatalf("the form of an untyped member is read by %+v", read.Value.Properties)
		}
		if textForm(untyped) != read {
			t.Error("the copy was made again")
		}
		if textForm(plain) != plain {
			t.Error("a form of typed members is not read as it is")
		}
		keys = append(keys, weak.Make(untyped), weak.Make(plain))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		held := 0
		for _, k := range keys {
			if _, ok := textForms.Load(k); ok {
				held++
			}
		}
		if held == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d forms' schemas still held 10 s after they were collected", held)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
