package check

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/petstore/contract/conformance/judge"
)

// The checks of createPet. Every one creates, or may create on a faulty
// server.

// CheckCreate creates a pet of a category a listed pet has, with status
// ("" for none): the answer must be 201 with the pet sent.
func (h *Harness) CheckCreate(ctx context.Context, status string) error {
	category, err := h.category(ctx)
	if err != nil {
		return err
	}
	_, _, err = h.create(ctx, category, status)
	return err
}

// extremeCategory is a categoryId at the edge of int64.
type extremeCategory struct {
	Name string
	ID   int64
}

// ExtremeCategories are the categoryIds that a server either refuses or
// keeps digit for digit: categories are a gap, and a server may know only
// some.
var ExtremeCategories = []extremeCategory{
	{"the largest int64 categoryId", math.MaxInt64},
	{"the smallest int64 categoryId", math.MinInt64},
	{"categoryId 0", 0},
}

// CheckExtremeCategory creates a pet of a categoryId at the edge of int64:
// the answer must be 201 with the categoryId sent, digit for digit, or 400
// for a category the deployment does not know.
func (h *Harness) CheckExtremeCategory(ctx context.Context, categoryID int64) error {
	name := h.PetName()
	x, err := h.createPet(ctx, newPetBody(name, categoryID, ""))
	if err != nil || x.Status == http.StatusBadRequest {
		return err // a 400 carries an Error body; the client has checked it
	}
	_, err = checkCreated(x, name, categoryID, "")
	return err
}

// CheckStrictCategory creates a pet of a categoryId at the edge of int64:
// petmock accepts any.
func (h *Harness) CheckStrictCategory(ctx context.Context, categoryID int64) error {
	name := h.PetName()
	x, err := h.createPet(ctx, newPetBody(name, categoryID, ""))
	if err != nil {
		return err
	}
	if err := x.Require(x.Status == http.StatusCreated, judge.RuleStrictCategory, fmt.Sprintf("categoryId %d: status %d, want 201", categoryID, x.Status)); err != nil {
		return err
	}
	_, err = checkCreated(x, name, categoryID, "")
	return err
}

// CheckNewIDs creates two pets, one after the other: they must get
// different ids, and getPet must return each.
func (h *Harness) CheckNewIDs(ctx context.Context) error {
	category, err := h.category(ctx)
	if err != nil {
		return err
	}
	_, first, err := h.create(ctx, category, h.randomStatus())
	if err != nil {
		return err
	}
	x, second, err := h.create(ctx, category, h.randomStatus())
	if err != nil {
		return err
	}
	if err := x.Require(first.IntID() != second.IntID(), judge.RuleNewID, fmt.Sprintf("the pet created before, %s, got id %s too", first, first.ID)); err != nil {
		return err
	}
	if err := h.BeforeSunset(); err != nil {
		return err
	}
	if err := h.readBack(ctx, first); err != nil {
		return err
	}
	return h.readBack(ctx, second)
}

// CheckCreatedReadBack creates a pet of status: getPet must then return
// it, unchanged.
func (h *Harness) CheckCreatedReadBack(ctx context.Context, status string) error {
	if err := h.BeforeSunset(); err != nil {
		return err
	}
	category, err := h.category(ctx)
	if err != nil {
		return err
	}
	_, created, err := h.create(ctx, category, status)
	if err != nil {
		return err
	}
	return h.readBack(ctx, created)
}

// CheckCreatedListed creates a pet of status: listPets filtered by its
// status must then list it.
func (h *Harness) CheckCreatedListed(ctx context.Context, status string) error {
	category, err := h.category(ctx)
	if err != nil {
		return err
	}
	_, created, err := h.create(ctx, category, status)
	if err != nil {
		return err
	}
	return h.checkListed(ctx, created)
}

// invalidBody is a body of createPet with one fault. CATEGORY stands for
// a category the deployment knows, so that the 400 is for that fault and
// no other, and NAME for a name of the run.
type invalidBody struct {
	Name, Body string
}

// InvalidBodies are the bodies the check of invalid bodies sends.
var InvalidBodies = []invalidBody{
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
}

// CheckInvalidBody sends one of invalidBodies: it must get 400, with an
// Error body the client has checked.
func (h *Harness) CheckInvalidBody(ctx context.Context, body string) error {
	if strings.Contains(body, "CATEGORY") {
		category, err := h.category(ctx)
		if err != nil {
			return err
		}
		body = strings.ReplaceAll(body, "CATEGORY", strconv.FormatInt(category, 10))
	}
	body = strings.ReplaceAll(body, "NAME", strconv.Quote(h.PetName()))
	x, err := h.createPet(ctx, body)
	if err != nil {
		return err
	}
	return x.Require(x.Status == http.StatusBadRequest, judge.RuleCreateBad, fmt.Sprintf("status %d, want 400", x.Status))
}

// CheckStrictDefaultStatus creates a pet without a status: petmock gives
// it the document's default.
func (h *Harness) CheckStrictDefaultStatus(ctx context.Context) error {
	category, err := h.category(ctx)
	if err != nil {
		return err
	}
	x, created, err := h.create(ctx, category, "")
	if err != nil {
		return err
	}
	want := h.contract.DefaultStatus
	return x.Require(created.StatusValue() == want, judge.RuleStrictDefault, fmt.Sprintf("status %s, want %q", judge.QuoteOrNone(created.Status), want))
}

// CheckStrictLocation creates a pet: petmock's 201 carries the URL of the
// pet as its Location.
func (h *Harness) CheckStrictLocation(ctx context.Context) error {
	category, err := h.category(ctx)
	if err != nil {
		return err
	}
	x, created, err := h.create(ctx, category, h.randomStatus())
	if err != nil {
		return err
	}
	location := x.Header.Get("Location")
	if err := x.Require(location != "", judge.RuleStrictLocation, "no Location header"); err != nil {
		return err
	}
	from, _ := url.Parse(x.URL)
	u, parseErr := from.Parse(location)
	if err := x.Require(parseErr == nil, judge.RuleStrictLocation, fmt.Sprintf("Location %q is not a URL", location)); err != nil {
		return err
	}
	want := h.Base().String() + "/pets/" + strconv.FormatInt(created.IntID(), 10)
	return x.Require(u.String() == want, judge.RuleStrictLocation, fmt.Sprintf("Location %q, want %s", location, want))
}
