package spec

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// A parameter's value goes on the wire as its style and explode say
// (OpenAPI 3, 4.8.12.4): a query array is sent as status=a&status=b by
// default, not as the JSON text ["a","b"], which a server reads as one
// value that is no member of the array's enumeration. The suite writes
// the values it makes that way, and petmock reads what it is sent so, by
// the functions of this file, which are each other's inverse.
//
// A value written is a JSON value as decoded: a scalar, a []any of
// scalars for an array, a map[string]any of scalars for an object. A value
// read is text, as the wire carries it: a string, a []any of strings, a
// map[string]any of strings, by the type of the parameter's schema; its
// schema then says what the text means.

// Style is how a parameter's value is written: a style of OpenAPI, such
// as openapi3.SerializationForm, and whether it is exploded.
type Style struct {
	Name    string // such as openapi3.SerializationForm
	Explode bool
}

// StyleOf returns the style of p, with the defaults of its place where
// the document gives none: simple for a path or a header; form for a
// query or a cookie, exploded but for spaceDelimited and pipeDelimited.
//
// It says what kin-openapi's Parameter.SerializationMethod says, without
// the value that method allocates, as every request with a query asks it.
func StyleOf(p *openapi3.Parameter) Style {
	st := Style{Name: p.Style}
	switch p.In {
	case openapi3.ParameterInQuery, openapi3.ParameterInCookie:
		if st.Name == "" {
			st.Name = openapi3.SerializationForm
		}
		// Not exploded by default: spaceDelimited and pipeDelimited.
		st.Explode = st.Name != openapi3.SerializationSpaceDelimited && st.Name != openapi3.SerializationPipeDelimited
	case openapi3.ParameterInPath, openapi3.ParameterInHeader:
		if st.Name == "" {
			st.Name = openapi3.SerializationSimple
		}
	default:
		return Style{Name: openapi3.SerializationSimple}
	}
	if p.Explode != nil {
		st.Explode = *p.Explode
	}
	return st
}

// TextValue reads the text of a scalar, as a header or a parameter carries
// it, as the value s describes: a json.Number for a number, a boolean, or
// the text itself, which is also what a text s does not take is read as,
// for the schema to refuse.
func TextValue(s *openapi3.Schema, text string) any {
	switch TypeOf(s) {
	case "integer", "number":
		if _, err := strconv.ParseFloat(text, 64); err == nil {
			return json.Number(text)
		}
	case "boolean":
		if b, err := strconv.ParseBool(text); err == nil {
			return b
		}
	}
	return text
}

// ValueText returns the one text of a scalar value, as a parameter or an
// id carries it: the digits of an integer however it is written, so that
// 1e2, 100 and 100.0 are "100"; a string as it is; "" for null; and JSON
// for anything else, such as true or 1.5.
func ValueText(v any) string {
	switch v := v.(type) {
	case json.Number:
		if n, ok := ExactInt64(string(v)); ok {
			return strconv.FormatInt(n, 10)
		}
		return string(v)
	case string:
		return v
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// AddQuery adds v, a value of the query parameter p, to q as p's style
// asks. form, the default, exploded, the default of form: each item of an
// array is a value of its own, and each member of an object a parameter
// of its own; not exploded, the items, or the names and values of the
// members, are joined by commas. spaceDelimited and pipeDelimited join the
// items of an array by spaces or pipes. deepObject sends each member of
// an object as p[member]. A scalar is its text in any style. An empty
// array exploded adds nothing.
func AddQuery(q url.Values, p *openapi3.Parameter, v any) {
	if text, ok := contentText(p, v); ok {
		q.Add(p.Name, text)
		return
	}
	st := StyleOf(p)
	switch v := v.(type) {
	case []any:
		items := texts(v)
		switch {
		case st.Name == openapi3.SerializationSpaceDelimited && !st.Explode:
			q.Add(p.Name, strings.Join(items, " "))
		case st.Name == openapi3.SerializationPipeDelimited && !st.Explode:
			q.Add(p.Name, strings.Join(items, "|"))
		case st.Explode:
			for _, it := range items {
				q.Add(p.Name, it)
			}
		default:
			q.Add(p.Name, strings.Join(items, ","))
		}
	case map[string]any:
		switch {
		case st.Name == openapi3.SerializationDeepObject:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				q.Add(p.Name+"["+k+"]", ValueText(v[k]))
			}
		case st.Explode:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				q.Add(k, ValueText(v[k]))
			}
		default:
			q.Add(p.Name, strings.Join(pairs(v, ","), ","))
		}
	default:
		q.Add(p.Name, ValueText(v))
	}
}

// QueryValue reads the value of the query parameter p from q, as
// AddQuery writes it, and reports whether q holds one. A scalar, or a list
// that is not exploded, given more than once is an error, and so is an
// object written as names and values whose count is odd. The members of
// an object exploded are the properties of its schema that q holds.
func QueryValue(q url.Values, p *openapi3.Parameter) (v any, ok bool, err error) {
	st := StyleOf(p)
	switch kindOf(p) {
	case openapi3.TypeArray:
		var sep string
		switch {
		case st.Name == openapi3.SerializationSpaceDelimited && !st.Explode:
			sep = " "
		case st.Name == openapi3.SerializationPipeDelimited && !st.Explode:
			sep = "|"
		case st.Explode:
			values := q[p.Name]
			if len(values) == 0 {
				return nil, false, nil
			}
			return anys(values), true, nil
		default:
			sep = ","
		}
		text, ok, err := once(q, p.Name)
		if !ok || err != nil {
			return nil, ok, err
		}
		return split(text, sep), true, nil
	case openapi3.TypeObject:
		switch {
		case st.Name == openapi3.SerializationDeepObject:
			members := map[string]any{}
			for _, key := range slices.Sorted(maps.Keys(q)) {
				inner, ok := strings.CutPrefix(key, p.Name+"[")
				if !ok {
					continue
				}
				name, ok := strings.CutSuffix(inner, "]")
				if !ok {
					continue
				}
				text, _, err := once(q, key)
				if err != nil {
					return nil, true, err
				}
				members[name] = text
			}
			return members, len(members) > 0, nil
		case st.Explode:
			members := map[string]any{}
			for _, name := range propertyNames(p) {
				text, found, err := once(q, name)
				if err != nil {
					return nil, true, err
				}
				if found {
					members[name] = text
				}
			}
			return members, len(members) > 0, nil
		}
		text, ok, err := once(q, p.Name)
		if !ok || err != nil {
			return nil, ok, err
		}
		members, err := unpair(p, text, ",", false)
		return members, true, err
	}
	text, ok, err := once(q, p.Name)
	if !ok || err != nil {
		return nil, ok, err
	}
	return text, true, nil
}

// ParamText writes v, a value of the path or header parameter p, as p's
// style asks, before any escaping: simple, the default, joins the items of
// an array by commas, and the members of an object as name,value pairs,
// or name=value exploded; label puts a dot before each item, or before
// the list; matrix writes ;name=value, once per item exploded.
func ParamText(p *openapi3.Parameter, v any) string {
	if text, ok := contentText(p, v); ok {
		return text
	}
	st := StyleOf(p)
	var items []string
	switch v := v.(type) {
	case []any:
		items = texts(v)
	case map[string]any:
		if st.Explode {
			items = pairs(v, "=")
		} else {
			items = pairs(v, ",")
		}
	default:
		items = []string{ValueText(v)}
	}
	switch st.Name {
	case openapi3.SerializationLabel:
		if st.Explode {
			return "." + strings.Join(items, ".")
		}
		return "." + strings.Join(items, ",")
	case openapi3.SerializationMatrix:
		if _, isObject := v.(map[string]any); isObject && st.Explode {
			return ";" + strings.Join(items, ";")
		}
		if st.Explode {
			return ";" + p.Name + "=" + strings.Join(items, ";"+p.Name+"=")
		}
		return ";" + p.Name + "=" + strings.Join(items, ",")
	}
	return strings.Join(items, ",")
}

// ParamValue reads text, the value of the path or header parameter p as
// the request carries it, unescaped, as ParamText writes it. A label
// without its dot, a matrix value without its ;name=, and an object whose
// names and values do not pair up are errors. An empty list of items is
// read as an empty array or object.
func ParamValue(p *openapi3.Parameter, text string) (any, error) {
	st := StyleOf(p)
	kind := kindOf(p)
	sep := ","
	switch st.Name {
	case openapi3.SerializationLabel:
		rest, ok := strings.CutPrefix(text, ".")
		if !ok {
			return nil, fmt.Errorf("%s: %q does not begin with a dot, as the label style writes it", p.Name, text)
		}
		if st.Explode {
			sep = "."
		}
		text = rest
	case openapi3.SerializationMatrix:
		if kind == openapi3.TypeObject && st.Explode {
			rest, ok := strings.CutPrefix(text, ";")
			if !ok {
				return nil, fmt.Errorf("%s: %q does not begin with ;, as the matrix style writes it", p.Name, text)
			}
			return unpair(p, rest, ";", true)
		}
		prefix := ";" + p.Name + "="
		rest, ok := strings.CutPrefix(text, prefix)
		if !ok {
			return nil, fmt.Errorf("%s: %q does not begin with %s, as the matrix style writes it", p.Name, text, prefix)
		}
		if st.Explode {
			sep = prefix
		}
		text = rest
	}
	switch kind {
	case openapi3.TypeArray:
		return split(text, sep), nil
	case openapi3.TypeObject:
		return unpair(p, text, sep, st.Explode)
	}
	return text, nil
}

// kindOf returns the type of p's schema where it is an array or an
// object, and "" for a scalar.
func kindOf(p *openapi3.Parameter) string {
	if p.Schema == nil || p.Schema.Value == nil {
		return ""
	}
	switch t := TypeOf(p.Schema.Value); t {
	case openapi3.TypeArray, openapi3.TypeObject:
		return t
	}
	return ""
}

// propertyNames returns the names of the properties of p's schema, in
// order.
func propertyNames(p *openapi3.Parameter) []string {
	if p.Schema == nil || p.Schema.Value == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(p.Schema.Value.Properties))
}

// once returns the one value of key in q, and whether there is one; more
// than one is an error.
func once(q url.Values, key string) (string, bool, error) {
	switch values := q[key]; len(values) {
	case 0:
		return "", false, nil
	case 1:
		return values[0], true, nil
	default:
		return "", true, fmt.Errorf("%s: given %d times, want once", key, len(values))
	}
}

// split returns the items of text joined by sep: none for "".
func split(text, sep string) []any {
	if text == "" {
		return []any{}
	}
	return anys(strings.Split(text, sep))
}

// unpair returns the members of an object written as items joined by
// sep: name=value each where named, and otherwise names and values
// alternating. A member written twice takes its last value.
func unpair(p *openapi3.Parameter, text, sep string, named bool) (map[string]any, error) {
	members := map[string]any{}
	if text == "" {
		return members, nil
	}
	items := strings.Split(text, sep)
	if named {
		for _, it := range items {
			name, value, ok := strings.Cut(it, "=")
			if !ok {
				return nil, fmt.Errorf("%s: member %q is not name=value", p.Name, it)
			}
			members[name] = value
		}
		return members, nil
	}
	if len(items)%2 != 0 {
		return nil, fmt.Errorf("%s: %q does not pair names with values: %d items", p.Name, text, len(items))
	}
	for i := 0; i < len(items); i += 2 {
		members[items[i]] = items[i+1]
	}
	return members, nil
}

// anys returns texts as values.
func anys(texts []string) []any {
	out := make([]any, len(texts))
	for i, t := range texts {
		out[i] = t
	}
	return out
}

// texts returns the text of each item of an array.
func texts(items []any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = ValueText(it)
	}
	return out
}

// pairs returns the members of an object as name, sep and value each,
// in order of name; with sep "," they join into one list of names and
// values.
func pairs(v map[string]any, sep string) []string {
	out := make([]string, 0, len(v))
	for _, k := range slices.Sorted(maps.Keys(v)) {
		out = append(out, k+sep+ValueText(v[k]))
	}
	return out
}

// contentText returns v written as the JSON a parameter of a JSON
// content, rather than a schema, is sent as: Stream's campaign id of
// content application/json, a string, is "42", quoted. ok is false for a
// parameter of a schema, or of another media type.
func contentText(p *openapi3.Parameter, v any) (string, bool) {
	if !SentAsJSON(p) {
		return "", false
	}
	b, err := json.Marshal(v)
	return string(b), err == nil
}

// SentAsJSON reports whether the value of p is written as JSON: p has no
// schema, and content of a JSON media type. A value of other content, as
// Telnyx's report id of */*, is its text.
func SentAsJSON(p *openapi3.Parameter) bool {
	if p.Schema != nil {
		return false
	}
	for mt := range p.Content {
		if IsJSON(mt) {
			return true
		}
	}
	return false
}
