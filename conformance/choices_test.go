package conformance

import (
	"testing"

	"github.com/petstore/contract/spec"
)

// TestWithoutChoiceHeaders: the copy documents no header that is one of
// petmock's choices, keeps every operation and status, and leaves the
// document it copied alone.
func TestWithoutChoiceHeaders(t *testing.T) {
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	doc := c.Doc
	cp, err := withoutChoiceHeaders(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{spec.ListPets, spec.CreatePet, spec.GetPet} {
		o := c.Operation(op)
		orig, copied := o.Op, cp.Paths.Value(o.Path).GetOperation(o.Method)
		if copied == nil || copied.Responses.Len() != orig.Responses.Len() {
			t.Fatalf("%s: the copy lost the operation or some of its answers", op)
		}
		for status, resp := range copied.Responses.Map() {
			for name := range resp.Value.Headers {
				t.Errorf("%s %s: the copy documents the header %s, a choice of petmock's", op, status, name)
			}
		}
	}
	if c.Operation(spec.GetPet).Op.Responses.Status(200).Value.Headers["Deprecation"] == nil {
		t.Error("the document copied lost its Deprecation header")
	}
}
