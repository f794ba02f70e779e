package catalogue

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec/fake"
)

// A version of the document may require a property the items kept lack,
// such as one a developer adds with a default: each item is given the
// value a created item would take (x-petmock-defaults), else the schema's
// default, else its example, else a value made from its schema, rather
// than held back, and the catalogue says which, once for each property.

// filled notes which properties items kept were given, and how.
type filled struct {
	mu  sync.Mutex // guards how
	how map[string]string
}

// note records that items were given property name, as how says.
func (f *filled) note(name, how string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.how == nil {
		f.how = map[string]string{}
	}
	f.how[name] = how
}

// fillRequired gives item, an item kept of the item with id id, every
// property the item schema requires that it lacks, but its id, as the
// package comment says.
func (rs *Resource) fillRequired(item map[string]any, id int64) {
	for _, p := range rs.spec.Properties {
		if _, ok := item[p.Name]; ok || !p.Required || p.Name == rs.spec.IDProperty || p.Schema == nil {
			continue
		}
		if v, how, ok := rs.requiredValue(p.Name, p.Schema, id); ok {
			item[p.Name] = v
			rs.filled.note(p.Name, how)
		}
	}
}

// requiredValue returns the value an item kept of id is given for the
// required property name of schema s, and how it was found.
func (rs *Resource) requiredValue(name string, s *openapi3.Schema, id int64) (any, string, bool) {
	switch {
	case s.Default != nil:
		return jsonValue(s.Default), "its default", true
	case s.Example != nil:
		return jsonValue(s.Example), "its example", true
	}
	gen := &fake.Generator{Faker: fake.NewFaker(rs.ids.seed ^ hashString(rs.spec.Name+"."+name) ^ splitmix(uint64(id)))}
	v, err := gen.Valid(s, fake.Hint{Property: name, Resource: rs.spec.Name})
	if err != nil {
		return nil, "", false
	}
	return jsonValue(v), "a value made from its schema", true
}

// filledNotes says, one line each, which properties items kept were
// given, and how.
func (rs *Resource) filledNotes() []string {
	rs.filled.mu.Lock()
	defer rs.filled.mu.Unlock()
	var notes []string
	for _, name := range slices.Sorted(maps.Keys(rs.filled.how)) {
		notes = append(notes, fmt.Sprintf("%s.%s: the document requires it, and the %s kept lacked it: they were given %s",
			rs.spec.Name, name, rs.spec.Name, rs.filled.how[name]))
	}
	return notes
}
