package check

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// authCheck returns the check of authentication of an operation with a
// bad credential, both named as in authOperations and badCredentials.
func authCheck(tb testing.TB, operation, credential string) check {
	tb.Helper()
	i := slices.IndexFunc(AuthOperations, func(o authOperation) bool { return o.Name == operation })
	j := slices.IndexFunc(BadCredentials, func(c badCredential) bool { return c.Name == credential })
	if i < 0 || j < 0 {
		tb.Fatalf("no check of authentication of %s with %s", operation, credential)
	}
	return func(h *Harness, ctx context.Context) error {
		return h.CheckUnauthorized(ctx, AuthOperations[i].Send, BadCredentials[j].Header)
	}
}

// nearMissCheck returns the check of the near miss of that name of the
// run's key, conformancetest.Key, on the operation the Petstore's bearer
// scheme is tried on.
func nearMissCheck(tb testing.TB, name string) check {
	tb.Helper()
	return func(h *Harness, ctx context.Context) error {
		for _, t := range request.SchemeTrials(h.contract.Contract) {
			for _, m := range request.NearMisses(h.cfg.APIKey, t.Op, t.Scheme) {
				if m.Name == name {
					return h.CheckNearMiss(ctx, t, m)
				}
			}
		}
		tb.Fatalf("no near miss %q of the key", name)
		return nil
	}
}

// pagesCheck returns the check of a walk through the pages of pets,
// filtered by status or not, creating pets to look for.
func pagesCheck(filtered bool) check {
	return func(h *Harness, ctx context.Context) error {
		res := h.contract.Resource("pets")
		var f *spec.Filter
		if filtered {
			status, _ := res.Filter("status")
			f = &status
		}
		return h.CheckPages(ctx, res, f, true)
	}
}

// invalidBodyOf returns the body of invalidBodies of that name.
func invalidBodyOf(tb testing.TB, name string) string {
	tb.Helper()
	i := slices.IndexFunc(InvalidBodies, func(b invalidBody) bool { return b.Name == name })
	if i < 0 {
		tb.Fatalf("no invalid body %q", name)
	}
	return InvalidBodies[i].Body
}

// brokenChecks name, for each of conformancetest.BrokenServers, a check
// its fault must fail: one of those whose specs the command's run names.
func brokenChecks(tb testing.TB) map[string]check {
	listed := DeprecatedAnswers[0].Get
	return map[string]check{
		"accepts any bearer key":                       authCheck(tb, "listPets", "an invalid key"),
		"serves requests without a key":                authCheck(tb, "listPets", "no Authorization header"),
		"accepts the key under the Basic scheme":       authCheck(tb, "getPet", "the key under the Basic scheme"),
		"accepts the bare key":                         authCheck(tb, "createPet", "the bare key without a scheme"),
		"accepts the key in another case":              nearMissCheck(tb, "the key in another case"),
		"accepts the key with a character added":       nearMissCheck(tb, "the key with a character added"),
		"accepts the key without its last character":   nearMissCheck(tb, "the key without its last character"),
		"accepts an empty bearer token":                nearMissCheck(tb, "an empty key"),
		"accepts the key in the query as access_token": nearMissCheck(tb, "the key in the query as access_token"),
		"ignores limit": func(h *Harness, ctx context.Context) error {
			return h.CheckLimit(ctx, LimitChoices(h.contract)[0].Choose)
		},
		"returns one pet more than limit": func(h *Harness, ctx context.Context) error {
			return h.CheckLimit(ctx, LimitChoices(h.contract)[1].Choose)
		},
		"returns 50 pets without limit": (*Harness).CheckLimitDefault,
		"answers 500 to limit=0": func(h *Harness, ctx context.Context) error {
			return h.CheckBadLimit(ctx, "limit=0")
		},
		"answers limit=1000 with more than 100 pets": func(h *Harness, ctx context.Context) error {
			return h.CheckBadLimit(ctx, "limit=1000")
		},
		"ignores limit when a status filter is given": func(h *Harness, ctx context.Context) error {
			return h.CheckStatusFilter(ctx, "pending")
		},
		"caps every page at 50 pets, whatever limit asks":  (*Harness).CheckFullPage,
		"skips a pet between pages":                        pagesCheck(false),
		"shows a pet on two pages":                         pagesCheck(false),
		"skips one pet at a page's end, halfway down 3000": pagesCheck(false),
		"links the third page back to the second":          pagesCheck(false),
		"links each later page to itself":                  pagesCheck(false),
		"drops the status filter from its next links":      pagesCheck(true),
		"links the last page to an empty one":              pagesCheck(false),
		"asks for more pets in each next link":             pagesCheck(false),
		"ignores the status filter": func(h *Harness, ctx context.Context) error {
			return h.CheckStatusFilter(ctx, "sold")
		},
		"relabels a pet of another status into each filtered page": func(h *Harness, ctx context.Context) error {
			return h.CheckStatusFilter(ctx, "sold")
		},
		"ignores a status outside PetStatus": func(h *Harness, ctx context.Context) error {
			return h.CheckUnknownStatus(ctx, "lost")
		},
		"does not keep created pets": func(h *Harness, ctx context.Context) error {
			return h.CheckCreatedReadBack(ctx, "available")
		},
		"gives every created pet the same id": (*Harness).CheckNewIDs,
		"keeps a pet created as sold as available": func(h *Harness, ctx context.Context) error {
			return h.CheckCreatedReadBack(ctx, "sold")
		},
		"lists no pet for status=sold": func(h *Harness, ctx context.Context) error {
			return h.CheckStatusFound(ctx, "sold")
		},
		"reads back another pet": func(h *Harness, ctx context.Context) error {
			return h.CheckCreatedReadBack(ctx, "pending")
		},
		"creates a pet without a name": func(h *Harness, ctx context.Context) error {
			return h.CheckInvalidBody(ctx, invalidBodyOf(tb, "name missing"))
		},
		"ignores a status outside PetStatus, and knows only its own categories": func(h *Harness, ctx context.Context) error {
			return h.CheckInvalidBody(ctx, invalidBodyOf(tb, "status outside PetStatus"))
		},
		"rounds categoryId through a float64": func(h *Harness, ctx context.Context) error {
			return h.CheckExtremeCategory(ctx, math.MaxInt64)
		},
		"answers 404 with a body that is not an Error":             (*Harness).CheckNotFound,
		"sends an Error whose status differs from the HTTP status": authCheck(tb, "getPet", "an invalid key"),
		"sends an Error with an empty code":                        (*Harness).CheckNotFound,
		"names the wrong day in Sunset": func(h *Harness, ctx context.Context) error {
			return h.CheckSunset(ctx, listed)
		},
		"deprecates after the Sunset": func(h *Harness, ctx context.Context) error {
			return h.CheckDeprecation(ctx, listed)
		},
		"dates getPet's deprecation a year ahead": func(h *Harness, ctx context.Context) error {
			return h.CheckDeprecation(ctx, listed)
		},
		"names another pet in Location": func(h *Harness, ctx context.Context) error {
			return h.CheckCreate(ctx, "available")
		},
		"forgets a created pet a second after its 201": func(h *Harness, ctx context.Context) error {
			h.cfg.Recheck = DefaultRecheck // as a run without --recheck waits
			if err := h.CheckCreate(ctx, "pending"); err != nil {
				return err
			}
			return h.CheckKept(ctx)
		},
		"forgets a created pet a moment later": func(h *Harness, ctx context.Context) error {
			if err := h.CheckCreate(ctx, "pending"); err != nil {
				return err
			}
			return h.CheckKept(ctx)
		},
		"retires getPet before its sunset":                       (*Harness).CheckGetListed,
		"shows through getPet another status than listPets does": (*Harness).CheckGetListed,
		"serves lists as text/plain": func(h *Harness, ctx context.Context) error {
			return h.CheckStatusFilter(ctx, "available")
		},
		"repeats a pet in a list":                    (*Harness).CheckOneIDPerPet,
		"numbers the pets of a filtered list from 1": (*Harness).CheckOneIDPerPet,
	}
}

// TestBrokenServersBreakTheirRule judges each broken server with a check
// it must fail, in-process, and expects the verdict of the rule it
// breaks. petmock itself passes the same check.
func TestBrokenServersBreakTheirRule(t *testing.T) {
	t.Parallel()
	checks := brokenChecks(t)
	for _, tc := range ct.BrokenServers {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			check, ok := checks[tc.Name]
			if !ok {
				t.Fatalf("no check to judge %q by in-process: add one to brokenChecks", tc.Name)
			}
			ctx := checkContext(t)
			h := judgeOver(t, tc.Fault(t, ct.Petmock(t)), Settings{})
			wantBroken(t, tc.Name, check(h, ctx), tc.Rule)
			if err := check(judgeOver(t, ct.Petmock(t), Settings{}), ctx); err != nil {
				t.Errorf("petmock fails the check too: %v", err)
			}
		})
	}
	for name := range checks {
		if !slices.ContainsFunc(ct.BrokenServers, func(s ct.BrokenServer) bool { return s.Name == name }) {
			t.Errorf("brokenChecks names %q, which is no broken server", name)
		}
	}
}

// brokenEvolvedChecks name, for each of
// conformancetest.BrokenEvolvedServers, a check its fault must fail.
func brokenEvolvedChecks() map[string]check {
	operation := func(id string, judge func(h *Harness, ctx context.Context, op *spec.Operation) error) check {
		return func(h *Harness, ctx context.Context) error { return judge(h, ctx, h.contract.Operation(id)) }
	}
	resource := func(name string, judge func(h *Harness, ctx context.Context, res *spec.Resource) error) check {
		return func(h *Harness, ctx context.Context) error { return judge(h, ctx, h.contract.Resource(name)) }
	}
	return map[string]check{
		"has no store orders": operation("listOrders", func(h *Harness, ctx context.Context, op *spec.Operation) error {
			return h.CheckValidRequest(ctx, op)
		}),
		"drops the new tag of a pet": resource("pets", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			return h.CheckItemCreated(ctx, res)
		}),
		"cancels no order": resource("orders", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			return h.CheckItemDeleted(ctx, res)
		}),
		"answers a replace with the order as it was": resource("orders", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			return h.CheckItemReplaced(ctx, res)
		}),
		"merges a replace into the order": resource("orders", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			return h.CheckItemReplaced(ctx, res)
		}),
		"keeps cancelled orders in the list": resource("orders", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			return h.CheckItemDeleted(ctx, res)
		}),
		"names another order in Location": resource("orders", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			return h.CheckItemCreated(ctx, res)
		}),
		"reads an order otherwise than it lists it": resource("orders", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			return h.CheckListedReadsSame(ctx, res, nil)
		}),
		"dates getPet's deprecation a year ahead": operation("getPet", func(h *Harness, ctx context.Context, op *spec.Operation) error {
			return h.CheckValidRequest(ctx, op)
		}),
		"changes nothing on an update": resource("orders", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			return h.CheckItemUpdated(ctx, res)
		}),
		"takes any quantity of an order": operation("placeOrder", func(h *Harness, ctx context.Context, op *spec.Operation) error {
			for _, c := range request.InvalidRequests(h.contract.Contract, op) {
				if c.Name == "body: quantity above its maximum" {
					return h.CheckInvalidRequest(ctx, op, c)
				}
			}
			return judge.Skipf("placeOrder makes no request with a quantity above its maximum")
		}),
		"tells the inventory to anyone": operation("getInventory", func(h *Harness, ctx context.Context, op *spec.Operation) error {
			return h.CheckRefused(ctx, op, "")
		}),
		"ignores the limit of orders": resource("orders", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			return h.CheckListLimit(ctx, res)
		}),
		"ignores the status filter of orders": resource("orders", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			for _, fv := range FilterValues(res) {
				if err := h.CheckListFilter(ctx, res, fv); err != nil {
					return err
				}
			}
			return nil
		}),
		"counts the inventory in words": operation("getInventory", func(h *Harness, ctx context.Context, op *spec.Operation) error {
			return h.CheckValidRequest(ctx, op)
		}),
		"answers an order of any id": resource("orders", func(h *Harness, ctx context.Context, res *spec.Resource) error {
			return h.CheckUnknownID(ctx, res)
		}),
	}
}

// TestBrokenEvolvedServersBreakTheirRule judges each broken server of an
// evolved document by it, in-process, and expects the verdict of the rule
// it breaks, naming what is wrong.
func TestBrokenEvolvedServersBreakTheirRule(t *testing.T) {
	t.Parallel()
	checks := brokenEvolvedChecks()
	for _, tc := range ct.BrokenEvolvedServers {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			check, ok := checks[tc.Name]
			if !ok {
				t.Fatalf("no check to judge %q by in-process: add one to brokenEvolvedChecks", tc.Name)
			}
			path := ct.Testdata(t, tc.Doc)
			h := judgeOver(t, tc.Fault(t, ct.PetmockOf(t, path)), Settings{Contract: readFile(t, path)})
			err := check(h, checkContext(t))
			if wantBroken(t, tc.Name, err, tc.Rule) != nil && !strings.Contains(err.Error(), tc.Words) {
				t.Errorf("%s: the report does not say %q:\n%s", tc.Name, tc.Words, err)
			}
		})
	}
	if len(checks) != len(ct.BrokenEvolvedServers) {
		t.Errorf("%d checks for %d broken servers of evolved documents", len(checks), len(ct.BrokenEvolvedServers))
	}
}
