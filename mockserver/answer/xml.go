package answer

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// An answer in an XML media type is the value of its schema written as
// OpenAPI's XML objects say (https://spec.openapis.org/oas/v3.0.3#xml-object):
// the root element is named by the schema's xml.name, else by the name of
// the schema its reference names, such as Pet; an object's members are
// elements in the document's order, or attributes where xml.attribute
// says so; an array's items repeat the element of their property, or sit
// in one of its name where xml.wrapped says so, each named by the items'
// xml.name; a name may take a prefix and a namespace.

// xmlWriter writes values of a document's schemas as XML.
type xmlWriter struct {
	contract *spec.Contract
	b        bytes.Buffer
}

// maxXMLDepth bounds the nesting of elements written.
const maxXMLDepth = 32

// XMLOf returns the XML document of v, a value of s, whose root element is
// named by s's xml.name, else by refName, the name of the schema s is
// given by, else by about.
func XMLOf(c *spec.Contract, v any, s *openapi3.Schema, refName, about string) []byte {
	w := &xmlWriter{contract: c}
	w.b.WriteString(xml.Header)
	name := refName
	if name == "" {
		name = xmlName(about)
	}
	w.element(name, v, s, 0)
	w.b.WriteByte('\n')
	return w.b.Bytes()
}

// element writes v, a value of s, as an element named name, unless s names
// it otherwise.
func (w *xmlWriter) element(name string, v any, s *openapi3.Schema, depth int) {
	tag, ns := w.tag(name, s)
	if arr, ok := v.([]any); ok {
		// An array that is no property's: its items in an element of its
		// name, each named by the items' xml.name, or as its own.
		w.open(tag, ns, nil)
		items := itemsOf(s)
		for _, e := range arr {
			w.element(itemName(items, name), e, items, depth+1)
		}
		w.close(tag)
		return
	}
	w.value(tag, ns, v, s, depth)
}

// value writes a scalar or an object as the element tag.
func (w *xmlWriter) value(tag, ns string, v any, s *openapi3.Schema, depth int) {
	m, isObject := v.(map[string]any)
	if !isObject || depth >= maxXMLDepth {
		w.open(tag, ns, nil)
		w.text(v)
		w.close(tag)
		return
	}
	props := w.properties(s)
	declared := map[string]bool{}
	var attrs []xml.Attr
	for _, p := range props {
		declared[p.Name] = true
		if e, ok := m[p.Name]; ok && p.Schema.XML != nil && p.Schema.XML.Attribute {
			attrName, _ := w.tag(p.Name, p.Schema)
			attrs = append(attrs, xml.Attr{Name: xml.Name{Local: attrName}, Value: scalarText(e)})
		}
	}
	w.open(tag, ns, attrs)
	for _, p := range props {
		e, ok := m[p.Name]
		if !ok || p.Schema.XML != nil && p.Schema.XML.Attribute {
			continue
		}
		w.member(p.Name, e, p.Schema, depth+1)
	}
	// Members the schema takes without declaring them, by name.
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if !declared[name] && isXMLName(name) {
			w.member(name, m[name], extraSchema(s), depth+1)
		}
	}
	w.close(tag)
}

// member writes the member name of an object, of schema s: an array's
// items each as an element of the member's name, or, wrapped, in one.
func (w *xmlWriter) member(name string, v any, s *openapi3.Schema, depth int) {
	arr, isArray := v.([]any)
	if !isArray {
		tag, ns := w.tag(name, s)
		w.value(tag, ns, v, s, depth)
		return
	}
	items := itemsOf(s)
	if s != nil && s.XML != nil && s.XML.Wrapped {
		tag, ns := w.tag(name, s)
		w.open(tag, ns, nil)
		for _, e := range arr {
			w.element(itemName(items, name), e, items, depth+1)
		}
		w.close(tag)
		return
	}
	// Unwrapped, each item is an element of the member's name, or of
	// the items' xml.name.
	for _, e := range arr {
		w.element(itemName(items, name), e, items, depth+1)
	}
}

// tag returns the element's name, with its prefix, and its namespace, as
// s's xml object gives them.
func (w *xmlWriter) tag(name string, s *openapi3.Schema) (tag, namespace string) {
	if s == nil || s.XML == nil {
		return xmlName(name), ""
	}
	if s.XML.Name != "" {
		name = s.XML.Name
	}
	tag = xmlName(name)
	if s.XML.Prefix != "" {
		tag = s.XML.Prefix + ":" + tag
	}
	if s.XML.Namespace != "" {
		namespace = "xmlns"
		if s.XML.Prefix != "" {
			namespace += ":" + s.XML.Prefix
		}
		namespace += `="` + escapeAttr(s.XML.Namespace) + `"`
	}
	return tag, namespace
}

func (w *xmlWriter) open(tag, ns string, attrs []xml.Attr) {
	w.b.WriteString("<" + tag)
	if ns != "" {
		w.b.WriteString(" " + ns)
	}
	for _, a := range attrs {
		w.b.WriteString(" " + a.Name.Local + `="` + escapeAttr(a.Value) + `"`)
	}
	w.b.WriteByte('>')
}

func (w *xmlWriter) close(tag string) { w.b.WriteString("</" + tag + ">") }

// text writes a scalar as the text of an element; null as nothing.
func (w *xmlWriter) text(v any) {
	if v == nil {
		return
	}
	xml.EscapeText(&w.b, []byte(scalarText(v)))
}

// properties returns the declared members of an object schema, in the
// document's order.
func (w *xmlWriter) properties(s *openapi3.Schema) []spec.Property {
	if s == nil {
		return nil
	}
	if w.contract != nil {
		return w.contract.Properties(s)
	}
	return (&spec.Contract{}).Properties(s)
}

// scalarText writes a value as text: a string as it is, a number in its
// digits, anything else as its JSON.
func scalarText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		return fmt.Sprint(v)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// itemsOf returns the schema of the items of an array schema, or nil.
func itemsOf(s *openapi3.Schema) *openapi3.Schema {
	if s == nil || s.Items == nil {
		return nil
	}
	return s.Items.Value
}

// extraSchema returns the schema of the members an object takes without
// declaring them, or nil.
func extraSchema(s *openapi3.Schema) *openapi3.Schema {
	if s == nil || s.AdditionalProperties.Schema == nil {
		return nil
	}
	return s.AdditionalProperties.Schema.Value
}

// itemName returns the name of the element of an item of an array named
// name: the items' xml.name, or the array's own.
func itemName(items *openapi3.Schema, name string) string {
	if items != nil && items.XML != nil && items.XML.Name != "" {
		return items.XML.Name
	}
	return name
}

// isXMLName reports whether name can name an element as it is.
func isXMLName(name string) bool {
	return name != "" && xmlName(name) == name
}

func escapeAttr(v string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(v))
	return strings.ReplaceAll(b.String(), `"`, "&#34;")
}
