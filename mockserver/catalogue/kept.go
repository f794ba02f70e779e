package catalogue

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
)

// A command that keeps the items elsewhere, such as petmock --state's log,
// is told every write as it is made (SetKeeper), rather than reading every
// item again at each save: what a write costs it does not grow with the
// store. It gives them back at the next start (Recover), each item with
// the form it was written in, so that an item written for the document
// that serves is taken as it is, and one written for another version is
// made to fit this one, or held back (see Held).

// Keeper keeps the items of a catalogue, and of those that take over from
// it, as they are written (see SetKeeper).
type Keeper interface {
	// Wrote is told of a write of the store of rs before readers see
	// it, under the store's lock, so that the writes of a store are told
	// in the order they are made: it should be quick. An error refuses
	// the write, which then changes nothing and is answered 503 with the
	// error.
	Wrote(rs *Resource, w store.Write) error
	// TookOver is told that set took over from the catalogue that
	// serves (see TakeOver), once set holds the items and before any
	// write is made to it: from then on, Wrote is told of set's writes.
	// No write of either catalogue is made while it runs.
	TookOver(set *Resources)
}

// SetKeeper makes k be told of every later write to the items, of this
// catalogue and those that take over from it; nil, the default, tells
// nothing. It is safe to call at any time.
func (set *Resources) SetKeeper(k Keeper) {
	if k == nil {
		set.durable.keeper.Store(nil)
		return
	}
	set.durable.keeper.Store(&k)
}

// wrote is the tap of the store of rs: the write is told to the keeper,
// and a write that replaces every item, as a scenario does, lets go of
// the items held back of rs (see Held), which it replaces too.
func (set *Resources) wrote(rs *Resource, w store.Write) error {
	if k := set.durable.keeper.Load(); k != nil {
		if err := (*k).Wrote(rs, w); err != nil {
			return edge.NewError(http.StatusServiceUnavailable, "state", "%v; nothing was changed", err)
		}
	}
	if w.Kind == store.WriteReplace {
		set.held.drop(rs.spec.Name)
	}
	return nil
}

// List returns the resources, in the order of the contract.
func (set *Resources) List() []*Resource { return slices.Clone(set.list) }

// Form says how the items of a resource are written in its store: an
// item kept in the form of the resource that serves is taken as it is,
// and one of another form is made to fit (see Recover).
type Form struct {
	// Document is a digest of the document the items were written for:
	// of another document, their schema, filters and ids may differ.
	Document string
	// Seed is that of the UUIDs and made ids, which write an id.
	Seed uint64
	// IDProperty is the property an item's id is written in.
	IDProperty string
	// ParentKey is the index of the key of an item's parent among its
	// keys, or -1 for a resource of no parent.
	ParentKey int
}

// Form returns the form the resource's items are written in.
func (rs *Resource) Form() Form {
	return Form{Document: rs.set.digest(), Seed: rs.ids.seed, IDProperty: rs.spec.IDProperty, ParentKey: rs.parentKey}
}

// digest returns a digest of the document, made on first use: only a
// keeper needs one.
func (set *Resources) digest() string {
	set.digestOnce.Do(func() {
		sum := sha256.Sum256(set.contract.Source())
		set.digested = hex.EncodeToString(sum[:12])
	})
	return set.digested
}

// fit returns the entry of e, an item written in the form from, as rs,
// whose form is form, holds it, or, when it cannot, why: an item of rs's
// own form as it is, and any other as TakeOver makes an item of another
// document fit (see carried).
func (rs *Resource) fit(e store.Entry, from *Form, form Form) (store.Entry, string) {
	if *from == form && len(e.Keys) == rs.nkeys {
		return e, ""
	}
	return rs.convert(e, *from)
}

// convert makes e, an item written in the form from, an item of rs: see
// carried. It returns why, when it cannot.
func (rs *Resource) convert(e store.Entry, from Form) (store.Entry, string) {
	v, bad := edge.DecodeJSON(e.Text)
	item, ok := v.(map[string]any)
	if bad != nil || !ok {
		return store.Entry{}, "it is not a JSON object"
	}
	written := item[from.IDProperty]
	delete(item, from.IDProperty)
	if ap := rs.spec.Item.AdditionalProperties.Has; ap != nil && !*ap {
		for name := range item {
			if !slices.ContainsFunc(rs.spec.Properties, func(p spec.Property) bool { return p.Name == name }) {
				delete(item, name)
			}
		}
	}
	rs.withDefaults(item)
	rs.fillRequired(item, e.ID)
	name := e.Name
	switch {
	case rs.ids.kind == idInteger:
		name = ""
	case name == "" && from.Seed != rs.ids.seed:
		// The id was written with another seed: clients know it by what
		// was written, which this resource would write otherwise.
		if s, ok := written.(string); ok && s != rs.ids.text(e.ID) {
			name = s
		}
	}
	if name == "" && rs.ids.kind != idInteger && rs.ids.named {
		// The resource finds its items by their names only.
		name = rs.ids.made(e.ID, 0)
	}
	rs.setID(item, e.ID, name)
	if err := rs.spec.Item.VisitJSON(item, openapi3.DisableSchemaErrorDetails(), openapi3.VisitAsResponse()); err != nil {
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			return store.Entry{}, edge.SchemaError(rs.singular, se).Message
		}
		return store.Entry{}, err.Error()
	}
	if bad := rs.shape.ExactIntegers(item, ""); bad != nil {
		return store.Entry{}, fmt.Sprintf("%s: must be an integer (int%d)", bad.Field, bad.Bits)
	}
	out := rs.entry(e.ID, name, item)
	if rs.parentKey >= 0 && out.Keys[rs.parentKey] == shape.AbsentKey && from.ParentKey >= 0 && from.ParentKey < len(e.Keys) {
		out.Keys[rs.parentKey] = e.Keys[from.ParentKey]
	}
	return out, ""
}

// KeptItem is an item as a keeper kept it: its entry, and the form it was
// written in.
type KeptItem struct {
	Entry store.Entry
	// Form is shared by the items of one form.
	Form *Form
}

// KeptResource is what a keeper kept of the items of one resource.
type KeptResource struct {
	// Name is the resource's, which the document that serves may no
	// longer have.
	Name string
	// Items are those it served, in order of id.
	Items []KeptItem
	// Held are those it held back (see Held).
	Held []Held
	// Next is the id it gave next; 0 when none was left.
	Next int64
}

// Recovered is what Recover made of the items kept, by resource.
type Recovered struct {
	// Served counts the items each resource serves now, and Converted
	// those of them that were written in another form and made to fit.
	Served, Converted map[string]int
	// Held counts the items held back of each resource, served by no
	// version of the document yet, or by this one no longer.
	Held map[string]int
	// Filled says, one line each, which property the document requires
	// that items kept lacked, and what they were given (see TakeOver).
	Filled []string
}

// Recover makes the items of every resource kept those kept of it, as
// petmock --state starts: each item written in the form of the document
// that serves taken as it is, and any other made to fit, as a reload makes
// an item fit; an item that does not fit, and every item of a resource the
// document does not have, are held back (see Held). Ids go on from where
// they were given. A resource nothing was kept of holds its starting
// items. It fails, changing nothing, if a store cannot hold its items
// within its limits.
func (set *Resources) Recover(kept []KeptResource) (Recovered, error) {
	set, done := set.settled()
	defer done()
	out := Recovered{Served: map[string]int{}, Converted: map[string]int{}, Held: map[string]int{}}
	held, heldNext := map[string][]Held{}, map[string]int64{}
	var stores []*store.Store
	var entries [][]store.Entry
	var nexts []int64
	for _, k := range kept {
		rs := set.byName[k.Name]
		if rs == nil {
			for _, it := range k.Items {
				held[k.Name] = append(held[k.Name], Held{KeptItem: it, Reason: "the document has no resource " + k.Name})
			}
			held[k.Name] = append(held[k.Name], k.Held...)
			heldNext[k.Name] = k.Next
			continue
		}
		// The items come in order of id, each once, and are served in
		// that order; the held items a version takes again are added
		// after, and sorted in.
		form := rs.Form()
		served := make([]store.Entry, 0, len(k.Items))
		var names map[string]bool
		var ids map[int64]bool // of the items served, once one held is taken again
		take := func(it KeptItem) string {
			if ids != nil && ids[it.Entry.ID] {
				return fmt.Sprintf("id %d is another %s's", it.Entry.ID, rs.singular)
			}
			e, why := rs.fit(it.Entry, it.Form, form)
			if why != "" {
				return why
			}
			if e.Name != "" {
				if names == nil {
					names = map[string]bool{}
				}
				if names[e.Name] {
					return fmt.Sprintf("%s is another %s's id", e.Name, rs.singular)
				}
				names[e.Name] = true
			}
			if *it.Form != form {
				out.Converted[k.Name]++
			}
			served = append(served, e)
			if ids != nil {
				ids[e.ID] = true
			}
			return ""
		}
		for _, it := range k.Items {
			if why := take(it); why != "" {
				held[k.Name] = append(held[k.Name], Held{KeptItem: it, Reason: why})
			}
		}
		if len(k.Held) > 0 {
			ids = make(map[int64]bool, len(served))
			for _, e := range served {
				ids[e.ID] = true
			}
			for _, h := range k.Held {
				if why := take(h.KeptItem); why != "" {
					h.Reason = why
					held[k.Name] = append(held[k.Name], h)
				}
			}
			slices.SortFunc(served, func(a, b store.Entry) int { return cmpID(a.ID, b.ID) })
		}
		next := k.Next
		for _, h := range held[k.Name] {
			next = later(next, h.Entry.ID)
		}
		stores, entries, nexts = append(stores, rs.store), append(entries, served), append(nexts, next)
		out.Served[k.Name] = len(served)
	}
	if err := store.ReplaceAllFrom(stores, entries, nexts); err != nil {
		return Recovered{}, err
	}
	for name, items := range held {
		slices.SortFunc(items, func(a, b Held) int { return cmpID(a.Entry.ID, b.Entry.ID) })
		out.Held[name] = len(items)
	}
	set.held.set(held, heldNext)
	for _, rs := range set.list {
		out.Filled = append(out.Filled, rs.filledNotes()...)
	}
	return out, nil
}

// later returns next, or the id after id when that is later: the id a
// store gives next that has held id. 0, none left, is the latest.
func later(next, id int64) int64 {
	if next == 0 || id == 1<<63-1 {
		return 0
	}
	return max(next, id+1)
}

// cmpID orders ids.
func cmpID(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// digestState is the digest of a catalogue's document, made on first use.
type digestState struct {
	digestOnce sync.Once
	digested   string
}

// Hold calls f with no write to the items under way, and none made until
// f returns, with the catalogue that holds them: this one, or the last
// that took over from it. It is how a keeper takes the state of every
// store at one instant, consistent with the writes it was told of.
func (set *Resources) Hold(f func(set *Resources)) {
	set, done := set.settled()
	defer done()
	stores := make([]*store.Store, len(set.list))
	for i, rs := range set.list {
		stores[i] = rs.store
	}
	store.Hold(stores, func() { f(set) })
}
