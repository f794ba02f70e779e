package edge

import "testing"

// TestContentPathParamsReadOneJSONValue: a path parameter of JSON content
// is read as its JSON where the text is one JSON value, and kept as its
// text otherwise: a UUID begins with digits, the JSON number 0 of
// 088b7872-..., which was taken for the whole.
func TestContentPathParamsReadOneJSONValue(t *testing.T) {
	for text, want := range map[string]string{
		"%2216%22":                             "16",
		"16":                                   "16",
		"088b7872-8722-4442-aa6f-ac458af817ae": "088b7872-8722-4442-aa6f-ac458af817ae",
		"0x1":                                  "0x1",
		"not-json":                             "not-json",
	} {
		if got := contentPathParams([]string{"id"}, map[string]string{"id": text})["id"]; got != want {
			t.Errorf("id %q read as %q, want %q", text, got, want)
		}
	}
}
