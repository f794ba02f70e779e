package conformance

import (
	"maps"
	"slices"

	"github.com/petstore/contract/spec"
)

// contract is what the Petstore checks need to know of the document, read
// from the spec package's Contract. Everything the suite checks comes from
// there, so that judging against another version of the document
// (Config.Contract) changes the checks with it.
type contract struct {
	*spec.Contract
	spec.Petstore

	limitMin, limitMax, limitDefault int // of listPets' limit

	// errorCodes are the codes of x-petmock-codes, sorted: a gap
	// decision of petmock's, for the strict checks.
	errorCodes []string
}

func readContract(c *spec.Contract) (contract, error) {
	p, err := c.Petstore()
	if err != nil {
		return contract{}, err
	}
	paging := p.Pets.Paging
	return contract{
		Contract:     c,
		Petstore:     p,
		limitMin:     paging.Min,
		limitMax:     paging.Max,
		limitDefault: paging.Default,
		errorCodes:   slices.Sorted(maps.Keys(c.ErrorCodes)),
	}, nil
}
