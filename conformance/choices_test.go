package conformance

import (
	"testing"

	"github.com/petstore/contract/spec"
)

// TestWithoutChoiceHeaders: the copy documents no header that is one of
// petmock's choices, keeps every operation and status, and leaves the
// document it copied alone.
func TestWithoutChoiceHeaders(t *testing.T) {
	doc, err := spec.Load()
	if err != nil {
		t.Fatal(err)
	}
	cp, err := withoutChoiceHeaders(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{spec.ListPets, spec.CreatePet, spec.GetPet} {
		orig, copied := spec.Operation(doc, op), spec.Operation(cp, op)
		if copied == nil || copied.Responses.Len() != orig.Responses.Len() {
			t.Fatalf("%s: the copy lost the operation or some of its answers", op)
		}
		for status, resp := range copied.Responses.Map() {
			for name := range resp.Value.Headers {
				t.Errorf("%s %s: the copy documents the header %s, a choice of petmock's", op, status, name)
			}
		}
	}
	if spec.Operation(doc, spec.GetPet).Responses.Status(200).Value.Headers["Deprecation"] == nil {
		t.Error("the document copied lost its Deprecation header")
	}
}
