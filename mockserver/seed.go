package mockserver

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/petstore/contract/spec"
)

// Defaults of the generated catalogue: every start of petmock without
// options shows the same 50 pets.
const (
	DefaultSeed = 1
	DefaultPets = 50
)

// Categories returns the category ids generated pets belong to. The
// interface does not describe categories; petmock uses this small fixed
// set.
func Categories() []int64 { return []int64{1, 2, 3, 4, 5} }

// DefaultStatusMix returns the weights of the statuses of generated pets,
// in the order of the PetStatus enumeration: mostly available, some
// pending, a few sold.
func DefaultStatusMix() []int { return []int{60, 25, 15} }

// Catalogue describes a generated catalogue. The default catalogue is
// Catalogue{Seed: DefaultSeed}.
type Catalogue struct {
	// Seed makes the catalogue repeat: the same Seed, Count and StatusMix
	// always give the same pets. Zero is a seed like any other.
	Seed uint64
	// Count is the number of pets. Zero means DefaultPets.
	Count int
	// StatusMix weighs the statuses, in the order of Statuses. Nil means
	// DefaultStatusMix().
	StatusMix []int
	// Statuses are the statuses to choose from. Nil means the PetStatus
	// values of the document.
	Statuses []string
}

// Generate returns the pets of a catalogue, with ids from 1 to Count. Names
// are pet names from gofakeit, categories come from Categories, and
// statuses follow the mix.
func Generate(c Catalogue) ([]Pet, error) {
	if c.Count < 0 {
		return nil, fmt.Errorf("count %d: must not be negative", c.Count)
	}
	if c.Count == 0 {
		c.Count = DefaultPets
	}
	if c.Statuses == nil {
		statuses, err := documentStatuses()
		if err != nil {
			return nil, err
		}
		c.Statuses = statuses
	}
	if c.StatusMix == nil {
		c.StatusMix = DefaultStatusMix()
	}
	if len(c.StatusMix) != len(c.Statuses) {
		return nil, fmt.Errorf("status mix %v: want %d weights, one for each of %v", c.StatusMix, len(c.Statuses), c.Statuses)
	}
	total := 0
	for _, w := range c.StatusMix {
		if w < 0 {
			return nil, fmt.Errorf("status mix %v: weights must not be negative", c.StatusMix)
		}
		total += w
	}
	if total == 0 {
		return nil, errors.New("status mix: at least one weight must be positive")
	}

	// gofakeit.New treats seed 0 as "random"; a PCG source of our own
	// repeats for every seed, and equals gofakeit.New for the others.
	f := gofakeit.NewFaker(rand.NewPCG(c.Seed, c.Seed), false)
	categories := Categories()
	pets := make([]Pet, c.Count)
	for i := range pets {
		pets[i] = Pet{
			ID:         int64(i + 1),
			Name:       f.PetName(),
			CategoryID: categories[f.IntN(len(categories))],
			Status:     c.Statuses[pick(f.IntN(total), c.StatusMix)],
		}
	}
	return pets, nil
}

// pick returns the index of the weight that n, from 0 to the sum of the
// weights, falls in.
func pick(n int, weights []int) int {
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}

func documentStatuses() ([]string, error) {
	doc, err := spec.Load()
	if err != nil {
		return nil, err
	}
	return spec.PetStatuses(doc)
}
