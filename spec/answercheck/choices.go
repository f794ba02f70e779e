package answercheck

import (
	"maps"

	"github.com/getkin/kin-openapi/openapi3"
)

// withoutHeaders returns a copy of op whose responses do not document the
// headers named, by response, or, with names nil, any header. The
// responses and their header maps are copied; op and the rest of the
// document are shared, unchanged.
func withoutHeaders(op *openapi3.Operation, names map[string][]string) *openapi3.Operation {
	cp := *op
	if op.Responses == nil {
		cp.Responses = openapi3.NewResponsesWithCapacity(0)
		return &cp
	}
	cp.Responses = openapi3.NewResponsesWithCapacity(op.Responses.Len())
	cp.Responses.Extensions = op.Responses.Extensions
	for code, ref := range op.Responses.Map() {
		drop := names[code]
		if ref == nil || ref.Value == nil || len(ref.Value.Headers) == 0 || names != nil && len(drop) == 0 {
			cp.Responses.Set(code, ref)
			continue
		}
		resp := *ref.Value
		if names == nil {
			resp.Headers = nil
		} else {
			resp.Headers = maps.Clone(resp.Headers)
			for _, name := range drop {
				delete(resp.Headers, name)
			}
		}
		cp.Responses.Set(code, &openapi3.ResponseRef{Value: &resp})
	}
	return &cp
}
