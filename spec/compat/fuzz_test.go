package compat_test

import (
	"testing"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/compat"
)

// FuzzCompare: whatever two documents hold, Read and Compare return a
// value or an error; neither panics.
func FuzzCompare(f *testing.F) {
	f.Add([]byte(swaggerShelter), []byte(flatShelter))
	f.Add([]byte(flatShelter), spec.YAML())
	f.Add([]byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n"), []byte("swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		base, err := compat.Read("a.yaml", a)
		if err != nil {
			return
		}
		revision, err := compat.Read("b.yaml", b)
		if err != nil {
			return
		}
		if _, err := compat.Compare(base, revision); err != nil {
			return
		}
	})
}
