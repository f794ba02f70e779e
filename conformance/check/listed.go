package check

import (
	"context"
	"fmt"
	"net/http"

	"github.com/petstore/contract/conformance/judge"
)

// maxListedTries is how many listed pets readListed reads before it gives
// up because each one was removed before it could be read.
const maxListedTries = 3

// readListed reads, through getPet, a pet taken from listPets, and returns
// the answer: a 200 with that pet.
//
// Other clients may change or remove a pet between the listing and the
// read, in production most of all. So getPet must answer with the listed
// pet's id, and where it disagrees with the listing otherwise (another
// status, or 404), the suite lists again: the check fails only if getPet
// still disagrees with the fresh listing. A pet gone from it was removed
// meanwhile, and another listed pet is read. A pet still listed that
// getPet does not find gets the settle window to show.
func (h *Harness) readListed(ctx context.Context) (*judge.Exchange, error) {
	for range maxListedTries {
		listed, err := h.listedPet(ctx)
		if err != nil {
			return nil, err
		}
		id := listed.IntID()
		x, err := h.getPet(ctx, id)
		if err != nil {
			return x, err
		}
		if x.Status == http.StatusNotFound {
			_, ok, err := h.findListed(ctx, id)
			switch {
			case err != nil:
				return nil, err
			case !ok:
				continue
			}
			if _, err := h.settle(ctx, func() (bool, error) {
				var err error
				x, err = h.getPet(ctx, id)
				return x.Status != http.StatusNotFound, err
			}); err != nil {
				return x, err
			}
		}
		if err := x.Require(x.Status == http.StatusOK, judge.RuleGet, fmt.Sprintf("getPet of listed pet %s: status %d, want 200 until %s; the pet is listed still", listed, x.Status, h.contract.SunsetDay)); err != nil {
			return x, err
		}
		got, err := x.Pet()
		if err != nil {
			return x, err
		}
		if err := x.Require(judge.SameNumber(got.ID, listed.ID), judge.RuleGet, fmt.Sprintf("getPet of listed pet %s answered with another pet, %s", listed, got)); err != nil {
			return x, err
		}
		if same, _ := got.Same(listed); same {
			return x, nil
		}
		fresh, ok, err := h.findListed(ctx, id)
		switch {
		case err != nil:
			return nil, err
		case !ok:
			continue
		}
		same, diff := got.Same(fresh)
		return x, x.Require(same, judge.RuleGet, "the pet differs from the one listed, again when listed afresh: "+diff)
	}
	return nil, judge.Skipf("the last %d pets listed were gone before getPet could read them: other clients are removing pets, so getPet could not be judged", maxListedTries)
}

// findListed looks for the pet of id in a fresh census.
func (h *Harness) findListed(ctx context.Context, id int64) (judge.Pet, bool, error) {
	pets, err := h.census(ctx)
	if err != nil {
		return judge.Pet{}, false, err
	}
	for _, p := range pets {
		if p.IntID() == id {
			return p, true, nil
		}
	}
	return judge.Pet{}, false, nil
}
