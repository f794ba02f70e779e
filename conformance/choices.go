package conformance

import (
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// isChoice reports whether extensions mark a part of the document as one
// of petmock's gap decisions: x-petmock-choice, or any other x-petmock-
// extension.
func isChoice(extensions map[string]any) bool {
	for name := range extensions {
		if strings.HasPrefix(name, "x-petmock-") {
			return true
		}
	}
	return false
}

// withoutChoiceHeaders returns a copy of doc in which no response
// documents a header that is one of petmock's choices, such as the pattern
// of Deprecation. By default answers are validated against it: the
// interface names none of these headers, so a server that fills the gap
// otherwise is judged by the rules of the interface (the deprecation.*
// checks) and not by petmock's schema. doc itself is not changed.
func withoutChoiceHeaders(doc *openapi3.T) (*openapi3.T, error) {
	data, err := doc.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("copying the document: %w", err)
	}
	loader := openapi3.NewLoader()
	cp, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("copying the document: %w", err)
	}
	for _, item := range cp.Paths.Map() {
		for _, op := range item.Operations() {
			for _, resp := range op.Responses.Map() {
				if resp.Value == nil {
					continue
				}
				for name, header := range resp.Value.Headers {
					if header.Value != nil && isChoice(header.Value.Extensions) {
						delete(resp.Value.Headers, name)
					}
				}
			}
		}
	}
	return cp, nil
}
