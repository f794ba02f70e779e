package spec_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// TestTextValue: a scalar's text is read as the type its schema gives it,
// and kept as text where it is none of that type, for the schema to refuse.
func TestTextValue(t *testing.T) {
	for _, tt := range []struct {
		typ, text string
		want      any
	}{
		{"integer", "42", json.Number("42")},
		{"number", "1.5", json.Number("1.5")},
		{"integer", "forty", "forty"},
		{"boolean", "true", true},
		{"boolean", "yes", "yes"},
		{"string", "42", "42"},
	} {
		s := &openapi3.Schema{Type: &openapi3.Types{tt.typ}}
		if got := spec.TextValue(s, tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("TextValue(%s, %q) = %#v, want %#v", tt.typ, tt.text, got, tt.want)
		}
	}
}
