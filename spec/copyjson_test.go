package spec_test

import (
	"reflect"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestCopyJSONSharesNothing: a change to the copy, at any depth, leaves
// the value it was copied from as it was.
func TestCopyJSONSharesNothing(t *testing.T) {
	v := map[string]any{"tags": []any{"a", map[string]any{"b": 1.0}}, "name": "Rex"}
	c := spec.CopyJSON(v).(map[string]any)
	if !reflect.DeepEqual(c, v) {
		t.Fatalf("copy %v, want %v", c, v)
	}
	c["name"] = "Max"
	c["tags"].([]any)[0] = "z"
	c["tags"].([]any)[1].(map[string]any)["b"] = 2.0
	want := map[string]any{"tags": []any{"a", map[string]any{"b": 1.0}}, "name": "Rex"}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("the value copied became %v, want %v", v, want)
	}
}
