// Package spec holds the Petstore contract as one OpenAPI 3.0.3 document and
// reads what its readers need from it, or from any other version of it: the
// loaded and validated document, a router that matches on the base path
// whatever the host, and a Contract: the operations, their path templates
// and security schemes, the resources they form, the pages of a list, the
// deprecations, the error codes, and what petmock answers an operation of
// no resource with.
//
// Nothing else in the repository restates the contract: the mock server and
// the conformance suite both read it from here, once.
package spec

import (
	"context"
	_ "embed"

	"github.com/getkin/kin-openapi/openapi3"
)

//go:embed openapi.yaml
var document []byte

// YAML returns the embedded document as written.
func YAML() []byte {
	out := make([]byte, len(document))
	copy(out, document)
	return out
}

// Parse parses and validates an OpenAPI document given as YAML or JSON,
// strictly, as ReadOptions{Strict: true} reads it.
func Parse(data []byte) (*openapi3.T, error) {
	l, err := ReadOptions{Strict: true}.load(context.Background(), data)
	if err != nil {
		return nil, err
	}
	return l.doc, nil
}
