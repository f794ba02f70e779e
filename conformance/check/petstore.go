package check

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"

	"github.com/petstore/contract/conformance/judge"
)

// What the Petstore's checks share: the catalogue as listed, values to
// send, and pets to create.

// census returns the first page of listPets at the largest limit.
func (h *Harness) census(ctx context.Context) ([]judge.Pet, error) {
	x, err := h.listPets(ctx, "limit="+strconv.Itoa(h.contract.LimitMax))
	if err != nil {
		return nil, err
	}
	if err := x.Require(x.Status == http.StatusOK, judge.RuleContract, fmt.Sprintf("listPets with a valid key and limit must answer 200; status %d", x.Status)); err != nil {
		return nil, err
	}
	return x.Pets()
}

// listedPet returns a pet taken from listPets, so that read checks need
// no pet of their own. It skips the check if the catalogue is empty.
func (h *Harness) listedPet(ctx context.Context) (judge.Pet, error) {
	pets, err := h.census(ctx)
	if err != nil {
		return judge.Pet{}, err
	}
	if len(pets) == 0 {
		return judge.Pet{}, judge.Skipf("the catalogue is empty: no pet to read")
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
func (h *Harness) category(ctx context.Context) (int64, error) {
	pets, err := h.census(ctx)
	if err != nil {
		return 0, err
	}
	counts := map[int64]int{}
	for _, p := range pets {
		if id, ok := judge.ExactInt(p.CategoryID); ok {
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
func (h *Harness) absentID() int64 {
	return 1<<53 + h.rnd.Int64N(math.MaxInt64-1<<53)
}

// InvalidKey returns a key no server issued.
func (h *Harness) InvalidKey() string {
	return "conformance-invalid-" + strconv.FormatUint(h.rnd.Uint64(), 36)
}

// randomStatus returns one of the PetStatus values.
func (h *Harness) randomStatus() string {
	return h.contract.Statuses[h.rnd.IntN(len(h.contract.Statuses))]
}

// pastSunset reports whether getPet's removal date has come.
func (h *Harness) pastSunset() bool {
	return !h.cfg.Now().Before(h.contract.Deprecation.Sunset)
}

// BeforeSunset skips a check of getPet once it may have been removed.
func (h *Harness) BeforeSunset() error {
	if h.pastSunset() {
		return judge.Skipf("getPet was to be removed on %s: it need not answer any more", h.contract.SunsetDay)
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
func (h *Harness) create(ctx context.Context, categoryID int64, status string) (*judge.Exchange, judge.Pet, error) {
	name := h.PetName()
	x, err := h.createPet(ctx, newPetBody(name, categoryID, status))
	if err != nil {
		return x, judge.Pet{}, err
	}
	created, err := checkCreated(x, name, categoryID, status)
	if err != nil {
		return x, created, err
	}
	if err := h.checkLocation(x, h.contract.Pets, nil, string(created.ID), judge.RuleCreateLocation); err != nil {
		return x, created, err
	}
	if it, err := x.Item(); err == nil {
		h.keep(h.contract.Pets, nil, it)
	}
	return x, created, nil
}

// checkCreated checks x, the answer to a createPet of the pet of name,
// categoryID and status: 201 with that pet and an integer id. It returns
// the pet as sent, with the id it got.
func checkCreated(x *judge.Exchange, name string, categoryID int64, status string) (judge.Pet, error) {
	if err := x.Require(x.Status == http.StatusCreated, judge.RuleCreate, fmt.Sprintf("status %d, want 201", x.Status)); err != nil {
		return judge.Pet{}, err
	}
	got, err := x.Pet()
	if err != nil {
		return judge.Pet{}, err
	}
	_, ok := judge.ExactInt(got.ID)
	if err := x.Require(ok, judge.RuleCreate, fmt.Sprintf("id %s is not an int64 integer", got.ID)); err != nil {
		return judge.Pet{}, err
	}
	want := judge.Pet{ID: got.ID, Name: name, CategoryID: json.Number(strconv.FormatInt(categoryID, 10))}
	if status != "" {
		want.Status = &status
	} else {
		want.Status = got.Status // any PetStatus or none; the schema checked which
	}
	same, diff := got.Same(want)
	return got, x.Require(same, judge.RuleCreate, "the created pet differs from what was sent: "+diff)
}
