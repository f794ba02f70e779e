package conformance

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
)

// describeCreate declares the specs of createPet. Every one creates, or
// may create on a faulty server, so all are labelled LabelMutating.
func (s *suite) describeCreate() {
	c := s.contract
	if !s.runs(LabelMutating) {
		return
	}
	Describe("createPet", Label("createPet", LabelMutating), func() {
		var echo []TableEntry
		for _, st := range c.Statuses {
			echo = append(echo, Entry("status "+st, st))
		}
		echo = append(echo, Entry("no status: any PetStatus or none comes back", ""))
		DescribeTable("answers 201 with the pet that was sent, of a category a listed pet has",
			func(ctx SpecContext, status string) {
				h := s.h
				h.create(ctx, h.category(ctx), status)
			},
			echo,
		)

		// Categories are a gap: a server may know only some. An id at the
		// edge of int64 is either refused or kept digit for digit.
		extremes := []TableEntry{
			Entry("the largest int64 categoryId", int64(math.MaxInt64)),
			Entry("the smallest int64 categoryId", int64(math.MinInt64)),
			Entry("categoryId 0", int64(0)),
		}
		DescribeTable("answers 201 with the categoryId sent, digit for digit, or 400 for a category it does not know",
			func(ctx SpecContext, categoryID int64) {
				h := s.h
				name := h.petName()
				x := h.createPet(ctx, newPetBody(name, categoryID, ""))
				if x.status == http.StatusBadRequest {
					return // an Error body; the client has checked it
				}
				checkCreated(x, name, categoryID, "")
			},
			extremes,
		)
		if s.runs(LabelStrict) {
			DescribeTable("strict: accepts any int64 categoryId", Label(LabelStrict),
				func(ctx SpecContext, categoryID int64) {
					h := s.h
					name := h.petName()
					x := h.createPet(ctx, newPetBody(name, categoryID, ""))
					x.require(x.status == http.StatusCreated, ruleStrictCategory, fmt.Sprintf("categoryId %d: status %d, want 201", categoryID, x.status))
					checkCreated(x, name, categoryID, "")
				},
				extremes,
			)
		}

		It("gives two pets created one after the other different ids, and getPet returns each", func(ctx SpecContext) {
			h := s.h
			category := h.category(ctx)
			_, first := h.create(ctx, category, h.randomStatus())
			x, second := h.create(ctx, category, h.randomStatus())
			x.require(first.id() != second.id(), ruleNewID, fmt.Sprintf("the pet created before, %s, got id %s too", first, first.ID))
			h.skipPastSunset()
			h.readBack(ctx, first)
			h.readBack(ctx, second)
		})

		// Every status, since a fault may touch one only.
		var each []TableEntry
		for _, st := range c.Statuses {
			each = append(each, Entry("status "+st, st))
		}
		DescribeTable("creates a pet that getPet then returns unchanged",
			func(ctx SpecContext, status string) {
				h := s.h
				h.skipPastSunset()
				_, created := h.create(ctx, h.category(ctx), status)
				h.readBack(ctx, created)
			},
			each,
		)
		DescribeTable("creates a pet that listPets filtered by its status then returns",
			func(ctx SpecContext, status string) {
				h := s.h
				_, created := h.create(ctx, h.category(ctx), status)
				h.checkListed(ctx, created)
			},
			each,
		)

		// Each body has one fault. CATEGORY is a category the deployment
		// knows, so that the 400 is for that fault and no other.
		type invalid struct{ name, body string }
		var invalids []TableEntry
		for _, in := range []invalid{
			{"name missing", `{"categoryId":CATEGORY}`},
			{"categoryId missing", `{"name":NAME}`},
			{"name a number", `{"name":42,"categoryId":CATEGORY}`},
			{"name null", `{"name":null,"categoryId":CATEGORY}`},
			{"categoryId a string", `{"name":NAME,"categoryId":"CATEGORY"}`},
			{"categoryId a fraction", `{"name":NAME,"categoryId":CATEGORY.5}`},
			{"categoryId beyond int64", `{"name":NAME,"categoryId":9223372036854775808}`},
			{"categoryId null", `{"name":NAME,"categoryId":null}`},
			{"status outside PetStatus", `{"name":NAME,"categoryId":CATEGORY,"status":"lost"}`},
			{"status a number", `{"name":NAME,"categoryId":CATEGORY,"status":1}`},
			{"body null", `null`},
			{"malformed JSON", `{"name":NAME,`},
			{"empty body", ``},
			{"body an array", `[{"name":NAME,"categoryId":CATEGORY}]`},
			{"body a string", `"pet"`},
		} {
			invalids = append(invalids, Entry(in.name, in.body))
		}
		DescribeTable("answers 400 with an Error body for an invalid body",
			func(ctx SpecContext, body string) {
				h := s.h
				if strings.Contains(body, "CATEGORY") {
					body = strings.ReplaceAll(body, "CATEGORY", strconv.FormatInt(h.category(ctx), 10))
				}
				body = strings.ReplaceAll(body, "NAME", strconv.Quote(h.petName()))
				x := h.createPet(ctx, body)
				x.require(x.status == http.StatusBadRequest, ruleCreateBad, fmt.Sprintf("status %d, want 400", x.status))
			},
			invalids,
		)

		if !s.runs(LabelStrict) {
			return
		}
		It("strict: gives a pet created without status the default status", Label(LabelStrict), func(ctx SpecContext) {
			h := s.h
			x, created := h.create(ctx, h.category(ctx), "")
			x.require(created.status() == c.DefaultStatus, ruleStrictDefault, fmt.Sprintf("status %s, want %q", quoteOrNone(created.Status), c.DefaultStatus))
		})

		It("strict: answers 201 with the Location of the pet", Label(LabelStrict), func(ctx SpecContext) {
			h := s.h
			x, created := h.create(ctx, h.category(ctx), h.randomStatus())
			location := x.header.Get("Location")
			x.require(location != "", ruleStrictLocation, "no Location header")
			from, _ := url.Parse(x.url)
			u, err := from.Parse(location)
			x.require(err == nil, ruleStrictLocation, fmt.Sprintf("Location %q is not a URL", location))
			want := h.base.String() + "/pets/" + strconv.FormatInt(created.id(), 10)
			x.require(u.String() == want, ruleStrictLocation, fmt.Sprintf("Location %q, want %s", location, want))
		})
	})
}
