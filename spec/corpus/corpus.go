// Package corpus brings the public OpenAPI documents that petmock and the
// conformance suite are tried on: documents nobody on this project wrote,
// such as the OpenAPI Initiative's examples and Swagger Petstore v3.
//
// They are not kept in the repository. testdata/corpus/documents.json
// names each one, where it is published, and the npm package, pinned by
// version and by its sha512 integrity, that the tests take it from.
// Fetch downloads each package once into a cache, checks its integrity and
// writes the documents beside it; a test calls Served or Sweep, which skip
// when the registry cannot be reached, or fail when the environment says
// the corpus is required, as CI does.
package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Manifest is what testdata/corpus/documents.json says.
type Manifest struct {
	// Packages are the npm packages the documents come from, by a short
	// name the documents use.
	Packages map[string]Package `json:"packages"`
	// Documents are the documents petmock must serve and the suite must
	// pass petmock serving, in default and strict mode.
	Documents []Document `json:"documents"`
}

// Package is one pinned npm package.
type Package struct {
	// Name is the package and its version, such as
	// "@readme/oas-examples@8.2.2".
	Name string `json:"name"`
	// Tarball is where the registry serves the package.
	Tarball string `json:"tarball"`
	// Integrity is the registry's sha512 of the tarball, "sha512-" and
	// base64, as package-lock.json holds it.
	Integrity string `json:"integrity"`
	// Sweep, when set, is a pattern (path.Match) of the files of the
	// package that petmock must each serve or refuse in one line.
	Sweep string `json:"sweep,omitempty"`
}

// Document is one document of the corpus.
type Document struct {
	// Name names the document in tests and in the cache.
	Name string `json:"name"`
	// Source is where the document is published.
	Source string `json:"source"`
	// Package is the short name of the package it is taken from.
	Package string `json:"package"`
	// Path is the file of the package that holds it.
	Path string `json:"path"`
	// Literal, when set, says that the file is JavaScript that holds the
	// document as the string literal passed by the function of that name,
	// as Swagger Editor holds Swagger Petstore v3.
	Literal string `json:"literal,omitempty"`
}

// ManifestFile is the manifest's path from the module's root.
const ManifestFile = "testdata/corpus/documents.json"

// ReadManifest reads the manifest at path and checks that each document
// names a package of it.
func ReadManifest(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, d := range m.Documents {
		if _, ok := m.Packages[d.Package]; !ok {
			return nil, fmt.Errorf("%s: document %s: package %q is not among the packages", path, d.Name, d.Package)
		}
	}
	return &m, nil
}

// FindManifest finds ManifestFile in the module that holds the working
// directory, as a test running in any package of it has.
func FindManifest() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, filepath.FromSlash(ManifestFile)), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("corpus: no go.mod above the working directory")
		}
		dir = parent
	}
}
