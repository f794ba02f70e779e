package edge

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"weak"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/petstore/contract/spec"
)

// openapi3filter reads a form, or a multipart body, only by a schema that
// names the type object, and each member of it by the type its schema
// names: a member whose schema names none, such as Twilio's
// SinkConfiguration ("encoded as JSON"), it reads as null, which its
// schema then refuses ("must not be null"), and an array of such items,
// as Twilio's Types, it does not read at all ("failed to decode request
// body"). A form's every value is text: the form's decoder is wrapped,
// once per process, so that it reads such members as strings, by a copy
// of the schema that says so, and a member whose allOf names a scalar
// type, as PeerTube's videoChannelId, as that type; the value read is
// then checked against the document's own schema.
var formDecoder sync.Once

// readUntypedFormMembersAsText wraps the decoder openapi3filter reads
// forms with, as above.
func readUntypedFormMembersAsText() {
	formDecoder.Do(func() {
		for _, mt := range []string{formMediaType, multipartMediaType} {
			if d := openapi3filter.RegisteredBodyDecoder(mt); d != nil {
				if mt == formMediaType {
					d = nestedAsJSON(d)
				}
				openapi3filter.RegisterBodyDecoder(mt, untypedAsText(d))
			}
		}
	})
}

// A urlencoded form's member of an object, or an array of objects or
// arrays, without an encoding of its own, openapi3filter does not read:
// the whole form fails to decode, present or not ("failed to decode
// request body"). Such a member is read as JSON, as OpenAPI's Encoding
// Object takes an object's content to be by default, and as clients send
// it: Salesloft's custom_fields={}. A value that is no JSON is left as its
// text, which the member's schema then refuses, naming it.

// nestedAsJSON returns decode, reading the nested members of a form's
// schema, as above, as JSON.
func nestedAsJSON(decode openapi3filter.BodyDecoder) openapi3filter.BodyDecoder {
	return func(body io.Reader, h http.Header, schema *openapi3.SchemaRef, enc openapi3filter.EncodingFn) (any, error) {
		if schema == nil || schema.Value == nil {
			return decode(body, h, schema, enc)
		}
		var nested []string
		var props openapi3.Schemas
		for name, ref := range schema.Value.Properties {
			if ref == nil || ref.Value == nil || !nestedMember(ref.Value) {
				continue
			}
			if enc != nil {
				if e := enc(name); e != nil && (e.Style != "" || e.ContentType != "") {
					continue
				}
			}
			if props == nil {
				props = maps.Clone(schema.Value.Properties)
			}
			props[name] = textString
			nested = append(nested, name)
		}
		if props == nil {
			return decode(body, h, schema, enc)
		}
		copied := *schema.Value
		copied.Properties = props
		v, err := decode(body, h, &openapi3.SchemaRef{Value: &copied}, enc)
		if m, ok := v.(map[string]any); ok && err == nil {
			for _, name := range nested {
				if text, ok := m[name].(string); ok {
					dec := json.NewDecoder(strings.NewReader(text))
					dec.UseNumber()
					var read any
					if dec.Decode(&read) == nil && !dec.More() {
						m[name] = read
					}
				}
			}
		}
		return v, err
	}
}

// nestedMember reports whether s is of an object, or an array of objects
// or arrays.
func nestedMember(s *openapi3.Schema) bool {
	switch spec.TypeOf(s) {
	case "object":
		return true
	case "array":
		if s.Items == nil || s.Items.Value == nil {
			return false
		}
		t := spec.TypeOf(s.Items.Value)
		return t == "object" || t == "array"
	}
	return false
}

// untypedAsText returns decode, reading the members of the form's schema
// that name no type, or are arrays of items that name none, as text.
func untypedAsText(decode openapi3filter.BodyDecoder) openapi3filter.BodyDecoder {
	return func(body io.Reader, h http.Header, schema *openapi3.SchemaRef, enc openapi3filter.EncodingFn) (any, error) {
		if schema != nil && schema.Value != nil {
			schema = textForm(schema)
		}
		return decode(body, h, schema, enc)
	}
}

// textForms holds the copy textMembers made of each form's schema, by a
// weak pointer to the schema, nil where the schema is read as it is. An
// entry is dropped once its schema is collected, as the schemas of a
// document --watch replaced are once nothing serves them: kept by the
// schema itself, they were kept for the life of the process, and with them
// the schemas of every version of the document.
var textForms sync.Map // weak.Pointer[openapi3.SchemaRef] → *openapi3.SchemaRef

// textForm returns the schema s is read by: textMembers's, made once.
func textForm(s *openapi3.SchemaRef) *openapi3.SchemaRef {
	key := weak.Make(s)
	if t, ok := textForms.Load(key); ok {
		if t := t.(*openapi3.SchemaRef); t != nil {
			return t
		}
		return s
	}
	t := textMembers(s)
	var kept *openapi3.SchemaRef // never s, which would keep itself
	if t != s {
		kept = t
	}
	if _, loaded := textForms.LoadOrStore(key, kept); !loaded {
		runtime.AddCleanup(s, func(k weak.Pointer[openapi3.SchemaRef]) { textForms.Delete(k) }, key)
	}
	return t
}

// textString is the schema a member that names no type is read by.
var textString = &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeString}}}

// textMembers returns s, or, where a member of it names no type or is an
// array of items that name none, a copy of it whose such members are
// strings, or arrays of strings.
func textMembers(s *openapi3.SchemaRef) *openapi3.SchemaRef {
	var props openapi3.Schemas
	for name, ref := range s.Value.Properties {
		var repl *openapi3.SchemaRef
		switch {
		case ref == nil || ref.Value == nil:
		case untyped(ref.Value):
			repl = textString
		case !ownType(ref.Value) && scalarTypes[spec.TypeOf(ref.Value)] != nil:
			// Of an allOf of a scalar, as PeerTube's videoChannelId,
			// which openapi3filter reads as null: read as that scalar.
			repl = scalarTypes[spec.TypeOf(ref.Value)]
		case spec.TypeOf(ref.Value) == "array" && ref.Value.Items != nil && ref.Value.Items.Value != nil && untyped(ref.Value.Items.Value):
			arr := *ref.Value
			arr.Items = textString
			repl = &openapi3.SchemaRef{Value: &arr}
		}
		if repl == nil {
			continue
		}
		if props == nil {
			props = make(openapi3.Schemas, len(s.Value.Properties))
			for n, r := range s.Value.Properties {
				props[n] = r
			}
		}
		props[name] = repl
	}
	// A form's schema of properties but no type, as Intellifi's upload
	// of a file, is of objects, which is all openapi3filter reads.
	typed := s.Value.Type != nil && len(s.Value.Type.Slice()) > 0
	if props == nil && (typed || spec.TypeOf(s.Value) != "object") {
		return s
	}
	copied := *s.Value
	if props != nil {
		copied.Properties = props
	}
	if !typed {
		copied.Type = &openapi3.Types{openapi3.TypeObject}
	}
	return &openapi3.SchemaRef{Value: &copied}
}

// scalarTypes are the schemas a member of no type of its own, whose
// allOf names one, is read by.
var scalarTypes = map[string]*openapi3.SchemaRef{
	openapi3.TypeString:  textString,
	openapi3.TypeInteger: {Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeInteger}}},
	openapi3.TypeNumber:  {Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeNumber}}},
	openapi3.TypeBoolean: {Value: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeBoolean}}},
}

// ownType reports whether s names a type itself.
func ownType(s *openapi3.Schema) bool { return s.Type != nil && len(s.Type.Slice()) > 0 }

// untyped reports whether s says nothing of the type of its values: no
// type, and no alternatives or members that might.
func untyped(s *openapi3.Schema) bool {
	return spec.TypeOf(s) == "" && len(s.OneOf) == 0 && len(s.AnyOf) == 0 && len(s.AllOf) == 0 && s.Not == nil
}
