package main

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/spec"
)

// pet is a pet of the Petstore, as the tests read them.
type pet struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CategoryID int64  `json:"categoryId"`
	Status     string `json:"status,omitempty"`
}

// readPets reads the pets of a fixture, such as a state file, checked
// against the embedded document.
func readPets(data []byte) ([]pet, error) {
	c, err := spec.Default()
	if err != nil {
		return nil, err
	}
	items, err := catalogue.ReadFixture(c, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return decodePets(items["pets"])
}

// readPetsFile reads the pets of a fixture file.
func readPetsFile(path string) ([]pet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return readPets(data)
}

func decodePets(items []json.RawMessage) ([]pet, error) {
	pets := make([]pet, len(items))
	for i, item := range items {
		if err := json.Unmarshal(item, &pets[i]); err != nil {
			return nil, err
		}
	}
	return pets, nil
}

// generatePets returns the pets of a generated catalogue.
func generatePets(tb testing.TB, cat catalogue.Seeded) []pet {
	tb.Helper()
	c, err := spec.Default()
	if err != nil {
		tb.Fatal(err)
	}
	items, err := catalogue.Generate(c, cat)
	if err != nil {
		tb.Fatal(err)
	}
	pets, err := decodePets(items["pets"])
	if err != nil {
		tb.Fatal(err)
	}
	return pets
}
