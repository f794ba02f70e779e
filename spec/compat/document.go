package compat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/flatten/allof"
	"github.com/oasdiff/oasdiff/flatten/commonparams"
	oyaml "github.com/oasdiff/yaml"
	"go.yaml.in/yaml/v3"

	"github.com/petstore/contract/spec"
)

// Document is one version of an OpenAPI document, read and ready to be
// compared.
type Document struct {
	// Name is what the document was read from, such as a file name.
	Name string
	// Title and Version are the document's info.title and info.version.
	Title, Version string

	data []byte // the document as written: each comparison reads its own copy
}

// Read reads an OpenAPI document, 3.0 or 3.1 as YAML or JSON, or a Swagger
// 2.0 one, which is converted to OpenAPI 3.0 as kin-openapi does. The
// document must be one file: a $ref to another file is refused, as it is by
// petmock and the conformance suite. It is validated, except for its
// examples, which the comparison ignores. The error says what is wrong with
// the document but does not name it: the caller knows its name.
func Read(name string, data []byte) (*Document, error) {
	doc, err := parse(name, data)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	d := &Document{Name: name, data: slices.Clone(data)}
	if doc.Info != nil {
		d.Title, d.Version = doc.Info.Title, doc.Info.Version
	}
	return d, nil
}

// parse loads an OpenAPI 3 document, or a Swagger 2.0 one converted to
// OpenAPI 3.0, with its references resolved.
func parse(name string, data []byte) (*openapi3.T, error) {
	version, err := specVersion(data)
	if err != nil {
		return nil, err
	}
	switch {
	case version.openapi != "":
		doc, err := openapi3.NewLoader().LoadFromDataWithPath(data, &url.URL{Path: name})
		if err != nil {
			return nil, fmt.Errorf("load: %w", err)
		}
		return doc, nil
	case version.swagger == "2.0":
		return fromSwagger(data)
	default:
		return nil, fmt.Errorf("swagger: version %q is not one this reads; only 2.0 is", version.swagger)
	}
}

// versions are the fields that say which specification a document
// follows: openapi for OpenAPI 3, swagger for Swagger 2.0.
type versions struct {
	openapi string
	swagger string
}

// specVersion reads the openapi or swagger field of a document, YAML or
// JSON, which says how the rest of it is to be read.
func specVersion(data []byte) (versions, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return versions{}, errors.New("the document is empty")
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return versions{}, fmt.Errorf("not YAML or JSON: %s", spec.YAMLError(err))
	}
	if len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return versions{}, errors.New("not an OpenAPI document: its top level is not a mapping of fields")
	}
	var out versions
	fields := root.Content[0].Content
	for i := 0; i+1 < len(fields); i += 2 {
		switch fields[i].Value {
		case "openapi":
			out.openapi = fields[i+1].Value
		case "swagger":
			out.swagger = fields[i+1].Value
			// kin-openapi reads the version as a string only, as the
			// specification has it.
			if fields[i+1].Tag != "!!str" {
				return versions{}, fmt.Errorf("swagger: %s is not a string; write it in quotes: swagger: \"%s\"", out.swagger, out.swagger)
			}
		}
	}
	if out.openapi == "" && out.swagger == "" {
		return versions{}, errors.New("openapi: missing; the document is not OpenAPI 3 (nor Swagger 2.0)")
	}
	return out, nil
}

// fromSwagger reads a Swagger 2.0 document and converts it to OpenAPI 3.0,
// as kin-openapi does, so both versions of a document may be either.
func fromSwagger(data []byte) (*openapi3.T, error) {
	var doc2 openapi2.T
	// The YAML library kin-openapi reads Swagger 2.0 with: it hands the
	// document to the types' JSON decoders, and reads dates as strings.
	if _, err := oyaml.Unmarshal(data, &doc2, oyaml.DecodeOpts{DisableTimestamps: true}); err != nil {
		return nil, fmt.Errorf("load swagger 2.0: %w", err)
	}
	doc, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("convert swagger 2.0 to openapi 3.0: %w", err)
	}
	// The conversion leaves references to resolve.
	if err := openapi3.NewLoader().ResolveRefsIn(doc, nil); err != nil {
		return nil, fmt.Errorf("convert swagger 2.0 to openapi 3.0: %w", err)
	}
	return doc, nil
}

// flatten merges every allOf of doc into one schema and gives the
// parameters of each path to each of its operations, in place, so that a
// document restructured but not changed compares equal to what it was.
func flatten(doc *openapi3.T) error {
	if _, err := allof.MergeSpec(doc); err != nil {
		return err
	}
	commonparams.Move(doc)
	return nil
}
