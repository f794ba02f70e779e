package spec

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A word of the document that must be text, a schema's pattern or format,
// a description, may be written as a number or a boolean: api.video's
// "pattern": 0. kin-openapi refuses the whole document for it, saying
// only which field of which type: "cannot unmarshal number into field
// Schema.pattern of type string". Read leniently, a description, a title,
// a summary or a format so written is read as its text, and a pattern,
// which as text would hold values to what the document never meant, is
// left out, each with a warning that names its place; read strictly, the
// document is refused for the first, by place.

// textKeywords are the fields read as text where a document writes a
// number or a boolean, and whether the value is kept as its text.
var textKeywords = map[string]bool{"description": true, "title": true, "summary": true, "format": true, "pattern": false}

// valueKeywords hold values, not the document's own words: what is
// below them is left as it is.
var valueKeywords = []string{"example", "examples", "default", "enum", "const", "value", "x-examples"}

// scalarSlip is a text field written as another scalar.
type scalarSlip struct {
	where, field, value string
	kept                bool
}

// untextedScalar repairs member i of the mapping n, at path, where it is
// a text field written as a number or a boolean: written as its text, or
// taken out of n where it is not kept. ok says whether it was.
func untextedScalar(n *yaml.Node, i int, path []string) (s scalarSlip, ok bool) {
	key, value := n.Content[i].Value, n.Content[i+1]
	keep, isText := textKeywords[key]
	// A date unquoted is a timestamp to YAML, and text to the JSON the
	// document is read as.
	tag := value.ShortTag()
	if !isText || value.Kind != yaml.ScalarNode || tag == "!!str" || tag == "!!null" || tag == "!!timestamp" {
		return scalarSlip{}, false
	}
	s = scalarSlip{where: strings.Join(append(path, key), "."), field: key, value: value.Value, kept: keep}
	if keep {
		value.Tag, value.Style = "!!str", yaml.DoubleQuotedStyle
	} else {
		n.Content = slices.Delete(n.Content, i, i+2)
	}
	return s, true
}

// String says what the slip is and what is served, for a warning.
func (s scalarSlip) String() string {
	if s.kept {
		return fmt.Sprintf("%s: %s, where a %s is text; read as the text %q", s.where, s.value, s.field, s.value)
	}
	return fmt.Sprintf("%s: %s, where a %s is text; left out", s.where, s.value, s.field)
}
