package conformance

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// LabelGeneric marks the checks made from the document alone, for every
// operation and resource it describes, beside the Petstore's own.
const LabelGeneric = "generic"

// opLabel returns the label of an operation's checks: its id, with the
// characters a label may not hold replaced.
func opLabel(op *spec.Operation) string {
	return "op:" + strings.Map(func(r rune) rune {
		if strings.ContainsRune("&|!,()/ {}\"'", r) {
			return '-'
		}
		return r
	}, op.ID)
}

// opLabels are the labels of the checks of op that send it.
func opLabels(op *spec.Operation, labels ...string) []string {
	labels = append(labels, LabelGeneric, opLabel(op))
	if request.Mutating(op) {
		labels = append(labels, LabelMutating)
	}
	return labels
}

// describeOperations declares the generic checks of every operation: it
// is served, it answers a valid request with a documented success, a
// secured one refuses requests without a valid key, and one that takes
// input refuses input that breaks its schema.
func (s *suite) describeOperations() {
	for _, op := range s.contract.Operations {
		if !s.runs(opLabels(op)...) {
			continue
		}
		Describe("operation "+op.ID+" ("+op.Method+" "+op.Path+")", func() {
			BeforeEach(func() { verdict(s.h.Served(op)) })

			It("answers a valid request with a documented success", Label(opLabels(op, "answers")...), func(ctx SpecContext) {
				verdict(s.h.CheckValidRequest(ctx, op))
			})

			// An empty alternative of its security makes the key
			// optional: a request without one is to be answered.
			switch {
			case request.RequiresKey(op):
				It("refuses, with the 401 or 403 it documents, a request without a key", Label(opLabels(op, "auth")...), func(ctx SpecContext) {
					verdict(s.h.CheckRefused(ctx, op, ""))
				})
				It("refuses, with the 401 or 403 it documents, a request with a wrong key", Label(opLabels(op, "auth")...), func(ctx SpecContext) {
					verdict(s.h.CheckRefused(ctx, op, s.h.InvalidKey()))
				})
			case request.KeyOptional(op):
				It("answers a valid request without a key, which its document makes optional", Label(opLabels(op, "auth")...), func(ctx SpecContext) {
					verdict(s.h.CheckWithoutKey(ctx, op))
				})
			}

			if cases := request.InvalidRequests(s.contract.Contract, op); len(cases) > 0 {
				var entries []TableEntry
				for _, c := range cases {
					entries = append(entries, Entry(c.Name, c))
				}
				DescribeTable("answers a request that breaks the schema with a documented 4xx", Label(opLabels(op, "invalid")...),
					func(ctx SpecContext, c request.InvalidRequest) {
						verdict(s.h.CheckInvalidRequest(ctx, op, c))
					}, entries)
			}
		})
	}
}

// describeCredentials declares the checks of keys near the run's: for each
// security scheme the document uses, on one operation that requires it,
// the key in another case, with a character more or less, empty, or in a
// place the document does not give, each gets 401.
func (s *suite) describeCredentials() {
	for _, t := range request.SchemeTrials(s.contract.Contract) {
		if !s.runs(opLabels(t.Op)...) {
			continue
		}
		var entries []TableEntry
		for _, m := range request.NearMisses(s.key, t.Op, t.Scheme) {
			entries = append(entries, Entry(m.Name, m))
		}
		Describe("security scheme "+t.Scheme.Name+", on "+t.Op.ID, func() {
			BeforeEach(func() { verdict(s.h.Served(t.Op)) })
			DescribeTable("refuses, with the 401 or 403 it documents, for a key near the run's", Label(opLabels(t.Op, "auth")...),
				func(ctx SpecContext, m request.NearMiss) {
					verdict(s.h.CheckNearMiss(ctx, t, m))
				}, entries)
		})
	}
}
