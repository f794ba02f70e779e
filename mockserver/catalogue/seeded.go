package catalogue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// Defaults of the stores' limits.
const (
	DefaultMaxItems      = 2_000_000
	DefaultMaxStoreBytes = 512 << 20
)

// Defaults of the generated catalogue: every start of petmock without
// options shows the same 50 items of each resource.
const (
	DefaultSeed  = 1
	DefaultCount = 50
)

// Seeded describes a catalogue made from a seed. The default catalogue is
// Seeded{Seed: DefaultSeed}.
type Seeded struct {
	// Seed makes the catalogue repeat: the same Seed, Count and StatusMix
	// always give the same items, byte for byte. Zero is a seed like any
	// other.
	Seed uint64
	// Count is the number of items of each resource. Zero means
	// DefaultCount.
	Count int
	// StatusMix weighs the values of the items' status property, an
	// enumeration, in its order. Nil means the document's x-petmock-mix,
	// or even weights.
	StatusMix []int
}

// Items are items of the resources of a document, by resource name: each
// a JSON object, in the form petmock answers with.
type Items map[string][]json.RawMessage

// Generate returns the items of a catalogue of the contract's resources,
// with ids from 1 to Count. Every property of an item gets a value made
// from its schema, realistic where its name says what it holds (the name
// of a pet is a pet name; a petId is the id of a generated pet).
func Generate(c *spec.Contract, cat Seeded) (Items, error) {
	entries, _, err := generate(context.Background(), c, shape.NewBuilder(c), cat, false)
	if err != nil {
		return nil, err
	}
	out := Items{}
	for name, es := range entries {
		items := make([]json.RawMessage, len(es))
		for i, e := range es {
			items[i] = e.Text
		}
		out[name] = items
	}
	return out, nil
}

// generate makes the store entries of a catalogue, until ctx is done.
// When lenient, a resource whose items cannot be made starts empty, and
// the warnings say which; otherwise it fails.
func generate(ctx context.Context, c *spec.Contract, shapes *shape.Builder, cat Seeded, lenient bool) (map[string][]store.Entry, []string, error) {
	if cat.Count < 0 {
		return nil, nil, fmt.Errorf("count %d: must not be negative", cat.Count)
	}
	if cat.Count == 0 {
		cat.Count = DefaultCount
	}
	out := map[string][]store.Entry{}
	var warnings []string
	// known are the ids of the items of each resource of string ids or
	// with resources below it, as clients know them, in order, for the
	// references and the parents of the resources after it.
	known := map[string][]string{}
	parentOf := map[string]bool{}
	for _, r := range c.Resources {
		if r.Parent != nil {
			parentOf[r.Parent.Name] = true
		}
	}
	refs := func(name string) (func(*gofakeit.Faker) any, bool) {
		r := c.Resource(name)
		if r == nil {
			return nil, false
		}
		if !r.IDIsString {
			return func(f *gofakeit.Faker) any { return fake.Integer(1 + int64(f.IntN(cat.Count))) }, true
		}
		held := known[name]
		if len(held) == 0 {
			return nil, false
		}
		return func(f *gofakeit.Faker) any { return held[f.IntN(len(held))] }, true
	}
	for i, r := range c.Resources {
		rs := newResource(r, shapes, cat.Seed)
		count := cat.Count
		// The items of a nested resource go to the parents its items
		// name, or, where they name none, to each item of the parent
		// resource in turn; without a parent resource there are none.
		var parents []string
		if rs.parentKey >= 0 && !rs.namesParent() {
			if r.Parent != nil && len(r.Parent.ParentParams) == 0 {
				parents = known[r.Parent.Name]
			}
			if len(parents) == 0 {
				count = 0
			}
		}
		gen := &fake.Generator{Contract: c, Faker: streamFaker(cat.Seed, r.Name, i == 0), Refs: refs}
		// The id is assigned; a property several allOf members declare
		// is made of them all.
		props := slices.Clone(fake.Shared(r.Item, r.Properties)[1:])
		mixes := make([][]int, len(props))
		exact := make([]bool, len(props))
		plans := make([]func() any, len(props))
		for j, p := range props {
			exact[j] = fake.Exact(p.Schema)
			plans[j] = gen.Plan(p.Schema, fake.Hint{Property: p.Name, Resource: r.Name})
			if p.Name == "status" && cat.StatusMix != nil {
				// The enumeration the mix weighs may be a member's of
				// the status's allOf (see fake.Shared).
				enum := spec.EnumOf(p.Schema)
				if len(cat.StatusMix) != len(enum) {
					return nil, nil, fmt.Errorf("status mix %v: want %d weights, one for each of %v", cat.StatusMix, len(enum), enum)
				}
				mixes[j] = cat.StatusMix
				props[j].Schema = &openapi3.Schema{Enum: enum}
			}
		}
		for _, mix := range mixes {
			if mix == nil {
				continue
			}
			total := 0
			for _, w := range mix {
				if w < 0 {
					return nil, nil, fmt.Errorf("status mix %v: weights must not be negative", mix)
				}
				total += w
			}
			if total == 0 {
				return nil, nil, errors.New("status mix: at least one weight must be positive")
			}
		}
		entries := make([]store.Entry, count)
		item := make(map[string]any, len(props)+1)
		// The items of a resource whose create sends their ids, such as
		// users by username, are named as realistically as any other
		// property, each name once; ids made from the schema otherwise.
		var names map[string]bool
		var namePlan func() any
		if rs.ids.named {
			names = make(map[string]bool, count)
			namePlan = gen.Plan(r.Properties[0].Schema, fake.Hint{Property: r.IDProperty, Resource: r.Name})
		}
		// The texts go to large buffers rather than one allocation each,
		// and items with the same filter keys share one slice of them: a
		// catalogue of a million items is made in a few hundred
		// milliseconds. A buffer is twice the size of the texts made
		// before it, up to a megabyte, so that a document of many
		// resources of a few items each does not take a megabyte each.
		idKeyed := slices.Contains(rs.keyProps, r.IDProperty)
		var buf []byte
		made := 0
		tuples := map[string][]string{}
		keys := make([]string, rs.nkeys)
		whole := false
		var listFit *fitter
		if len(listSchemas(c, r)) > 0 {
			listFit, _ = newFitter(c, r, cat.Seed^hashString("lists"))
		}
	items:
		for n := range entries {
			if n%1024 == 0 && ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			clear(item)
			for j, p := range props {
				v, err := makeValue(gen, p, plans[j], mixes[j], exact[j])
				if err != nil && lenient {
					warnings = append(warnings, fmt.Sprintf("catalogue of %s: %s: %v; the resource starts empty", r.Name, p.Name, err))
					entries = nil
					break items
				}
				if err != nil {
					return nil, nil, fmt.Errorf("%s: %s: %w", r.Name, p.Name, err)
				}
				item[p.Name] = v
			}
			if n == 0 && alternatives(r.Item) {
				whole = !matchesWithID(gen, rs, item)
			}
			if whole {
				// An item whose oneOf is told apart by members its
				// properties do not list is made of the whole schema.
				if err := wholeItem(gen, r, item); err != nil {
					if lenient {
						warnings = append(warnings, fmt.Sprintf("catalogue of %s: %v; its items may not match it", r.Name, err))
					}
					whole = false
				}
			}
			// What the lists answer too, they must take too.
			listFit.fitToLists(item)
			if cap(buf)-len(buf) < 4<<10 {
				made += len(buf)
				buf = make([]byte, 0, min(1<<20, max(8<<10, 2*made)))
			}
			id, name := int64(n+1), ""
			if names != nil {
				for try := 0; name == "" || names[name]; try++ {
					if try == maxSeededNameTries && lenient {
						// A schema of few names, such as an enum, holds
						// the items it names, not a refusal of the document.
						warnings = append(warnings, fmt.Sprintf("catalogue of %s: petmock finds no more than %d names the schema of %s allows, so the resource starts with that many items", r.Name, n, r.IDProperty))
						entries = entries[:n]
						break items
					}
					if try == maxSeededNameTries {
						return nil, nil, fmt.Errorf("%s: %s: %d items, and the schema of %s allows no more names petmock finds; ask for fewer", r.Name, r.IDProperty, n, r.IDProperty)
					}
					name, _ = namePlan().(string)
					if try >= maxIDTries || r.Properties[0].Schema.VisitJSON(name) != nil {
						name = rs.ids.made(id, try)
					}
				}
				names[name] = true
			}
			entries[n], buf = rs.appendEntry(buf, id, name, item, whole)
			if idKeyed {
				// A filter by the id (?id=1) keys each item by it.
				rs.setID(item, id, name)
			}
			rs.keys(item, keys)
			if parents != nil {
				keys[rs.parentKey] = parents[n%len(parents)]
			}
			joined := strings.Join(keys, "\x00")
			shared, ok := tuples[joined]
			if !ok {
				shared = slices.Clone(keys)
				tuples[joined] = shared
			}
			entries[n].Keys = shared
		}
		out[r.Name] = entries
		if r.IDIsString || parentOf[r.Name] {
			held := make([]string, len(entries))
			for n, e := range entries {
				held[n] = rs.idText(e.ID, e.Name)
			}
			known[r.Name] = held
		}
	}
	return out, warnings, nil
}

// maxSeededNameTries bounds the names made for one item of a
// catalogue, when those made before are taken.
const maxSeededNameTries = 1000

// makeValue makes the value of one property of a generated item. An
// inexact schema, one the generator may miss, is checked.
func makeValue(gen *fake.Generator, p spec.Property, plan func() any, mix []int, exact bool) (any, error) {
	if mix != nil {
		total := 0
		for _, w := range mix {
			total += w
		}
		return jsonValue(p.Schema.Enum[fake.Pick(gen.Faker.IntN(total), mix)]), nil
	}
	if exact {
		return plan(), nil
	}
	var last error
	for range 20 {
		v := plan()
		if last = p.Schema.VisitJSON(v, openapi3.DisableSchemaErrorDetails()); last == nil {
			return v, nil
		}
	}
	why, _, _ := strings.Cut(last.Error(), "\n")
	return nil, fmt.Errorf("%w: %s", fake.ErrNoValue, why)
}

// alternatives reports whether s, or an allOf member of it, has a oneOf or
// an anyOf, whose members' properties the item's do not list.
func alternatives(s *openapi3.Schema) bool {
	var visit func(s *openapi3.Schema, depth int) bool
	visit = func(s *openapi3.Schema, depth int) bool {
		if s == nil || depth > 32 {
			return false
		}
		if len(s.OneOf) > 0 || len(s.AnyOf) > 0 {
			return true
		}
		for _, m := range s.AllOf {
			if m != nil && visit(m.Value, depth+1) {
				return true
			}
		}
		return false
	}
	return visit(s, 0)
}

// matchesWithID reports whether item, with an id, matches the item's
// schema of rs.
func matchesWithID(gen *fake.Generator, rs *Resource, item map[string]any) bool {
	probe := maps.Clone(item)
	rs.setID(probe, 1, "")
	return gen.Matches(rs.spec.Item, probe)
}

// wholeItem makes item anew from the item's schema of r, whole, as a
// value of one member of each of its oneOfs. It leaves item as it was
// where no value made matches.
func wholeItem(gen *fake.Generator, r *spec.Resource, item map[string]any) error {
	v, err := gen.Valid(r.Item, fake.Hint{Resource: r.Name})
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("a value of the item's schema is no object: %s", spec.TypeOf(r.Item))
	}
	clear(item)
	maps.Copy(item, m)
	return nil
}

// streamFaker returns the faker of a resource's catalogue. Each resource
// draws from a stream of its own, so that a resource added to the document
// changes no other's catalogue; the first resource's stream is the seed
// itself, as petmock's catalogues of pets have always been.
func streamFaker(seed uint64, name string, first bool) *gofakeit.Faker {
	if first {
		return fake.NewFaker(seed)
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	return gofakeit.NewFaker(rand.NewPCG(seed, seed^h.Sum64()), false)
}
