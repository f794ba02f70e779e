package conformance

import (
	. "github.com/onsi/ginkgo/v2"
)

// describeResources declares the checks of every resource the document
// describes: what is created reads back with every property sent and is
// listed, and, where the document has the operations, is replaced,
// updated and deleted. All create items, so all are labelled mutating.
func (s *suite) describeResources() {
	if !s.runs(LabelMutating) {
		return
	}
	for _, res := range s.contract.Resources {
		labels := Label(LabelGeneric, LabelMutating, "resource", "res:"+res.Name)
		Describe("resource "+res.Name, labels, func() {
			It("creates an item that reads back with every property sent, and lists it", func(ctx SpecContext) {
				verdict(s.h.checkItemCreated(ctx, res))
			})
			if res.Replace != nil {
				It("replaces an item, which then reads back as sent", func(ctx SpecContext) {
					verdict(s.h.checkItemReplaced(ctx, res))
				})
			}
			if res.Update != nil {
				It("updates an item, which then reads back changed as asked and unchanged elsewhere", func(ctx SpecContext) {
					verdict(s.h.checkItemUpdated(ctx, res))
				})
			}
			if res.Delete != nil {
				It("deletes an item, which then reads 404", func(ctx SpecContext) {
					verdict(s.h.checkItemDeleted(ctx, res))
				})
			}
		})
	}
}

// describeLists declares the checks of every list but the Petstore's,
// which its own checks judge: it honours its limit and its filters.
func (s *suite) describeLists() {
	for _, res := range s.contract.Resources {
		if !s.contract.genericList(res) || !s.runs(opLabels(res.List)...) {
			continue
		}
		values := filterValues(res)
		if res.Paging.Limit == "" && len(values) == 0 {
			continue
		}
		Describe("list "+res.List.ID+" of "+res.Name, Label(opLabels(res.List, "list", "res:"+res.Name)...), func() {
			BeforeEach(func() { verdict(s.h.served(res.List)) })
			if res.Paging.Limit != "" {
				It("returns as many items as its limit asks, when that many exist", func(ctx SpecContext) {
					verdict(s.h.checkListLimit(ctx, res))
				})
			}
			if len(values) > 0 {
				var entries []TableEntry
				for _, fv := range values {
					entries = append(entries, Entry(fv.name(), fv))
				}
				DescribeTable("returns only items of the value a filter asks for",
					func(ctx SpecContext, fv filterValue) {
						verdict(s.h.checkListFilter(ctx, res, fv))
					}, entries)
			}
		})
	}
}
