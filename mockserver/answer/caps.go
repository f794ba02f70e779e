package answer

import (
	"maps"
	"slices"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// CapWarnings says where the response schemas of the document ask for
// more than petmock makes, a string of a billion characters say, once for
// each schema: its answers and its catalogue are made within fake's caps,
// and may then not match the document, which validation still holds to.
func CapWarnings(c *spec.Contract) []string {
	var caps fake.Caps
	for _, op := range c.Operations {
		if op.Op.Responses == nil {
			continue
		}
		responses := op.Op.Responses.Map()
		for _, code := range slices.Sorted(maps.Keys(responses)) {
			r := responses[code]
			if r == nil || r.Value == nil {
				continue
			}
			for _, mt := range slices.Sorted(maps.Keys(r.Value.Content)) {
				if media := r.Value.Content[mt]; media != nil {
					caps.Add(op.Where+".responses."+code+".content."+mt+".schema", media.Schema)
				}
			}
		}
	}
	return caps.Notes
}
