package conformance

import (
	"net/http/httptest"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestWithoutChoiceHeaders: the operations answers are validated against,
// unless the run is strict, document no header that is one of petmock's
// choices, keep every status, and leave the document alone; a strict run
// validates against the document itself.
func TestWithoutChoiceHeaders(t *testing.T) {
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	lenient, err := newAnswerRouter(c, false)
	if err != nil {
		t.Fatal(err)
	}
	strict, err := newAnswerRouter(c, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ op, method, path string }{
		{spec.ListPets, "GET", "/v1/pets"},
		{spec.CreatePet, "POST", "/v1/pets"},
		{spec.GetPet, "GET", "/v1/pets/1"},
	} {
		orig := c.Operation(tt.op).Op
		route, _, err := lenient.FindRoute(httptest.NewRequest(tt.method, "http://h"+tt.path, nil))
		if err != nil {
			t.Fatalf("%s: %v", tt.op, err)
		}
		copied := route.Operation
		if copied == orig || copied.Responses.Len() != orig.Responses.Len() || copied.OperationID != tt.op {
			t.Fatalf("%s: the copy is the document's operation, or lost some of its answers", tt.op)
		}
		for status, resp := range copied.Responses.Map() {
			for name := range resp.Value.Headers {
				t.Errorf("%s %s: the copy documents the header %s, a choice of petmock's", tt.op, status, name)
			}
		}
		route, _, err = strict.FindRoute(httptest.NewRequest(tt.method, "http://h"+tt.path, nil))
		if err != nil || route.Operation != orig {
			t.Errorf("%s: a strict run validates against %p, %v; want the document's operation", tt.op, route.Operation, err)
		}
	}
	if c.Operation(spec.GetPet).Op.Responses.Status(200).Value.Headers["Deprecation"] == nil {
		t.Error("the document copied lost its Deprecation header")
	}
}
