package request

import (
	"bytes"
	"fmt"
	"maps"
	"mime"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// A body goes in the media type its operation takes, of those the suite
// makes: JSON of any shape (an object, an array such as a JSON Patch or a
// bulk create, a scalar), a form (application/x-www-form-urlencoded, as
// Stripe's and Slack's writes take), or multipart/form-data. Its value is
// made from the schema of that media type, without a read-only property at
// any depth, and encoded as the media type's encoding object says.

// Media types of bodies the suite makes besides JSON.
const (
	formMedia      = "application/x-www-form-urlencoded"
	multipartMedia = "multipart/form-data"
)

// bodyMedia returns the media type the suite sends op's body in, as the
// document names it, with its media type object: JSON first, then a form,
// then multipart, of an object; "" and nil where op takes none of them. A
// form of another schema, as codat's upload of a multipart binary string,
// has no members to write.
func bodyMedia(op *spec.Operation) (string, *openapi3.MediaType) {
	rb := op.Op.RequestBody
	if rb == nil || rb.Value == nil {
		return "", nil
	}
	names := slices.Sorted(maps.Keys(rb.Value.Content))
	for _, kind := range []func(string) bool{
		func(t string) bool { return t == "application/json" },
		judge.IsJSON,
		func(t string) bool { return t == "*/*" || t == "application/*" },
		func(t string) bool { return t == formMedia },
		func(t string) bool { return t == multipartMedia },
	} {
		for _, name := range names {
			mt := rb.Value.Content[name]
			parsed, _, err := mime.ParseMediaType(name)
			parsed = strings.ToLower(parsed)
			if err == nil && mt != nil && kind(parsed) && (!isFormMedia(parsed) || formSchema(mt)) {
				return name, mt
			}
		}
	}
	return "", nil
}

// isFormMedia reports whether t, a media type without parameters, is a
// form or multipart.
func isFormMedia(t string) bool { return t == formMedia || t == multipartMedia }

// formSchema reports whether the schema of mt, of a form, is one of an
// object, or one that leaves its type unsaid.
func formSchema(mt *openapi3.MediaType) bool {
	if mt.Schema == nil || mt.Schema.Value == nil {
		return true
	}
	t := spec.TypeOf(mt.Schema.Value)
	return t == "" || t == "object"
}

// BodySchema returns the schema of op's body in the media type the suite
// sends it in, or nil where op takes no body the suite makes.
func BodySchema(op *spec.Operation) *openapi3.Schema {
	if _, mt := bodyMedia(op); mt != nil && mt.Schema != nil {
		return mt.Schema.Value
	}
	return nil
}

// isForm reports whether op takes its body as a form or multipart, whose
// values are text: a number sent there is a string too.
func isForm(op *spec.Operation) bool {
	name, _ := bodyMedia(op)
	t, _, _ := mime.ParseMediaType(name)
	return isFormMedia(t)
}

// EmptyFormIsNoBody reports whether an empty body of op is no body at all,
// which op takes: a form, whose empty text is no body, of an optional
// request body, as Twilio's are. Leaving out the one required member of
// such a form breaks no schema.
func EmptyFormIsNoBody(op *spec.Operation) bool {
	rb := op.Op.RequestBody
	return isForm(op) && (rb == nil || rb.Value == nil || !rb.Value.Required)
}

// contentType returns the Content-Type the suite sends a body of media
// type name with: JSON for a wildcard, and the media type as the document
// writes it otherwise, parameters included.
func contentType(name string) string {
	if t, _, _ := mime.ParseMediaType(name); t == "*/*" || t == "application/*" {
		return "application/json"
	}
	return name
}

// encodeBody returns body, a value of op's body, in the media type op
// takes it in, and its Content-Type: JSON where op takes none the suite
// makes, such as a body that breaks the schema on purpose.
func encodeBody(op *spec.Operation, body any) ([]byte, string) {
	name, mt := bodyMedia(op)
	t, _, _ := mime.ParseMediaType(name)
	obj, isObject := body.(map[string]any)
	switch {
	case t == formMedia && isObject:
		q := url.Values{}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			addFormValue(q, k, obj[k], mt.Encoding[k])
		}
		return []byte(q.Encode()), contentType(name)
	case t == multipartMedia && isObject:
		return multipartBody(obj, mt)
	case name == "" || t == formMedia || t == multipartMedia:
		return []byte(judge.JSONText(body)), "application/json"
	}
	return []byte(judge.JSONText(body)), contentType(name)
}

// addFormValue adds v, the value of the property name of a form, to q as
// its encoding asks: as a query parameter of the style and explode it
// gives, form and exploded by default; deepObject at any depth, as
// name[member][member]=value, and name[0][member] for an array of objects.
func addFormValue(q url.Values, name string, v any, enc *openapi3.Encoding) {
	p := &openapi3.Parameter{Name: name, In: openapi3.ParameterInQuery}
	if enc != nil {
		p.Style, p.Explode = enc.Style, enc.Explode
	}
	if p.Style == openapi3.SerializationDeepObject {
		addDeep(q, name, v)
		return
	}
	switch v.(type) {
	case map[string]any, []any:
		if p.Style == "" && (enc == nil || enc.ContentType == "") {
			if _, isArray := v.([]any); !isArray || !scalars(v.([]any)) {
				// A nested value without an encoding of its own: as
				// JSON, which is what a form can say of it.
				q.Add(name, judge.JSONText(v))
				return
			}
		}
	}
	spec.AddQuery(q, p, v)
}

// scalars reports whether every item of items is a scalar.
func scalars(items []any) bool {
	for _, it := range items {
		switch it.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

// addDeep adds v under key as deepObject writes it, at any depth.
func addDeep(q url.Values, key string, v any) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			addDeep(q, key+"["+k+"]", v[k])
		}
	case []any:
		for i, it := range v {
			addDeep(q, key+"["+strconv.Itoa(i)+"]", it)
		}
	default:
		q.Add(key, spec.ValueText(v))
	}
}

// multipartBody writes obj as multipart/form-data: a part of each
// property, the items of an array a part each, an object as JSON, and a
// binary string as a file; the boundary is fixed, so that a request and
// its curl line repeat.
func multipartBody(obj map[string]any, mt *openapi3.MediaType) ([]byte, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.SetBoundary("conformance-boundary")
	var props map[string]*openapi3.Schema
	if mt.Schema != nil && mt.Schema.Value != nil {
		props = map[string]*openapi3.Schema{}
		for name, ref := range mt.Schema.Value.Properties {
			if ref != nil {
				props[name] = ref.Value
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		values := []any{obj[name]}
		if items, ok := obj[name].([]any); ok {
			values = items
		}
		for _, v := range values {
			h := textproto.MIMEHeader{}
			file := isBinary(props[name])
			if items := props[name]; items != nil && items.Items != nil && items.Items.Value != nil {
				file = file || isBinary(items.Items.Value)
			}
			disposition := fmt.Sprintf(`form-data; name=%q`, name)
			text := spec.ValueText(v)
			switch {
			case file:
				disposition += fmt.Sprintf(`; filename=%q`, name+".bin")
				h.Set("Content-Type", "application/octet-stream")
			case isCompound(v):
				h.Set("Content-Type", "application/json")
				text = judge.JSONText(v)
			}
			if enc := mt.Encoding[name]; enc != nil {
				// The first of the media types its encoding lists, as
				// PeerTube's avatar of "image/png, image/jpeg".
				first, _, _ := strings.Cut(enc.ContentType, ",")
				if first = strings.TrimSpace(first); first != "" && !strings.Contains(first, "*") {
					h.Set("Content-Type", first)
				}
			}
			h.Set("Content-Disposition", disposition)
			part, _ := w.CreatePart(h)
			part.Write([]byte(text))
		}
	}
	w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

// isBinary reports whether s is the schema of a file's bytes.
func isBinary(s *openapi3.Schema) bool {
	return s != nil && spec.TypeOf(s) == "string" && (s.Format == "binary" || s.Format == "byte" || s.ContentMediaType != "")
}

// isCompound reports whether v is an object or an array.
func isCompound(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// withoutReadOnly drops from v, a value of s made for a request, every
// read-only property at any depth: of an object's properties, its allOf,
// oneOf and anyOf members and additional properties, and of an array's
// items. A client sends none (OpenAPI 3.0, 4.7.24), and a server may
// refuse one, as petmock does.
func withoutReadOnly(c *spec.Contract, s *openapi3.Schema, v any) any {
	return stripReadOnly(c, s, v, 0)
}

func stripReadOnly(c *spec.Contract, s *openapi3.Schema, v any, depth int) any {
	if s == nil || depth > 32 {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		schemas := propertySchemas(c, s)
		for name, value := range v {
			ps, ok := schemas[name]
			if !ok {
				if ap := s.AdditionalProperties.Schema; ap != nil && ap.Value != nil {
					v[name] = stripReadOnly(c, ap.Value, value, depth+1)
				}
				continue
			}
			if slices.ContainsFunc(ps, func(p *openapi3.Schema) bool { return p.ReadOnly }) {
				delete(v, name)
				continue
			}
			for _, p := range ps {
				value = stripReadOnly(c, p, value, depth+1)
			}
			v[name] = value
		}
		return v
	case []any:
		for _, items := range itemSchemas(s) {
			for i := range v {
				v[i] = stripReadOnly(c, items, v[i], depth+1)
			}
		}
		return v
	}
	return v
}

// propertySchemas returns the schemas each property of s has, in s and in
// its allOf, oneOf and anyOf members.
func propertySchemas(c *spec.Contract, s *openapi3.Schema) map[string][]*openapi3.Schema {
	out := map[string][]*openapi3.Schema{}
	var visit func(s *openapi3.Schema, depth int)
	visit = func(s *openapi3.Schema, depth int) {
		if s == nil || depth > 32 {
			return
		}
		for _, p := range c.Properties(s) {
			out[p.Name] = append(out[p.Name], p.Schema)
		}
		for _, members := range [][]*openapi3.SchemaRef{s.OneOf, s.AnyOf} {
			for _, m := range members {
				if m != nil {
					visit(m.Value, depth+1)
				}
			}
		}
	}
	visit(s, 0)
	return out
}

// itemSchemas returns the schemas of the items of an array of s, in s and
// in its allOf, oneOf and anyOf members.
func itemSchemas(s *openapi3.Schema) []*openapi3.Schema {
	var out []*openapi3.Schema
	var visit func(s *openapi3.Schema, depth int)
	visit = func(s *openapi3.Schema, depth int) {
		if s == nil || depth > 32 {
			return
		}
		if s.Items != nil && s.Items.Value != nil {
			out = append(out, s.Items.Value)
		}
		for _, members := range [][]*openapi3.SchemaRef{s.AllOf, s.OneOf, s.AnyOf} {
			for _, m := range members {
				if m != nil {
					visit(m.Value, depth+1)
				}
			}
		}
	}
	visit(s, 0)
	return out
}
