package admin

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"

	"go.yaml.in/yaml/v3"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// document is the admin API's OpenAPI document, as written and served.
//
//go:embed openapi.yaml
var document []byte

// Document returns the admin API's OpenAPI document, as written and as GET
// /__petmock/openapi.yaml serves it.
func Document() []byte { return bytes.Clone(document) }

// concrete returns the admin API's document made concrete for the
// resources of served: each path of {resource} becomes one path for each
// resource, named after it, such as /pets and /catalogue/pets. Routed so,
// /__petmock/reset is the reset's whatever the method, and answers GET with
// 405, rather than a resource named reset; a name that is no resource is
// no path, 404; and OPTIONS lists what each path takes. A resource named
// like another path of the document is not reachable here.
func concrete(served *spec.Contract) (*spec.Contract, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(document, &root); err != nil {
		return nil, err
	}
	if err := takeDocumentKey(root.Content[0], served); err != nil {
		return nil, err
	}
	data, err := yaml.Marshal(&root)
	if err != nil {
		return nil, err
	}
	c, err := spec.Read(data)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(served.Resources))
	for i, r := range served.Resources {
		names[i] = r.Name
	}
	return c.Instances("resource", names)
}

// documentScheme is the name, in the admin API's document made concrete,
// of the security scheme of the served document's key.
const documentScheme = "documentKey"

// takeDocumentKey makes the admin API's document take the key as the
// served document's first scheme asks for it, such as in an X-API-Key
// header or as HTTP basic credentials, besides a bearer token, so that a
// client of that API presents it to the admin API as it does to the API.
// A bearer scheme, and a scheme petmock does not check, add nothing.
func takeDocumentKey(root *yaml.Node, served *spec.Contract) error {
	s := served.FirstScheme()
	if s == nil || s.Bearer() || s.Unsupported != "" {
		return nil
	}
	// The scheme as the served document defines it, apiKey or http basic,
	// without what is its own, such as its description and extensions.
	def := openapi3.SecurityScheme{Type: s.Def.Type, In: s.Def.In, Name: s.Def.Name, Scheme: s.Def.Scheme,
		Description: "A key the API accepts, as the document it serves asks for it."}
	text, err := json.Marshal(&def)
	if err != nil {
		return err
	}
	var scheme, alternative yaml.Node
	if err := yaml.Unmarshal(text, &scheme); err != nil {
		return err
	}
	if err := yaml.Unmarshal([]byte("{"+documentScheme+": []}"), &alternative); err != nil {
		return err
	}
	schemes := member(member(root, "components"), "securitySchemes")
	security := member(root, "security")
	if schemes == nil || security == nil {
		return fmt.Errorf("no security schemes")
	}
	schemes.Content = append(schemes.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: documentScheme}, scheme.Content[0])
	// The document's form comes first, so that a refusal says what is
	// wrong with it, the one its clients send.
	security.Content = append([]*yaml.Node{alternative.Content[0]}, security.Content...)
	return nil
}

// isFixture reports whether the body of an operation is a fixture, which
// the edge leaves unread: a fixture may be hundreds of megabytes, read as
// it comes (see upload).
func isFixture(op *spec.Operation) bool {
	rb := op.Op.RequestBody
	return rb != nil && rb.Ref == "#/components/requestBodies/Fixture"
}

// member returns the value of the member name of a YAML mapping, or nil.
func member(m *yaml.Node, name string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			return m.Content[i+1]
		}
	}
	return nil
}

// document answers GET /__petmock/openapi.yaml with the document as
// written, {resource} and all: a generator of clients gets an admin API
// for any document petmock serves.
func (h *handler) document(w http.ResponseWriter, r *http.Request, _ *mockserver.Call) error {
	w.Header().Set("Content-Type", "application/yaml")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(document)
	}
	return nil
}
