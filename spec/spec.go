// Package spec holds the Petstore contract as one OpenAPI 3.0.3 document and
// offers what its readers need from it: the loaded and validated document, a
// router that matches on the base path whatever the host, and the deprecation
// facts of deprecated operations.
//
// Nothing else in the repository restates the contract: the mock server and
// the conformance suite both read it from here.
package spec

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Operation ids of the contract.
const (
	ListPets  = "listPets"
	CreatePet = "createPet"
	GetPet    = "getPet"
)

//go:embed openapi.yaml
var document []byte

// YAML returns the embedded document as written.
func YAML() []byte {
	out := make([]byte, len(document))
	copy(out, document)
	return out
}

// Load parses and validates the embedded document. Each call returns a new
// *openapi3.T, so callers may change theirs without affecting anyone else.
func Load() (*openapi3.T, error) {
	return Parse(document)
}

// LoadFile parses and validates the document at path, for judging a
// deployment against another version of the contract.
func LoadFile(path string) (*openapi3.T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}

// Parse parses and validates an OpenAPI document given as YAML or JSON.
func Parse(data []byte) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("load openapi document: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("validate openapi document: %w", err)
	}
	return doc, nil
}

// BasePath returns the path of the first server, such as "/v1". Every
// operation path is relative to it.
func BasePath(doc *openapi3.T) (string, error) {
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
	base, err := BasePath(doc)
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

// Deprecation describes how a deprecated operation is retired.
type Deprecation struct {
	// Since is when the operation was deprecated (the RFC 9745 date).
	// The interface does not give it; it is this mock's choice, from
	// x-petmock-deprecated-at.
	Since time.Time
	// Sunset is when the operation is removed (the RFC 8594 date), from
	// x-sunset.
	Sunset time.Time
	// ReplacedBy is the operation id of the replacement, from x-replaced-by.
	ReplacedBy string
}

// ErrNotDeprecated is returned by OperationDeprecation for an operation
// that is not marked deprecated.
var ErrNotDeprecated = errors.New("operation is not deprecated")

// OperationDeprecation returns the deprecation facts of the operation with
// the given id.
func OperationDeprecation(doc *openapi3.T, operationID string) (Deprecation, error) {
	op := Operation(doc, operationID)
	if op == nil {
		return Deprecation{}, fmt.Errorf("%s: no such operation", operationID)
	}
	if !op.Deprecated {
		return Deprecation{}, fmt.Errorf("%s: %w", operationID, ErrNotDeprecated)
	}
	var d Deprecation
	var err error
	if d.Sunset, err = timeExtension(op.Extensions, "x-sunset"); err != nil {
		return Deprecation{}, fmt.Errorf("%s: %w", operationID, err)
	}
	if d.Since, err = timeExtension(op.Extensions, "x-petmock-deprecated-at"); err != nil {
		return Deprecation{}, fmt.Errorf("%s: %w", operationID, err)
	}
	if d.Since.After(d.Sunset) {
		return Deprecation{}, fmt.Errorf("%s: deprecated at %s, after its sunset %s", operationID, d.Since, d.Sunset)
	}
	d.ReplacedBy, _ = op.Extensions["x-replaced-by"].(string)
	if Operation(doc, d.ReplacedBy) == nil {
		return Deprecation{}, fmt.Errorf("%s: x-replaced-by: no operation %q", operationID, d.ReplacedBy)
	}
	return d, nil
}

func timeExtension(ext map[string]any, name string) (time.Time, error) {
	s, ok := ext[name].(string)
	if !ok {
		return time.Time{}, fmt.Errorf("%s: missing or not a string", name)
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %w", name, err)
	}
	return t.UTC(), nil
}

// Operation returns the operation with the given id, or nil.
func Operation(doc *openapi3.T, operationID string) *openapi3.Operation {
	path, method, ok := OperationPath(doc, operationID)
	if !ok {
		return nil
	}
	return doc.Paths.Value(path).GetOperation(method)
}

// OperationPath returns the path and method of the operation with the given
// id, such as "/pets" and "GET".
func OperationPath(doc *openapi3.T, operationID string) (path, method string, ok bool) {
	for p, item := range doc.Paths.Map() {
		for m, op := range item.Operations() {
			if op.OperationID == operationID {
				return p, m, true
			}
		}
	}
	return "", "", false
}

// PetStatuses returns the values of the PetStatus enumeration, in document
// order.
func PetStatuses(doc *openapi3.T) ([]string, error) {
	ref := doc.Components.Schemas["PetStatus"]
	if ref == nil || ref.Value == nil {
		return nil, errors.New("schema PetStatus is missing")
	}
	out := make([]string, 0, len(ref.Value.Enum))
	for _, v := range ref.Value.Enum {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("PetStatus: enum value %v is not a string", v)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, errors.New("PetStatus: enum is empty")
	}
	return out, nil
}
