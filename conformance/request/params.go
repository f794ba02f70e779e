package request

import (
	"net/url"
	"strings"

	"github.com/petstore/contract/spec"
)

// A parameter's value goes on the wire as its style and explode say,
// written by spec.AddQuery and spec.ParamText; a path holds the values of
// its parameters escaped, but for the delimiters of their styles.

// expandPath fills the parameters of t with values, each escaped for a
// path segment but for the commas and semicolons that the simple, label
// and matrix styles put between items (spec.ParamText): those delimit, and a
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
