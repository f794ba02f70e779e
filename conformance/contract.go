package conformance

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// contract is what the specs need to know of the document. Everything the
// suite checks comes from here, so that judging against another version of
// the document (Config.Document) changes the checks with it.
type contract struct {
	statuses []string // PetStatus values, in document order

	limitMin, limitMax, limitDefault int // of listPets' limit

	deprecation spec.Deprecation // of getPet
	// sunsetDay is the removal date as the interface gives it: a day, in
	// UTC.
	sunsetDay string // "2006-01-02"

	// Gap decisions of petmock, for the strict specs.
	defaultStatus string   // x-petmock-default-status; "" if the document has none
	errorCodes    []string // x-petmock-codes, sorted
}

func readContract(doc *openapi3.T) (contract, error) {
	var c contract
	var err error
	if c.statuses, err = spec.PetStatuses(doc); err != nil {
		return c, err
	}
	if c.limitMin, c.limitMax, c.limitDefault, err = limitBounds(doc); err != nil {
		return c, err
	}
	if c.deprecation, err = spec.OperationDeprecation(doc, spec.GetPet); err != nil {
		return c, err
	}
	c.sunsetDay = c.deprecation.Sunset.UTC().Format(time.DateOnly)
	if s := doc.Components.Schemas["NewPet"]; s != nil && s.Value != nil {
		c.defaultStatus, _ = s.Value.Extensions["x-petmock-default-status"].(string)
	}
	if s := doc.Components.Schemas["Error"]; s != nil && s.Value != nil {
		if codes, ok := s.Value.Extensions["x-petmock-codes"].(map[string]any); ok {
			c.errorCodes = slices.Sorted(maps.Keys(codes))
		}
	}
	for _, op := range []string{spec.ListPets, spec.CreatePet, spec.GetPet} {
		if _, _, ok := spec.OperationPath(doc, op); !ok {
			return c, fmt.Errorf("operation %s is missing", op)
		}
	}
	return c, nil
}

// limitBounds reads the minimum, maximum and default of listPets' limit.
func limitBounds(doc *openapi3.T) (lo, hi, def int, err error) {
	op := spec.Operation(doc, spec.ListPets)
	if op == nil {
		return 0, 0, 0, errors.New("operation listPets is missing")
	}
	p := op.Parameters.GetByInAndName(openapi3.ParameterInQuery, "limit")
	if p == nil || p.Schema == nil || p.Schema.Value == nil {
		return 0, 0, 0, errors.New("listPets: parameter limit is missing")
	}
	s := p.Schema.Value
	d, ok := s.Default.(float64)
	if s.Min == nil || s.Max == nil || !ok {
		return 0, 0, 0, errors.New("listPets: limit needs a minimum, a maximum and a default")
	}
	return int(*s.Min), int(*s.Max), int(d), nil
}
