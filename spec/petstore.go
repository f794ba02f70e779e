package spec

import (
	"errors"
	"fmt"
	"time"
)

// Operation ids of the Petstore's three operations, the ones the interface
// shows. The Petstore rules of the mock and the judge are about them; every
// other operation of a document is served and judged by the generic rules.
const (
	ListPets  = "listPets"
	CreatePet = "createPet"
	GetPet    = "getPet"
)

// Petstore is the part of a contract the Petstore rules are about.
type Petstore struct {
	// Pets is the resource of listPets, createPet and getPet.
	Pets *Resource
	// Statuses are the values of the status filter of listPets: the
	// PetStatus values, in document order.
	Statuses []string
	// Deprecation is getPet's: it has a sunset and a date of deprecation.
	Deprecation Deprecation
	// SunsetDay is the removal date as the interface gives it, a day in
	// UTC such as "2030-12-05".
	SunsetDay string
	// DefaultStatus is the status petmock gives a pet created without
	// one, from x-petmock-defaults; "" if the document names none.
	DefaultStatus string
}

// Petstore reads the part of the contract the Petstore rules are about. It
// fails when the document lacks what they need, such as a status filter
// or getPet's sunset.
func (c *Contract) Petstore() (Petstore, error) {
	var p Petstore
	for _, id := range []string{ListPets, CreatePet, GetPet} {
		if c.Operation(id) == nil {
			return p, fmt.Errorf("operation %s is missing", id)
		}
	}
	list, create, get := c.Operation(ListPets), c.Operation(CreatePet), c.Operation(GetPet)
	p.Pets = list.Resource
	if p.Pets == nil || p.Pets.CreateOp != create || p.Pets.Read != get {
		return p, errors.New("listPets, createPet and getPet do not form one resource")
	}
	status, ok := p.Pets.Filter("status")
	if !ok || len(status.Enum()) == 0 {
		return p, errors.New("listPets: the status filter, a string enumeration, is missing")
	}
	p.Statuses = status.Enum()
	if s := p.Pets.Paging.LimitSchema; s == nil || s.Min == nil || s.Max == nil || s.Default == nil {
		return p, errors.New("listPets: limit needs a minimum, a maximum and a default")
	}
	if get.Deprecation == nil || get.Deprecation.Sunset.IsZero() || get.Deprecation.Since.IsZero() {
		return p, errors.New("getPet: must be deprecated, with x-sunset and x-petmock-deprecated-at")
	}
	p.Deprecation = *get.Deprecation
	p.SunsetDay = p.Deprecation.Sunset.Format(time.DateOnly)
	p.DefaultStatus, _ = p.Pets.Defaults["status"].(string)
	return p, nil
}
