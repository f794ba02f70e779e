package spec

import (
	"slices"
	"strings"
)

// IsChoice reports whether extensions mark a part of the document as one
// of petmock's gap decisions: x-petmock-choice, or any other x-petmock-
// extension. A choice only widens what the interface allows, so a server
// that fills the gap otherwise still conforms.
func IsChoice(extensions map[string]any) bool {
	for name := range extensions {
		if strings.HasPrefix(name, "x-petmock-") {
			return true
		}
	}
	return false
}

// ChoiceHeaders returns the headers o's responses document that are
// petmock's choices, sorted, by response: a status such as "200", or
// "default". A response with none is left out.
func (o *Operation) ChoiceHeaders() map[string][]string {
	out := map[string][]string{}
	if o.Op.Responses == nil {
		return out
	}
	for code, ref := range o.Op.Responses.Map() {
		if ref == nil || ref.Value == nil {
			continue
		}
		var names []string
		for name, h := range ref.Value.Headers {
			if h != nil && h.Value != nil && IsChoice(h.Value.Extensions) {
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			slices.Sort(names)
			out[code] = names
		}
	}
	return out
}
