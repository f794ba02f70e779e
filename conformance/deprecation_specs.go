package conformance

import (
	"context"

	. "github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/conformance/judge"
)

// describeDeprecation declares the specs of getPet's deprecation headers,
// on a 200 and on a 404.
func (s *suite) describeDeprecation() {
	Describe("deprecation of getPet", Label("deprecation", "getPet"), func() {
		BeforeEach(func() { verdict(s.h.BeforeSunset()) })

		var answers []TableEntry
		for _, a := range check.DeprecatedAnswers {
			answers = append(answers, Entry(a.Name, a.Get))
		}

		DescribeTable("a Sunset header, where present, names the removal day",
			func(ctx SpecContext, get func(context.Context, *check.Harness) (*judge.Exchange, error)) {
				verdict(s.h.CheckSunset(ctx, get))
			},
			answers,
		)

		DescribeTable("a Deprecation header, where present, is an RFC 9745 date no later than the Sunset",
			func(ctx SpecContext, get func(context.Context, *check.Harness) (*judge.Exchange, error)) {
				verdict(s.h.CheckDeprecation(ctx, get))
			},
			answers,
		)

		if !s.runs(LabelStrict) {
			return
		}
		DescribeTable("strict: carries Deprecation, Sunset and a successor-version Link", Label(LabelStrict),
			func(ctx SpecContext, get func(context.Context, *check.Harness) (*judge.Exchange, error)) {
				verdict(s.h.CheckStrictDeprecation(ctx, get))
			},
			answers,
		)
	})
}
