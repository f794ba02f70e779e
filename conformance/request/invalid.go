package request

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// InvalidRequest is a request of an operation that breaks its schema in
// one way.
type InvalidRequest struct {
	// Name says how the request breaks the schema, such as "body: name
	// left out".
	Name string
	// Body changes a valid body; nil leaves it. Query changes a valid
	// query; nil leaves it.
	Body  func(map[string]any) any
	Query func(url.Values)
}

// InvalidRequests makes, from the schemas of op, requests that each break
// them in one way: a required property left out, a value of the wrong
// type, outside an enumeration, past a bound, or too long; a body that is
// not an object; a query parameter outside its enumeration, not an
// integer, or past a bound. A body op's valid requests do not send, an
// optional one of a GET or a DELETE, is not broken either.
func InvalidRequests(c *spec.Contract, op *spec.Operation) []InvalidRequest {
	var out []InvalidRequest
	form := isForm(op)
	if s := BodySchema(op); s != nil && spec.TypeOf(s) == "object" && bodySent(op) {
		for _, p := range c.Properties(s) {
			if p.Schema.ReadOnly {
				continue
			}
			name := p.Name
			if p.Required {
				out = append(out, InvalidRequest{Name: "body: " + name + " left out", Body: func(b map[string]any) any {
					delete(b, name)
					return b
				}})
			}
			for _, v := range badValues(p.Schema) {
				if form && !breaksAsText(v.value, p.Schema) {
					continue
				}
				value := v.value
				out = append(out, InvalidRequest{Name: "body: " + name + " " + v.what, Body: func(b map[string]any) any {
					b[name] = value
					return b
				}})
			}
		}
		if declaredType(s) == "object" && !form {
			out = append(out, InvalidRequest{Name: "body: an array instead of an object", Body: func(b map[string]any) any {
				return []any{b}
			}})
		}
	}
	for _, p := range op.Parameters {
		if p.In != openapi3.ParameterInQuery || p.Schema == nil || p.Schema.Value == nil {
			continue
		}
		name := p.Name
		for _, v := range badValues(p.Schema.Value) {
			if !breaksAsText(v.value, p.Schema.Value) {
				continue
			}
			text := spec.ValueText(v.value)
			out = append(out, InvalidRequest{Name: "query: " + name + " " + v.what, Query: func(q url.Values) {
				q.Set(name, text)
			}})
		}
	}
	return out
}

// breaksAsText reports whether v, a value that breaks s in JSON, still
// breaks it written as text, as a query or a form sends it: any text is a
// string, and one value is an array of one, or a member of an object.
func breaksAsText(v any, s *openapi3.Schema) bool {
	_, isString := v.(string)
	switch t := spec.TypeOf(s); {
	case !isString && t == "string":
		return false
	case isString && (t == "array" || t == "object"):
		return false
	}
	return true
}

// badValue is a value that breaks a schema, and how.
type badValue struct {
	what  string
	value any
}

// badValues returns values that each break one constraint of s. A value
// of another type breaks only a type the schema declares: one with
// properties and no type, as Kubernetes' are, takes any value.
func badValues(s *openapi3.Schema) []badValue {
	var out []badValue
	t := spec.TypeOf(s)
	switch declaredType(s) {
	case "string":
		out = append(out, badValue{"a number instead of a string", json.Number("42")})
	case "integer", "number":
		out = append(out, badValue{"a string instead of a number", "forty-two"})
	case "boolean":
		out = append(out, badValue{"a string instead of a boolean", "yes"})
	case "object", "array":
		out = append(out, badValue{"a string instead of an " + t, "x"})
	}
	if len(s.Enum) > 0 && t == "string" {
		out = append(out, badValue{"outside its enumeration", "conformance-not-in-enum"})
	}
	if t == "integer" {
		if s.Min != nil {
			out = append(out, badValue{"below its minimum", json.Number(strconv.FormatInt(int64(*s.Min)-1, 10))})
		}
		if s.Max != nil {
			out = append(out, badValue{"above its maximum", json.Number(strconv.FormatInt(int64(*s.Max)+1, 10))})
		}
		if s.Format == "int64" || s.Format == "int32" {
			out = append(out, badValue{"a fraction", json.Number("1.5")})
		}
	}
	if t == "string" && s.MaxLength != nil && *s.MaxLength < 1<<16 && s.Pattern == "" && len(s.Enum) == 0 && s.Format == "" {
		out = append(out, badValue{fmt.Sprintf("longer than %d characters", *s.MaxLength), strings.Repeat("x", int(*s.MaxLength)+1)})
	}
	return out
}

// declaredType returns the type s declares with its type keyword, or its
// allOf members', or "" where it declares none: spec.TypeOf takes a
// schema with properties for an object, but only a declared type refuses
// values of another.
func declaredType(s *openapi3.Schema) string {
	return declared(s, 0)
}

func declared(s *openapi3.Schema, depth int) string {
	if s == nil || depth > 32 {
		return ""
	}
	if s.Type != nil {
		for _, t := range s.Type.Slice() {
			if t != "null" {
				return t
			}
		}
	}
	for _, m := range s.AllOf {
		if m != nil {
			if t := declared(m.Value, depth+1); t != "" {
				return t
			}
		}
	}
	return ""
}
