package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
)

// What the Petstore's checks share: the catalogue as listed, values to
// send, and pets to create.

// census returns the first page of listPets at the largest limit.
func (h *harness) census(ctx context.Context) ([]pet, error) {
	x, err := h.listPets(ctx, "limit="+strconv.Itoa(h.contract.limitMax))
	if err != nil {
		return nil, err
	}
	if err := x.require(x.status == http.StatusOK, ruleContract, fmt.Sprintf("listPets with a valid key and limit must answer 200; status %d", x.status)); err != nil {
		return nil, err
	}
	return x.pets()
}

// listedPet returns a pet taken from listPets, so that read checks need
// no pet of their own. It skips the check if the catalogue is empty.
func (h *harness) listedPet(ctx context.Context) (pet, error) {
	pets, err := h.census(ctx)
	if err != nil {
		return pet{}, err
	}
	if len(pets) == 0 {
		return pet{}, skipf("the catalogue is empty: no pet to read")
	}
	return pets[h.rnd.IntN(len(pets))], nil
}

// fallbackCategory is the categoryId of pets created on a deployment that
// lists no pet to take one from.
const fallbackCategory = 1

// category returns a categoryId for a pet to create: the most common one
// among the pets listed, so one the deployment knows, or fallbackCategory
// if it lists none. Categories are a gap of the interface: a server may
// refuse an id it does not know.
func (h *harness) category(ctx context.Context) (int64, error) {
	pets, err := h.census(ctx)
	if err != nil {
		return 0, err
	}
	counts := map[int64]int{}
	for _, p := range pets {
		if id, ok := exactInt(p.CategoryID); ok {
			counts[id]++
		}
	}
	best := int64(fallbackCategory)
	for _, id := range slices.Sorted(maps.Keys(counts)) {
		if counts[id] > counts[best] {
			best = id
		}
	}
	return best, nil
}

// absentID returns an id that no pet has, in all likelihood: a random one
// in a range no catalogue fills, never a fixed guess.
func (h *harness) absentID() int64 {
	return 1<<53 + h.rnd.Int64N(math.MaxInt64-1<<53)
}

// invalidKey returns a key no server issued.
func (h *harness) invalidKey() string {
	return "conformance-invalid-" + strconv.FormatUint(h.rnd.Uint64(), 36)
}

// randomStatus returns one of the PetStatus values.
func (h *harness) randomStatus() string {
	return h.contract.Statuses[h.rnd.IntN(len(h.contract.Statuses))]
}

// pastSunset reports whether getPet's removal date has come.
func (h *harness) pastSunset() bool {
	return !h.cfg.Now().Before(h.contract.Deprecation.Sunset)
}

// beforeSunset skips a check of getPet once it may have been removed.
func (h *harness) beforeSunset() error {
	if h.pastSunset() {
		return skipf("getPet was to be removed on %s: it need not answer any more", h.contract.SunsetDay)
	}
	return nil
}

// newPetBody returns a NewPet as JSON. An empty status is left out.
func newPetBody(name string, categoryID int64, status string) string {
	m := map[string]any{"name": name, "categoryId": categoryID}
	if status != "" {
		m["status"] = status
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// create creates a pet and checks the answer: 201 with the pet sent and
// an integer id. It returns the pet as sent, with the id it got.
func (h *harness) create(ctx context.Context, categoryID int64, status string) (*exchange, pet, error) {
	name := h.petName()
	x, err := h.createPet(ctx, newPetBody(name, categoryID, status))
	if err != nil {
		return x, pet{}, err
	}
	created, err := checkCreated(x, name, categoryID, status)
	if err != nil {
		return x, created, err
	}
	if err := h.checkLocation(x, h.contract.Pets, nil, string(created.ID), ruleCreateLocation); err != nil {
		return x, created, err
	}
	if it, err := x.item(); err == nil {
		h.keep(h.contract.Pets, nil, it)
	}
	return x, created, nil
}

// checkCreated checks x, the answer to a createPet of the pet of name,
// categoryID and status: 201 with that pet and an integer id. It returns
// the pet as sent, with the id it got.
func checkCreated(x *exchange, name string, categoryID int64, status string) (pet, error) {
	if err := x.require(x.status == http.StatusCreated, ruleCreate, fmt.Sprintf("status %d, want 201", x.status)); err != nil {
		return pet{}, err
	}
	got, err := x.pet()
	if err != nil {
		return pet{}, err
	}
	_, ok := exactInt(got.ID)
	if err := x.require(ok, ruleCreate, fmt.Sprintf("id %s is not an int64 integer", got.ID)); err != nil {
		return pet{}, err
	}
	want := pet{ID: got.ID, Name: name, CategoryID: json.Number(strconv.FormatInt(categoryID, 10))}
	if status != "" {
		want.Status = &status
	} else {
		want.Status = got.Status // any PetStatus or none; the schema checked which
	}
	same, diff := got.same(want)
	return got, x.require(same, ruleCreate, "the created pet differs from what was sent: "+diff)
}
