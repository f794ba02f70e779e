package spec

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// fromSwagger2 converts a Swagger 2.0 document, parsed, to OpenAPI 3.0
// with kin-openapi's openapi2conv, and returns it as JSON. Its host and
// basePath become its server, its definitions components, and its body
// and form parameters request bodies.
func fromSwagger2(root *yaml.Node) ([]byte, error) {
	if v := member(root, "swagger"); v.Value != "2.0" {
		return nil, fmt.Errorf("swagger: %q; petmock converts Swagger 2.0 documents, and reads OpenAPI 3 ones", v.Value)
	}
	refuseEmptyValues(root)
	src, err := nodeJSON(nil, root)
	if err != nil {
		return nil, fmt.Errorf("swagger: %w", err)
	}
	var doc2 openapi2.T
	if err := json.Unmarshal(src, &doc2); err != nil {
		return nil, fmt.Errorf("the Swagger 2.0 document does not load: %s", firstLine(err.Error()))
	}
	doc3, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("the Swagger 2.0 document cannot be converted to OpenAPI 3.0: %s", firstLine(err.Error()))
	}
	wildcardExamples(doc3)
	out, err := json.Marshal(doc3)
	if err != nil {
		return nil, fmt.Errorf("the Swagger 2.0 document cannot be converted to OpenAPI 3.0: %w", err)
	}
	return out, nil
}

// refuseEmptyValues gives each query or form parameter of root that says
// allowEmptyValue: false, a string, a minLength of 1, as Prism reads it:
// openapi2conv drops the field, and openapi3filter would take the empty
// value (?name=) the document refuses.
func refuseEmptyValues(root *yaml.Node) {
	each := func(params *yaml.Node) {
		if params == nil {
			return
		}
		for _, p := range params.Content {
			if p.Kind != yaml.MappingNode {
				continue
			}
			in, allow, typ := member(p, "in"), member(p, "allowEmptyValue"), member(p, "type")
			if in == nil || in.Value != "query" && in.Value != "formData" || allow == nil || allow.Value != "false" ||
				typ == nil || typ.Value != "string" || member(p, "minLength") != nil {
				continue
			}
			p.Content = append(p.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "minLength"},
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"})
		}
	}
	// The document's shared parameters are a map of them.
	if shared := member(root, "parameters"); shared != nil && shared.Kind == yaml.MappingNode {
		for i := 1; i < len(shared.Content); i += 2 {
			each(&yaml.Node{Kind: yaml.SequenceNode, Content: shared.Content[i : i+1]})
		}
	}
	paths := member(root, "paths")
	if paths == nil || paths.Kind != yaml.MappingNode {
		return
	}
	for i := 1; i < len(paths.Content); i += 2 {
		item := paths.Content[i]
		if item.Kind != yaml.MappingNode {
			continue
		}
		for j := 1; j < len(item.Content); j += 2 {
			if item.Content[j-1].Value == "parameters" {
				each(item.Content[j])
			} else {
				each(member(item.Content[j], "parameters"))
			}
		}
	}
}

// wildcardExamples gives the example of a response's examples under a
// media range, such as */*, to each media type it covers that the
// operation produces and has none of its own, and drops the range:
// openapi2conv made the range a media type of its own, without a schema,
// and a text/plain operation's example was answered as JSON.
func wildcardExamples(doc *openapi3.T) {
	each := func(r *openapi3.ResponseRef) {
		if r == nil || r.Value == nil {
			return
		}
		content := r.Value.Content
		for name, mt := range content {
			if mt == nil || mt.Schema != nil || mt.Example == nil || !strings.HasSuffix(name, "/*") {
				continue
			}
			covered := false
			for other, o := range content {
				if o == nil || o.Schema == nil || !coveredBy(other, name) {
					continue
				}
				covered = true
				if o.Example == nil && len(o.Examples) == 0 {
					o.Example = mt.Example
				}
			}
			if covered {
				delete(content, name)
			}
		}
	}
	if doc.Components != nil {
		for _, r := range doc.Components.Responses {
			each(r)
		}
	}
	if doc.Paths == nil {
		return
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.Responses == nil {
				continue
			}
			for _, r := range op.Responses.Map() {
				each(r)
			}
		}
	}
}

// coveredBy reports whether the media type name is in the media range
// rng, as text/plain is in */* and text/*.
func coveredBy(name, rng string) bool {
	if rng == "*/*" {
		return true
	}
	return strings.HasPrefix(strings.ToLower(name), strings.ToLower(strings.TrimSuffix(rng, "*")))
}
