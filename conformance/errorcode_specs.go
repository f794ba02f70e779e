package conformance

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	"github.com/petstore/contract/conformance/judge"
)

// describeErrorCodes declares petmock's set of Error codes.
func (s *suite) describeErrorCodes() {
	if !s.runs(LabelStrict) {
		return
	}
	var entries []TableEntry
	for _, r := range refusedRequests {
		switch {
		case !r.mutating:
			entries = append(entries, Entry(r.name, r.send))
		case s.runs(LabelMutating):
			entries = append(entries, Entry(r.name, Label(LabelMutating), r.send))
		}
	}
	Describe("error codes", Label("errors", LabelStrict), func() {
		DescribeTable("strict: uses the codes the document lists",
			func(ctx SpecContext, send func(context.Context, *harness) (*judge.Exchange, error)) {
				verdict(s.h.checkStrictErrorCode(ctx, send))
			},
			entries,
		)
	})
}
