package conformance

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/spec"
)

// describeResources declares the checks of every resource the document
// describes: what is created reads back with every property sent and is
// listed, and, where the document has the operations, is replaced,
// updated and deleted. All create items, so all are labelled mutating.
func (s *suite) describeResources() {
	if !s.runs(LabelMutating) {
		return
	}
	// Last of all, whatever the order of the rest: the items the run
	// created are read again once it has made every other check.
	if slices.ContainsFunc(s.contract.Resources, func(res *spec.Resource) bool { return res.Read != nil }) {
		It("reads the items the run created and left alone again at its end, unchanged", Label(LabelGeneric, LabelMutating, "resource", "kept", behaviourLabel(behaviourKept)), SpecPriority(-1), func(ctx SpecContext) {
			verdict(s.h.CheckKept(ctx))
		})
	}
	for _, res := range s.contract.Resources {
		labels := Label(LabelGeneric, LabelMutating, "resource", "res:"+res.Name)
		Describe("resource "+res.Name, labels, func() {
			It("creates an item that reads back with every property sent, and lists it", Label(behaviourLabel(behaviourCreated)), func(ctx SpecContext) {
				verdict(s.h.CheckItemCreated(ctx, res))
			})
			if res.Replace != nil {
				It("replaces an item, which then reads back as sent", Label(behaviourLabel(behaviourReplaced)), func(ctx SpecContext) {
					verdict(s.h.CheckItemReplaced(ctx, res))
				})
			}
			if res.Update != nil {
				It("updates an item, which then reads back changed as asked and unchanged elsewhere", Label(behaviourLabel(behaviourUpdated)), func(ctx SpecContext) {
					verdict(s.h.CheckItemUpdated(ctx, res))
				})
			}
			if res.Delete != nil {
				It("deletes an item, which then reads 404", Label(behaviourLabel(behaviourDeleted)), func(ctx SpecContext) {
					verdict(s.h.CheckItemDeleted(ctx, res))
				})
			}
		})
	}
}

// describeUnknownIDs declares the check of each resource's read of an id
// no item has: it answers 404 where the read documents 404. It creates
// nothing, so a read-only run makes it too.
func (s *suite) describeUnknownIDs() {
	for _, res := range s.contract.Resources {
		if res.Read == nil || !s.runs(opLabels(res.Read)...) {
			continue
		}
		Describe("resource "+res.Name, Label(opLabels(res.Read, "resource", "not-found", "res:"+res.Name)...), func() {
			It("answers 404 to a read of an id no item has", Label(behaviourLabel(behaviourNotFound)), func(ctx SpecContext) {
				verdict(s.h.CheckUnknownID(ctx, res))
			})
		})
	}
}

// describeLists declares the checks of every list: it honours its limit
// and its filters, but the Petstore's listPets, which its own checks
// judge; and a walk through its pages, filtered or not, sees each item
// once, those the run created among them. Where the run may create, the
// walks create items to look for, so that they span pages.
func (s *suite) describeLists() {
	create := s.runs(LabelMutating)
	walkLabels := []string{"pagination"}
	if create {
		walkLabels = append(walkLabels, LabelMutating)
	}
	for _, res := range s.contract.Resources {
		if res.List == nil || !s.runs(opLabels(res.List)...) {
			continue
		}
		generic := s.contract.GenericList(res)
		var values []check.FilterValue
		if generic {
			values = check.FilterValues(res)
		}
		walks := []TableEntry{Entry("every item", walkOf{})}
		for _, f := range check.WalkFilters(res) {
			walks = append(walks, Entry("filtered by "+f.Name(), walkOf{&f}))
		}
		Describe("list "+res.List.ID+" of "+res.Name, Label(opLabels(res.List, "list", "res:"+res.Name)...), func() {
			BeforeEach(func() { verdict(s.h.Served(res.List)) })
			if generic && res.Paging.Limit != "" {
				It("returns as many items as its limit asks, when that many exist", Label(behaviourLabel(behaviourLimit)), func(ctx SpecContext) {
					verdict(s.h.CheckListLimit(ctx, res))
				})
			}
			if len(values) > 0 {
				var entries []TableEntry
				for _, fv := range values {
					entries = append(entries, Entry(fv.Name(), fv))
				}
				DescribeTable("returns only items of the value a filter asks for", Label(behaviourLabel(behaviourFilter)),
					func(ctx SpecContext, fv check.FilterValue) {
						verdict(s.h.CheckListFilter(ctx, res, fv))
					}, entries)
			}
			DescribeTable("walks its pages to the end through their next links, each item once", Label(append(walkLabels, behaviourLabel(behaviourWalked))...),
				func(ctx SpecContext, w walkOf) {
					verdict(s.h.CheckPages(ctx, res, w.filter, create))
				}, walks)
			if res.Read != nil {
				DescribeTable("lists each item as "+res.Read.ID+" reads it", Label(opLabel(res.Read), behaviourLabel(behaviourConsistent)),
					func(ctx SpecContext, w walkOf) {
						verdict(s.h.CheckListedReadsSame(ctx, res, w.filter))
					}, walks)
			}
		})
	}
}

// walkOf is the filter of a walk through a list's pages, nil for none.
type walkOf struct{ filter *spec.Filter }
