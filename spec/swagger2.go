package spec

import (
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
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
	out, err := json.Marshal(doc3)
	if err != nil {
		return nil, fmt.Errorf("the Swagger 2.0 document cannot be converted to OpenAPI 3.0: %w", err)
	}
	return out, nil
}
