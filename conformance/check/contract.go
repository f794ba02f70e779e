package check

import (
	"maps"
	"slices"

	"github.com/petstore/contract/spec"
)

// Contract is what the checks need to know of the document, read from
// the spec package's Contract. Everything the suite checks comes from
// there, so that judging against another version of the document
// (Settings.Contract) changes the checks with it.
type Contract struct {
	*spec.Contract
	spec.Petstore
	// IsPetstore says that the document has the Petstore's operations,
	// listPets, createPet and getPet, so that the Petstore's rules apply
	// beside the generic ones. Without them, the fields of Petstore and
	// the limits below are zero, and only the generic rules judge.
	IsPetstore bool
	// SampledStatuses are the PetStatus values the checks take one each
	// of: all of them, or a sample of a long enumeration.
	SampledStatuses []string
	// LimitMin, LimitMax and LimitDefault are the bounds and the default
	// of listPets' limit.
	LimitMin, LimitMax, LimitDefault int

	// errorCodes are the codes of x-petmock-codes, sorted: a gap
	// decision of petmock's, for the strict checks.
	errorCodes []string
}

// ReadContract reads what the checks need of c. A document that has none
// of the Petstore's operations, or only some, is judged by the generic
// rules alone; one that has all three is the Petstore's, and must give
// what its rules are made of, such as the bounds of listPets' limit.
func ReadContract(c *spec.Contract) (Contract, error) {
	out := Contract{Contract: c, errorCodes: slices.Sorted(maps.Keys(c.ErrorCodes))}
	if !hasPetstoreOperations(c) {
		return out, nil
	}
	p, err := c.Petstore()
	if err != nil {
		return Contract{}, err
	}
	paging := p.Pets.Paging
	out.Petstore, out.IsPetstore, out.SampledStatuses = p, true, sampleOf(p.Statuses)
	out.LimitMin, out.LimitMax, out.LimitDefault = paging.Min, paging.Max, paging.Default
	return out, nil
}

// hasPetstoreOperations reports whether c has listPets, createPet and
// getPet, the operations the Petstore's rules are about.
func hasPetstoreOperations(c *spec.Contract) bool {
	for _, id := range []string{spec.ListPets, spec.CreatePet, spec.GetPet} {
		if c.Operation(id) == nil {
			return false
		}
	}
	return true
}
