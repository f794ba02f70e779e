package spec

import (
	"maps"
	"mime"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// JSONContentType is the Content-Type of a JSON body sent where the
// document names a wildcard, such as */*.
const JSONContentType = "application/json"

// IsJSON reports whether a media type, as a document or a Content-Type
// header writes it, is JSON: application/json, or a type whose subtype ends
// in +json, such as application/problem+json, with any parameters, such as
// application/json;charset=UTF-8.
func IsJSON(mediaType string) bool {
	mt := mediaTypeOf(mediaType)
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// mediaTypeOf returns the type and subtype of a media type, lowercase,
// without its parameters.
func mediaTypeOf(name string) string {
	if mt, _, err := mime.ParseMediaType(name); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(name, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// isWildcard reports whether a media type of a document is */* or
// application/*, which take a JSON body too.
func isWildcard(name string) bool {
	mt := mediaTypeOf(name)
	return mt == "*/*" || mt == "application/*"
}

// JSONMedia returns the media type of content that a JSON body is sent
// in, and the Content-Type to send it with, as jsonMedia does.
func JSONMedia(content openapi3.Content) (string, *openapi3.MediaType) {
	return jsonMedia(content)
}

// jsonMedia returns the media type of content that a JSON body is sent
// in, and the Content-Type to send it with: application/json; else
// another JSON type, such as application/problem+json or
// application/json;charset=UTF-8, the first by name, sent as the document
// writes it; else */* or application/*, sent as application/json. It
// returns nil when content has none of them.
func jsonMedia(content openapi3.Content) (string, *openapi3.MediaType) {
	if mt := content["application/json"]; mt != nil {
		return "application/json", mt
	}
	names := slices.Sorted(maps.Keys(content))
	for _, name := range names {
		if IsJSON(name) && content[name] != nil {
			return name, content[name]
		}
	}
	for _, name := range names {
		if isWildcard(name) && content[name] != nil {
			return JSONContentType, content[name]
		}
	}
	return "", nil
}

// answerMedia returns the media type an answer of content is sent in, of
// those petmock can send a body of that the document describes: JSON
// first (see jsonMedia), then text of a string or of no schema, then any
// other type, as bytes, and last text of another schema. Among types of
// one rank, the first by name.
func answerMedia(content openapi3.Content) (string, *openapi3.MediaType, AnswerKind) {
	if name, mt := jsonMedia(content); mt != nil {
		return name, mt, AnswerJSON
	}
	rank := func(name string) int {
		if !strings.HasPrefix(mediaTypeOf(name), "text/") {
			return 1
		}
		if mt := content[name]; mt.Schema == nil || mt.Schema.Value == nil || schemaType(mt.Schema.Value) == "string" {
			return 0
		}
		return 2
	}
	var best string
	for _, name := range slices.Sorted(maps.Keys(content)) {
		if content[name] != nil && (best == "" || rank(name) < rank(best)) {
			best = name
		}
	}
	if best == "" {
		return "", nil, AnswerEmpty
	}
	if rank(best) == 1 {
		return best, content[best], AnswerBytes
	}
	return best, content[best], AnswerText
}

// mediaExamples returns the values a media type gives as examples: its
// example, then its named examples, in the order of their names. An
// example given only by its externalValue is left out.
func mediaExamples(mt *openapi3.MediaType) []any {
	var out []any
	if mt.Example != nil {
		out = append(out, mt.Example)
	}
	for _, name := range slices.Sorted(maps.Keys(mt.Examples)) {
		if ref := mt.Examples[name]; ref != nil && ref.Value != nil && ref.Value.Value != nil {
			out = append(out, ref.Value.Value)
		}
	}
	return out
}

// AnswerMediaKey returns the name, as content writes it, of the media type
// petmock answers content in where a request leaves it the choice (see
// answerMedia), such as */* where it answers application/json for it; ""
// for none.
func AnswerMediaKey(content openapi3.Content) string {
	_, mt, _ := answerMedia(content)
	if mt == nil {
		return ""
	}
	for _, name := range slices.Sorted(maps.Keys(content)) {
		if content[name] == mt {
			return name
		}
	}
	return ""
}

// MediaOf returns the Content-Type and the kind of an answer in the media
// type a document's content calls name: JSON for a JSON type, sent as the
// document writes it, or for a wildcard, sent as application/json; text
// for a text type; bytes of the type for any other.
func MediaOf(name string) (string, AnswerKind) {
	switch {
	case IsJSON(name):
		return name, AnswerJSON
	case isWildcard(name) || mediaTypeOf(name) == "*/*":
		return JSONContentType, AnswerJSON
	case strings.HasPrefix(mediaTypeOf(name), "text/"):
		return name, AnswerText
	}
	return name, AnswerBytes
}

// IsXML reports whether a media type is XML: application/xml, text/xml,
// or a type whose subtype ends in +xml, with any parameters.
func IsXML(mediaType string) bool {
	mt := mediaTypeOf(mediaType)
	return mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml")
}
