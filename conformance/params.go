package conformance

import (
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// A parameter's value goes on the wire as its style and explode say
// (OpenAPI 3, 4.8.12.4): a query array is sent as status=a&status=b by
// default, not as the JSON text ["a","b"], which a server reads as one
// value that is no member of the array's enumeration. This file writes
// values made from the document that way.

// addQuery adds v, a value of the query parameter p, to q as p's style
// and explode ask. form, the default, exploded, the default of form: each
// item of an array is a value of its own, and each member of an object a
// parameter of its own; not exploded, the items, or the names and values
// of the members, are joined by commas. spaceDelimited and pipeDelimited
// join the items of an array by spaces or pipes. deepObject sends each
// member of an object as p[member]. A scalar is its text in any style.
func addQuery(q url.Values, p *openapi3.Parameter, v any) {
	style, explode := serialization(p)
	switch v := v.(type) {
	case []any:
		items := texts(v)
		switch {
		case style == openapi3.SerializationSpaceDelimited && !explode:
			q.Add(p.Name, strings.Join(items, " "))
		case style == openapi3.SerializationPipeDelimited && !explode:
			q.Add(p.Name, strings.Join(items, "|"))
		case explode:
			for _, it := range items {
				q.Add(p.Name, it)
			}
		default:
			q.Add(p.Name, strings.Join(items, ","))
		}
	case map[string]any:
		switch {
		case style == openapi3.SerializationDeepObject:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				q.Add(p.Name+"["+k+"]", valueText(v[k]))
			}
		case explode:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				q.Add(k, valueText(v[k]))
			}
		default:
			q.Add(p.Name, strings.Join(pairs(v, ","), ","))
		}
	default:
		q.Add(p.Name, valueText(v))
	}
}

// paramText writes v, a value of the path or header parameter p, as p's
// style and explode ask, before any escaping: simple, the default, joins
// the items of an array by commas, and the members of an object as
// name,value pairs, or name=value exploded; label puts a dot before each
// item, or before the list; matrix writes ;name=value, once per item
// exploded.
func paramText(p *openapi3.Parameter, v any) string {
	style, explode := serialization(p)
	var items []string
	switch v := v.(type) {
	case []any:
		items = texts(v)
	case map[string]any:
		if explode {
			items = pairs(v, "=")
		} else {
			items = pairs(v, ",")
		}
	default:
		items = []string{valueText(v)}
	}
	switch style {
	case openapi3.SerializationLabel:
		if explode {
			return "." + strings.Join(items, ".")
		}
		return "." + strings.Join(items, ",")
	case openapi3.SerializationMatrix:
		if _, isObject := v.(map[string]any); isObject && explode {
			return ";" + strings.Join(items, ";")
		}
		if explode {
			return ";" + p.Name + "=" + strings.Join(items, ";"+p.Name+"=")
		}
		return ";" + p.Name + "=" + strings.Join(items, ",")
	}
	return strings.Join(items, ",")
}

// expandPath fills the parameters of t with values, each escaped for a
// path segment but for the commas and semicolons that the simple, label
// and matrix styles put between items (paramText): those delimit, and a
// server splits on them unescaped.
func expandPath(t *spec.PathTemplate, values map[string]string) string {
	escaped := make(map[string]string, len(values))
	for name, v := range values {
		escaped[name] = styleDelimiters.Replace(url.PathEscape(v))
	}
	return t.ExpandRaw(escaped)
}

// styleDelimiters restores the delimiters of the path styles that
// url.PathEscape escapes.
var styleDelimiters = strings.NewReplacer("%2C", ",", "%3B", ";")

// serialization returns the style and explode of p, with the defaults
// of its place where the document gives none.
func serialization(p *openapi3.Parameter) (string, bool) {
	m, err := p.SerializationMethod()
	if err != nil {
		return openapi3.SerializationSimple, false
	}
	return m.Style, m.Explode
}

// texts returns the text of each item of an array.
func texts(items []any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = valueText(it)
	}
	return out
}

// pairs returns the members of an object as name, sep and value each,
// in order of name; with sep "," they join into one list of names and
// values.
func pairs(v map[string]any, sep string) []string {
	out := make([]string, 0, len(v))
	for _, k := range slices.Sorted(maps.Keys(v)) {
		out = append(out, k+sep+valueText(v[k]))
	}
	return out
}
