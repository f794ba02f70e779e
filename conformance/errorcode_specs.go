package conformance

import (
	"context"

	. "github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/conformance/judge"
)

// describeErrorCodes declares petmock's set of Error codes.
func (s *suite) describeErrorCodes() {
	if !s.runs(LabelStrict) {
		return
	}
	var entries []TableEntry
	for _, r := range check.RefusedRequests {
		switch {
		case !r.Mutating:
			entries = append(entries, Entry(r.Name, r.Send))
		case s.runs(LabelMutating):
			entries = append(entries, Entry(r.Name, Label(LabelMutating), r.Send))
		}
	}
	Describe("error codes", Label("errors", LabelStrict), func() {
		DescribeTable("strict: uses the codes the document lists",
			func(ctx SpecContext, send func(context.Context, *check.Harness) (*judge.Exchange, error)) {
				verdict(s.h.CheckStrictErrorCode(ctx, send))
			},
			entries,
		)
	})
}
