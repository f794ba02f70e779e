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
	"fmt"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
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

// basePath returns the path of the first server, such as "/v1". Every
// operation path is relative to it.
func basePath(doc *openapi3.T) (string, error) {
	base, err := doc.Servers.BasePath()
	if err != nil {
		return "", fmt.Errorf("servers: %w", err)
	}
	if base == "/" {
		return "", nil
	}
	return base, nil
}

// NewRouter returns a router that finds the operation of a request by its
// path below the base path and its method, whatever the scheme and host.
// A request outside the base path or with an unknown path gets
// routers.ErrPathNotFound; a known path with another method gets
// routers.ErrMethodNotAllowed.
func NewRouter(doc *openapi3.T) (routers.Router, error) {
	base, err := basePath(doc)
	if err != nil {
		return nil, err
	}
	hostless := *doc
	hostless.Servers = openapi3.Servers{{URL: base}}
	if base == "" {
		hostless.Servers = nil
	}
	return gorillamux.NewRouter(&hostless)
}
