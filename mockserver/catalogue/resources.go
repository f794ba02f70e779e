package catalogue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
)

// Resources are the resources of one document and the items they hold.
type Resources struct {
	contract *spec.Contract
	list     []*Resource          // in the order of the contract
	byName   map[string]*Resource // by name
	log      *slog.Logger
	events   *journal.Hub
	// durable is what a command that keeps the items told the catalogue,
	// shared with those that take over from it.
	durable *durability
	// notes are what New found to say of the resources.
	notes []string

	// handing is held by TakeOver while a successor takes over from set,
	// and read-held by the scenarios, which write every store at once,
	// so that none writes a store that was handed over (see settled).
	handing sync.RWMutex
	// successor is the catalogue that took over from set, or nil.
	successor atomic.Pointer[Resources]
}

// Config configures the Resources New makes. Its zero value is not valid:
// Contract, Shapes and Events are required.
type Config struct {
	// Contract is the document whose resources they are.
	Contract *spec.Contract
	// Shapes are the shapes of the document's schemas.
	Shapes *shape.Builder
	// Seed seeds the ids made for new items, where the document's ids are
	// neither integers nor written in order; the generated catalogue's.
	Seed uint64
	// Limits bound every store.
	Limits store.Limits
	// Log, when not nil, gets a line for each scenario played.
	Log *slog.Logger
	// Events is told when the items change other than through the API.
	Events *journal.Hub
	// Generate says that the stores will start with a generated
	// catalogue, rather than items given, for the notes of resources
	// whose catalogue holds none.
	Generate bool
}

// New returns the resources of cfg.Contract, each with an empty store.
// Fill gives them their starting items.
func New(cfg Config) *Resources {
	c := cfg.Contract
	set := &Resources{contract: c, byName: map[string]*Resource{}, log: cfg.Log, events: cfg.Events, durable: &durability{}}
	for _, r := range c.Resources {
		rs := newResource(r, cfg.Shapes, cfg.Seed)
		rs.set = set
		set.notes = append(set.notes, rs.wrapLists(c, cfg.Shapes, cfg.Seed)...)
		set.notes = append(set.notes, rs.wrapItems(c, cfg.Shapes, cfg.Seed)...)
		var notes []string
		rs.fitter, notes = newFitter(c, r, cfg.Seed)
		set.notes = append(set.notes, notes...)
		rs.store.SetLimits(cfg.Limits)
		set.list = append(set.list, rs)
		set.byName[r.Name] = rs
		if rs.note != "" {
			set.notes = append(set.notes, rs.note)
		}
	}
	for _, rs := range set.list {
		if p := rs.spec.Parent; p != nil {
			rs.parent = set.byName[p.Name]
		}
		if cfg.Generate && rs.parentKey >= 0 && !rs.namesParent() && (rs.parent == nil || rs.parent.parentKey >= 0) {
			set.notes = append(set.notes, fmt.Sprintf("paths.%s: the catalogue has no %s, as no resource holds the %s they belong to; what a client creates below one is kept",
				rs.spec.CollectionPath, rs.spec.Name, strings.Join(rs.spec.ParentParams, " and ")))
		}
	}
	return set
}

// Notes say, one line each, what the catalogue does that the document
// does not say, such as how it writes ids the schema gives no order of.
func (set *Resources) Notes() []string { return set.notes }

// Resource returns the resource of the given name, or nil.
func (set *Resources) Resource(name string) *Resource { return set.byName[name] }

// Store returns the store of the resource of the given name, or nil.
func (set *Resources) Store(resource string) *store.Store {
	if rs := set.byName[resource]; rs != nil {
		return rs.store
	}
	return nil
}

// Fill puts the starting items in the stores, and marks them as the state
// a reset returns to: items, by resource name, or, when items is nil, the
// catalogue seeded describes, until ctx is done. It returns what it warns
// of, such as a resource whose items cannot be made, which starts empty.
func (set *Resources) Fill(ctx context.Context, items Items, seeded *Seeded) ([]string, error) {
	if items == nil {
		cat := Seeded{Seed: DefaultSeed}
		if seeded != nil {
			cat = *seeded
		}
		entries, warnings, err := generate(ctx, set.contract, shape.NewBuilder(set.contract), cat, !set.contract.Strict)
		if err != nil {
			return nil, err
		}
		for _, rs := range set.list {
			if err := rs.store.Replace(entries[rs.spec.Name]); err != nil {
				return nil, fmt.Errorf("catalogue of %s: %w", rs.spec.Name, err)
			}
			rs.start = rs.store.Mark()
		}
		return warnings, nil
	}
	for name := range items {
		if set.byName[name] == nil {
			return nil, fmt.Errorf("items of %s: the document has no such resource (it has %s)", name, resourceList(set.list))
		}
	}
	for _, rs := range set.list {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		entries, err := rs.entries(items[rs.spec.Name])
		if err != nil {
			return nil, err
		}
		if err := rs.store.Replace(entries); err != nil {
			return nil, fmt.Errorf("items of %s: %w", rs.spec.Name, err)
		}
		rs.start = rs.store.Mark()
	}
	return nil, nil
}

// Handover is what a catalogue that took over from another kept of its
// items: see TakeOver.
type Handover struct {
	// Kept is how many items it took over of each resource both
	// documents have, by name, and Dropped how many of them it left out,
	// as they do not fit the new document's item schema.
	Kept, Dropped map[string]int
	// Added are the resources of the new document only, which start with
	// their starting items; Removed those of the old one only.
	Added, Removed []string
}

// TakeOver makes set, new from New and Fill, perhaps for another version
// of the document, the successor of old, which it takes over from: the
// items of each resource both documents have, by name, as each item is
// made to fit set's document (see carried), the ids going on from where
// old gave them, and what a command that keeps the items told old
// (SetCommit, SetPersistError). A resource of set only keeps its starting
// items.
//
// While it runs, old's writes and scenarios wait. Once set holds the
// items, and before any waiting write goes on, it calls publish: from
// then on, a write of a request in flight on old is made to set's stores
// instead. It fails, changing nothing and not calling publish, if a store
// of set cannot hold the items within its limits, or if another catalogue
// took over from old already.
func (set *Resources) TakeOver(old *Resources, publish func()) (Handover, error) {
	if old == set {
		return Handover{}, errors.New("a server cannot take over from itself")
	}
	old.handing.Lock()
	defer old.handing.Unlock()
	if old.successor.Load() != nil {
		return Handover{}, errors.New("another server took over from this one already")
	}
	h := Handover{Kept: map[string]int{}, Dropped: map[string]int{}, Added: []string{}, Removed: []string{}}
	var moves []store.Move
	var names []string
	for _, rs := range set.list {
		prev := old.byName[rs.spec.Name]
		if prev == nil {
			h.Added = append(h.Added, rs.spec.Name)
			continue
		}
		moves = append(moves, store.Move{From: prev.store, To: rs.store, Convert: carried(prev, rs)})
		names = append(names, rs.spec.Name)
	}
	for _, rs := range old.list {
		if set.byName[rs.spec.Name] == nil {
			h.Removed = append(h.Removed, rs.spec.Name)
		}
	}
	dropped, err := store.HandOver(moves, func() {
		set.durable = old.durable
		old.successor.Store(set)
		if publish != nil {
			publish()
		}
	})
	if err != nil {
		return Handover{}, err
	}
	for i, name := range names {
		h.Dropped[name] = dropped[i]
		h.Kept[name] = set.byName[name].store.Len()
	}
	return h, nil
}

// settled returns the catalogue that holds the items now, set or the last
// that took over from it, with no takeover from it under way until done
// is called: a scenario, which writes every store, writes those of that
// catalogue, and none that was handed over.
func (set *Resources) settled() (latest *Resources, done func()) {
	for {
		set.handing.RLock()
		next := set.successor.Load()
		if next == nil {
			return set, set.handing.RUnlock
		}
		set.handing.RUnlock()
		set = next
	}
}
