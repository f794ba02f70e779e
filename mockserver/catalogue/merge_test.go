package catalogue

import (
	"reflect"
	"testing"

	"github.com/petstore/contract/mockserver/edge"
)

// TestMergePatch follows the examples of RFC 7396, appendix A.
func TestMergePatch(t *testing.T) {
	for _, tt := range []struct{ target, patch, want string }{
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{`{"a":"b"}`, `{"a":null}`, `{}`},
		{`{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
		{`{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
		{`["a","b"]`, `["c","d"]`, `["c","d"]`},
		{`{"a":"b"}`, `["c"]`, `["c"]`},
		{`{"e":null}`, `{"a":1}`, `{"a":1,"e":null}`},
		{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
	} {
		target, _ := edge.DecodeJSON([]byte(tt.target))
		patch, _ := edge.DecodeJSON([]byte(tt.patch))
		want, _ := edge.DecodeJSON([]byte(tt.want))
		if got := mergePatch(target, patch); !reflect.DeepEqual(got, want) {
			t.Errorf("merge %s into %s = %v, want %s", tt.patch, tt.target, got, tt.want)
		}
	}
}
