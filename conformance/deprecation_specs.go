package conformance

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
)

// deprecationDate is an RFC 9745 Deprecation value: "@" and unix seconds.
var deprecationDate = regexp.MustCompile(`^@(-?[0-9]+)$`)

// describeDeprecation declares the specs of getPet's deprecation headers,
// on a 200 and on a 404.
func (s *suite) describeDeprecation() {
	Describe("deprecation of getPet", Label("deprecation", "getPet"), func() {
		BeforeEach(func() { s.h.skipPastSunset() })

		answers := []TableEntry{
			Entry("on a 200 for a listed pet", func(ctx context.Context, h *harness) *exchange {
				return h.readListed(ctx)
			}),
			Entry("on a 404 for an id no pet has", func(ctx context.Context, h *harness) *exchange {
				x := h.getPet(ctx, h.absentID())
				x.require(x.status == http.StatusNotFound, ruleNotFound, fmt.Sprintf("status %d, want 404", x.status))
				return x
			}),
		}

		DescribeTable("a Sunset header, where present, names the removal day",
			func(ctx SpecContext, answer func(context.Context, *harness) *exchange) {
				h := s.h
				x := answer(ctx, h)
				if v := x.header.Get("Sunset"); v != "" {
					t, err := http.ParseTime(v)
					x.require(err == nil, ruleSunset, fmt.Sprintf("Sunset %q is not an HTTP-date", v))
					x.require(t.UTC().Format(time.DateOnly) == h.contract.SunsetDay, ruleSunset, fmt.Sprintf("Sunset %q is not on %s", v, h.contract.SunsetDay))
				}
			},
			answers,
		)

		DescribeTable("a Deprecation header, where present, is an RFC 9745 date no later than the Sunset",
			func(ctx SpecContext, answer func(context.Context, *harness) *exchange) {
				h := s.h
				x := answer(ctx, h)
				v := x.header.Get("Deprecation")
				if v == "" {
					return
				}
				m := deprecationDate.FindStringSubmatch(v)
				x.require(m != nil, ruleDeprecation, fmt.Sprintf("Deprecation %q is not @<unix seconds>", v))
				secs, err := strconv.ParseInt(m[1], 10, 64)
				x.require(err == nil, ruleDeprecation, fmt.Sprintf("Deprecation %q is out of range", v))
				sunset := h.contract.Deprecation.Sunset
				if t, err := http.ParseTime(x.header.Get("Sunset")); err == nil {
					sunset = t
				}
				x.require(secs <= sunset.Unix(), ruleDeprecation,
					fmt.Sprintf("Deprecation %q (%s) is after the Sunset (%s)", v, time.Unix(secs, 0).UTC().Format(time.RFC3339), sunset.UTC().Format(time.RFC3339)))
			},
			answers,
		)

		if !s.runs(LabelStrict) {
			return
		}
		DescribeTable("strict: carries Deprecation, Sunset and a successor-version Link", Label(LabelStrict),
			func(ctx SpecContext, answer func(context.Context, *harness) *exchange) {
				h := s.h
				d := h.contract.Deprecation
				x := answer(ctx, h)
				sunset, deprecation := d.Sunset.UTC().Format(http.TimeFormat), "@"+strconv.FormatInt(d.Since.Unix(), 10)
				x.require(x.header.Get("Sunset") == sunset, ruleStrictDeprecation, fmt.Sprintf("Sunset %q, want %q", x.header.Get("Sunset"), sunset))
				x.require(x.header.Get("Deprecation") == deprecation, ruleStrictDeprecation, fmt.Sprintf("Deprecation %q, want %q", x.header.Get("Deprecation"), deprecation))
				x.require(linkTarget(x.header, "successor-version") != "", ruleStrictDeprecation, `no Link with rel="successor-version"`)
			},
			answers,
		)
	})
}
