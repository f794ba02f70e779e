package catalogue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
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
	// held are the items held back, shared with those that take over.
	held *heldItems
	digestState
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
	set := &Resources{contract: c, byName: map[string]*Resource{}, log: cfg.Log, events: cfg.Events, durable: &durability{}, held: &heldItems{}}
	for _, r := range c.Resources {
		rs := newResource(r, cfg.Shapes, cfg.Seed)
		rs.set = set
		rs.store.SetTap(func(w store.Write) error { return set.wrote(rs, w) })
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
	// Kept is how many items each resource of the new document serves,
	// by name, of those both documents have or held back before.
	Kept map[string]int
	// Held is how many items are held back of each resource, by this
	// version of the document or one before, and Back how many of those
	// held back before this version serves again.
	Held, Back map[string]int
	// Added are the resources of the new document only, which start with
	// their starting items, or those held back of them; Removed those of
	// the old one only, whose items are held back.
	Added, Removed []string
	// Filled says, one line each, which property a version requires that
	// the items kept lacked, and what they were given.
	Filled []string
}

// TakeOver makes set, new from New and Fill, perhaps for another version
// of the document, the successor of old, which it takes over from: the
// items of each resource both documents have, by name, as each item is
// made to fit set's document (see carried), the ids going on from where
// old gave them, and what a command that keeps the items told old
// (SetCommit, SetPersistError, SetKeeper). An item that does not fit, and
// every item of a resource set lacks, is held back rather than dropped
// (see Held), and an item held back before that fits set is served again:
// a resource a version dropped, or whose schema it tightened, comes back
// whole with the version after. A resource of set only keeps its starting
// items, unless items of it are held back, which it serves instead.
//
// While it runs, old's writes and scenarios wait. Once set holds the
// items, and before any waiting write goes on, it calls publish: from
// then on, a write of a request in flight on old is made to set's stores
// instead, and one to a resource set lacks is refused. It fails, changing
// nothing and not calling publish, if a store of set cannot hold the
// items within its limits, or if another catalogue took over from old
// already.
func (set *Resources) TakeOver(old *Resources, publish func()) (Handover, error) {
	if old == set {
		return Handover{}, errors.New("a server cannot take over from itself")
	}
	old.handing.Lock()
	defer old.handing.Unlock()
	if old.successor.Load() != nil {
		return Handover{}, errors.New("another server took over from this one already")
	}
	h := Handover{Kept: map[string]int{}, Held: map[string]int{}, Back: map[string]int{}, Added: []string{}, Removed: []string{}}
	heldBefore, nextBefore := old.held.all()
	// mover is what one move is of: the resource of each document, the
	// items held back before that fit set and go with it, and those that
	// still do not.
	type mover struct {
		name      string
		prev, rs  *Resource
		back      map[int64]Held
		stillHeld []Held
	}
	var moves []store.Move
	var movers []mover
	for _, rs := range set.list {
		name := rs.spec.Name
		prev := old.byName[name]
		mv := mover{name: name, prev: prev, rs: rs, back: map[int64]Held{}}
		form := rs.Form()
		m := store.Move{To: rs.store, Next: nextBefore[name]}
		for _, it := range heldBefore[name] {
			if e, why := rs.fit(it.Entry, it.Form, form); why == "" {
				m.Also = append(m.Also, e)
				mv.back[e.ID] = it
			} else {
				it.Reason = why
				mv.stillHeld = append(mv.stillHeld, it)
			}
		}
		if prev == nil {
			h.Added = append(h.Added, name)
			if len(m.Also) == 0 && m.Next == 0 {
				continue // a new resource: its starting items
			}
		} else {
			m.From, m.Convert = prev.store, carried(prev, rs)
		}
		moves, movers = append(moves, m), append(movers, mv)
	}
	for _, prev := range old.list {
		if set.byName[prev.spec.Name] == nil {
			h.Removed = append(h.Removed, prev.spec.Name)
			moves = append(moves, store.Move{From: prev.store})
			movers = append(movers, mover{name: prev.spec.Name, prev: prev})
		}
	}
	_, err := store.HandOver(moves, func(handed []store.Handed) {
		held, next := map[string][]Held{}, map[string]int64{}
		for name, items := range heldBefore {
			if set.byName[name] == nil && old.byName[name] == nil {
				held[name], next[name] = items, nextBefore[name]
			}
		}
		for i, mv := range movers {
			items := mv.stillHeld
			if mv.prev != nil {
				form := mv.prev.Form()
				for _, left := range handed[i].Left {
					why := left.Why
					if mv.rs == nil {
						why = "the document has no resource " + mv.name
					}
					items = append(items, Held{KeptItem: KeptItem{Entry: left.Entry, Form: &form}, Reason: why})
				}
			}
			for _, untaken := range handed[i].Untaken {
				it := mv.back[untaken.Entry.ID]
				delete(mv.back, untaken.Entry.ID)
				it.Reason = untaken.Why
				items = append(items, it)
			}
			if mv.rs == nil {
				next[mv.name] = handed[i].Next
			} else {
				h.Back[mv.name] = len(mv.back)
			}
			if len(items) > 0 {
				slices.SortFunc(items, func(a, b Held) int { return cmpID(a.Entry.ID, b.Entry.ID) })
				held[mv.name] = items
			}
		}
		set.durable, set.held = old.durable, old.held
		set.held.set(held, next)
		if k := set.durable.keeper.Load(); k != nil {
			(*k).TookOver(set)
		}
		old.successor.Store(set)
		if publish != nil {
			publish()
		}
	})
	if err != nil {
		return Handover{}, err
	}
	for _, rs := range set.list {
		if name := rs.spec.Name; old.byName[name] != nil || h.Back[name] > 0 {
			h.Kept[name] = rs.store.Len()
		}
		h.Filled = append(h.Filled, rs.filledNotes()...)
	}
	h.Held = set.HeldCounts()
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
