package edge

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/petstore/contract/spec"
)

// openapi3filter reads each member of a form by the type its schema
// names, and reads a member whose schema names none, such as Twilio's
// SinkConfiguration ("encoded as JSON"), as null, which its schema then
// refuses: a valid form refused as "must not be null". The form's
// decoder is wrapped, once per process, so that such a member is read as
// the text it is, as a form's every value is.
var formDecoder sync.Once

// readUntypedFormMembersAsText wraps the decoder openapi3filter reads
// forms with, as above.
func readUntypedFormMembersAsText() {
	formDecoder.Do(func() {
		if d := openapi3filter.RegisteredBodyDecoder(formMediaType); d != nil {
			openapi3filter.RegisterBodyDecoder(formMediaType, untypedAsText(d))
		}
	})
}

// untypedAsText returns decode, but with the members of the form's
// schema that name no type read as their text: one value as a string,
// several as an array of strings.
func untypedAsText(decode openapi3filter.BodyDecoder) openapi3filter.BodyDecoder {
	return func(body io.Reader, h http.Header, schema *openapi3.SchemaRef, enc openapi3filter.EncodingFn) (any, error) {
		data, err := io.ReadAll(body)
		if err != nil {
			return nil, err
		}
		v, err := decode(bytes.NewReader(data), h, schema, enc)
		m, ok := v.(map[string]any)
		if err != nil || !ok || schema == nil || schema.Value == nil {
			return v, err
		}
		var values url.Values
		for name, ref := range schema.Value.Properties {
			if m[name] != nil || ref == nil || !untyped(ref.Value) {
				continue
			}
			if values == nil {
				if values, err = url.ParseQuery(string(data)); err != nil {
					return v, nil
				}
			}
			switch vs := values[name]; len(vs) {
			case 0:
			case 1:
				m[name] = vs[0]
			default:
				texts := make([]any, len(vs))
				for i, s := range vs {
					texts[i] = s
				}
				m[name] = texts
			}
		}
		return m, nil
	}
}

// untyped reports whether s says nothing of the type of its values: no
// type, and no alternatives or members that might.
func untyped(s *openapi3.Schema) bool {
	return s != nil && spec.TypeOf(s) == "" && len(s.OneOf) == 0 && len(s.AnyOf) == 0 && len(s.AllOf) == 0 && s.Not == nil
}
