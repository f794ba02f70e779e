package conformance

import (
	"maps"
	"slices"

	"github.com/petstore/contract/spec"
)

// contract is what the checks need to know of the document, read from
// the spec package's Contract. Everything the suite checks comes from
// there, so that judging against another version of the document
// (Config.Contract) changes the checks with it.
type contract struct {
	*spec.Contract
	spec.Petstore
	// petstore says that the document has the Petstore's operations,
	// listPets, createPet and getPet, so that the Petstore's rules apply
	// beside the generic ones. Without them, the fields of Petstore and
	// the limits below are zero, and only the generic rules judge.
	petstore bool
	// statuses are the PetStatus values the checks take one each of: all
	// of them, or a sample of a long enumeration.
	statuses []string

	limitMin, limitMax, limitDefault int // of listPets' limit

	// errorCodes are the codes of x-petmock-codes, sorted: a gap
	// decision of petmock's, for the strict checks.
	errorCodes []string
}

// readContract reads what the checks need of c. A document that has none
// of the Petstore's operations, or only some, is judged by the generic
// rules alone; one that has all three is the Petstore's, and must give
// what its rules are made of, such as the bounds of listPets' limit.
func readContract(c *spec.Contract) (contract, error) {
	out := contract{Contract: c, errorCodes: slices.Sorted(maps.Keys(c.ErrorCodes))}
	if !hasPetstoreOperations(c) {
		return out, nil
	}
	p, err := c.Petstore()
	if err != nil {
		return contract{}, err
	}
	paging := p.Pets.Paging
	out.Petstore, out.petstore, out.statuses = p, true, sampleOf(p.Statuses)
	out.limitMin, out.limitMax, out.limitDefault = paging.Min, paging.Max, paging.Default
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
