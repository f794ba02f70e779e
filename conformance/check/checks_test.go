package check

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// check is a check of the suite, called in-process as a spec calls it. The
// harness comes first, as in a method expression such as
// (*harness).checkNotFound.
type check func(h *Harness, ctx context.Context) error

// namedCheck is a check, named as the spec that makes it reads.
type namedCheck struct {
	name             string
	strict, mutating bool
	run              check
}

// allChecks lists the checks a run of c with key makes, from the same tables the
// specs are declared from: the Petstore's, then the generic ones of every
// operation and resource.
func allChecks(c Contract, key string) []namedCheck {
	var out []namedCheck
	if c.IsPetstore {
		out = petstoreChecks(c)
	}
	return append(out, genericChecks(c, key)...)
}

// petstoreChecks lists the checks of the Petstore's rules a run of c
// makes.
func petstoreChecks(c Contract) []namedCheck {
	var out []namedCheck
	add := func(name string, strict, mutating bool, run check) {
		out = append(out, namedCheck{name, strict, mutating, run})
	}
	for _, op := range AuthOperations {
		for _, cr := range BadCredentials {
			add("authentication "+op.Name+" with "+cr.Name, false, op.Mutating, func(h *Harness, ctx context.Context) error {
				return h.CheckUnauthorized(ctx, op.Send, cr.Header)
			})
		}
	}
	add("a 401 carries a Bearer challenge", true, false, (*Harness).CheckChallenge)

	add("listPets without limit", false, false, (*Harness).CheckLimitDefault)
	for _, lc := range LimitChoices(c) {
		add("listPets honours "+lc.Name, false, false, func(h *Harness, ctx context.Context) error { return h.CheckLimit(ctx, lc.Choose) })
	}
	add("listPets returns a full page", false, false, (*Harness).CheckFullPage)
	for _, b := range BadLimits(c) {
		add("listPets "+b.Name, false, false, func(h *Harness, ctx context.Context) error { return h.CheckBadLimit(ctx, b.Query) })
		add("listPets strict "+b.Name, true, false, func(h *Harness, ctx context.Context) error { return h.CheckStrictBadLimit(ctx, b.Query) })
	}
	for _, st := range c.SampledStatuses {
		add("listPets status="+st, false, false, func(h *Harness, ctx context.Context) error { return h.CheckStatusFilter(ctx, st) })
		add("listPets status="+st+" when shown", false, false, func(h *Harness, ctx context.Context) error { return h.CheckStatusFound(ctx, st) })
	}
	for _, v := range StatusesOutside(c, "lost", "adopted") {
		add("listPets status="+v, false, false, func(h *Harness, ctx context.Context) error { return h.CheckUnknownStatus(ctx, v) })
	}
	for _, v := range StatusesOutside(c, "lost", "", "AVAILABLE") {
		add("listPets strict status="+v, true, false, func(h *Harness, ctx context.Context) error { return h.CheckStrictUnknownStatus(ctx, v) })
	}
	add("listPets gives each pet one id", false, false, (*Harness).CheckOneIDPerPet)

	for _, st := range append(slices.Clone(c.SampledStatuses), "") {
		add("createPet echoes status "+st, false, true, func(h *Harness, ctx context.Context) error { return h.CheckCreate(ctx, st) })
	}
	for _, e := range ExtremeCategories {
		add("createPet "+e.Name, false, true, func(h *Harness, ctx context.Context) error { return h.CheckExtremeCategory(ctx, e.ID) })
		add("createPet strict "+e.Name, true, true, func(h *Harness, ctx context.Context) error { return h.CheckStrictCategory(ctx, e.ID) })
	}
	add("createPet gives new ids", false, true, (*Harness).CheckNewIDs)
	for _, st := range c.SampledStatuses {
		add("createPet "+st+" reads back", false, true, func(h *Harness, ctx context.Context) error { return h.CheckCreatedReadBack(ctx, st) })
		add("createPet "+st+" is listed", false, true, func(h *Harness, ctx context.Context) error { return h.CheckCreatedListed(ctx, st) })
	}
	for _, in := range InvalidBodies {
		add("createPet "+in.Name, false, true, func(h *Harness, ctx context.Context) error { return h.CheckInvalidBody(ctx, in.Body) })
	}
	add("createPet strict default status", true, true, (*Harness).CheckStrictDefaultStatus)
	add("createPet strict Location", true, true, (*Harness).CheckStrictLocation)

	add("getPet of a listed pet", false, false, func(h *Harness, ctx context.Context) error {
		if err := h.BeforeSunset(); err != nil {
			return err
		}
		return h.CheckGetListed(ctx)
	})
	add("getPet of no pet", false, false, (*Harness).CheckNotFound)
	for _, a := range DeprecatedAnswers {
		add("Sunset "+a.Name, false, false, func(h *Harness, ctx context.Context) error { return h.CheckSunset(ctx, a.Get) })
		add("Deprecation "+a.Name, false, false, func(h *Harness, ctx context.Context) error { return h.CheckDeprecation(ctx, a.Get) })
		add("strict deprecation "+a.Name, true, false, func(h *Harness, ctx context.Context) error { return h.CheckStrictDeprecation(ctx, a.Get) })
	}
	for _, st := range append([]string{""}, c.SampledStatuses...) {
		add("strict pages of status="+st, true, false, func(h *Harness, ctx context.Context) error { return h.CheckStrictPages(ctx, st) })
	}
	for _, r := range RefusedRequests {
		add("strict error code of "+r.Name, true, r.Mutating, func(h *Harness, ctx context.Context) error { return h.CheckStrictErrorCode(ctx, r.Send) })
	}
	return out
}

// genericChecks lists the checks of the generic rules a run of c with key
// makes, for every operation and resource of the document.
func genericChecks(c Contract, key string) []namedCheck {
	var out []namedCheck
	add := func(name string, strict, mutating bool, run check) {
		out = append(out, namedCheck{name, strict, mutating, run})
	}
	for _, op := range c.Operations {
		served := func(run check) check {
			return func(h *Harness, ctx context.Context) error {
				if err := h.Served(op); err != nil {
					return err
				}
				return run(h, ctx)
			}
		}
		add("operation "+op.ID+" answers", false, request.Mutating(op), served(func(h *Harness, ctx context.Context) error { return h.CheckValidRequest(ctx, op) }))
		switch {
		case request.RequiresKey(op):
			add("operation "+op.ID+" without a key", false, request.Mutating(op), served(func(h *Harness, ctx context.Context) error { return h.CheckRefused(ctx, op, "") }))
			add("operation "+op.ID+" with a wrong key", false, request.Mutating(op), served(func(h *Harness, ctx context.Context) error { return h.CheckRefused(ctx, op, h.InvalidKey()) }))
		case request.KeyOptional(op):
			add("operation "+op.ID+" without a key, which is optional", false, request.Mutating(op), served(func(h *Harness, ctx context.Context) error { return h.CheckWithoutKey(ctx, op) }))
		}
		for _, ir := range request.InvalidRequests(c.Contract, op) {
			add("operation "+op.ID+" with "+ir.Name, false, request.Mutating(op), served(func(h *Harness, ctx context.Context) error { return h.CheckInvalidRequest(ctx, op, ir) }))
		}
	}
	for _, t := range request.SchemeTrials(c.Contract) {
		for _, m := range request.NearMisses(key, t.Op, t.Scheme) {
			add("security scheme "+t.Scheme.Name+" with "+m.Name, false, request.Mutating(t.Op), func(h *Harness, ctx context.Context) error {
				if err := h.Served(t.Op); err != nil {
					return err
				}
				return h.CheckNearMiss(ctx, t, m)
			})
		}
	}
	for _, res := range c.Resources {
		if res.List == nil {
			continue
		}
		if res.Read != nil {
			add("list "+res.List.ID+" read through "+res.Read.ID, false, false, func(h *Harness, ctx context.Context) error { return h.CheckListedReadsSame(ctx, res, nil) })
			for _, f := range WalkFilters(res) {
				add("list "+res.List.ID+" by "+f.Name()+" read through "+res.Read.ID, false, false, func(h *Harness, ctx context.Context) error { return h.CheckListedReadsSame(ctx, res, &f) })
			}
		}
		add("list "+res.List.ID+" walked", false, true, func(h *Harness, ctx context.Context) error { return h.CheckPages(ctx, res, nil, true) })
		add("list "+res.List.ID+" walked read-only", false, false, func(h *Harness, ctx context.Context) error { return h.CheckPages(ctx, res, nil, false) })
		for _, f := range WalkFilters(res) {
			add("list "+res.List.ID+" walked by "+f.Name(), false, true, func(h *Harness, ctx context.Context) error { return h.CheckPages(ctx, res, &f, true) })
			add("list "+res.List.ID+" walked read-only by "+f.Name(), false, false, func(h *Harness, ctx context.Context) error { return h.CheckPages(ctx, res, &f, false) })
		}
		if !c.GenericList(res) {
			continue
		}
		if res.Paging.Limit != "" {
			add("list "+res.List.ID+" honours its limit", false, false, func(h *Harness, ctx context.Context) error { return h.CheckListLimit(ctx, res) })
		}
		for _, fv := range FilterValues(res) {
			add("list "+res.List.ID+" filtered by "+fv.Name(), false, false, func(h *Harness, ctx context.Context) error { return h.CheckListFilter(ctx, res, fv) })
		}
	}
	for _, res := range c.Resources {
		add("resource "+res.Name+" created", false, true, func(h *Harness, ctx context.Context) error { return h.CheckItemCreated(ctx, res) })
		if res.Replace != nil {
			add("resource "+res.Name+" replaced", false, true, func(h *Harness, ctx context.Context) error { return h.CheckItemReplaced(ctx, res) })
		}
		if res.Update != nil {
			add("resource "+res.Name+" updated", false, true, func(h *Harness, ctx context.Context) error { return h.CheckItemUpdated(ctx, res) })
		}
		if res.Delete != nil {
			add("resource "+res.Name+" deleted", false, true, func(h *Harness, ctx context.Context) error { return h.CheckItemDeleted(ctx, res) })
		}
		if res.Read != nil {
			add("resource "+res.Name+" of an unknown id", false, false, func(h *Harness, ctx context.Context) error { return h.CheckUnknownID(ctx, res) })
		}
	}
	if slices.ContainsFunc(c.Resources, func(res *spec.Resource) bool { return res.Read != nil }) {
		add("items kept to the end", false, true, (*Harness).CheckKept)
	}
	return out
}

// judgeOver returns the harness of a run of cfg against handler, served
// over a real connection: cfg's BaseURL is the server's, with the base path
// of the document, its APIKey conformancetest.Key unless set, its Settle
// 200ms unless set, as a server that breaks a rule breaks it however long
// the suite waits, and its Recheck 150ms unless set, as the servers that
// lose items lose them within 100ms.
func judgeOver(tb testing.TB, handler http.Handler, cfg Settings) *Harness {
	tb.Helper()
	hs := httptest.NewServer(handler)
	tb.Cleanup(hs.Close)
	cfg.BaseURL = hs.URL + "/v1"
	if cfg.Contract != nil {
		cfg.BaseURL = hs.URL + cfg.Contract.Base
	}
	if cfg.APIKey == "" {
		cfg.APIKey = conformancetest.Key
	}
	if cfg.Settle == 0 {
		cfg.Settle = 200 * time.Millisecond
	}
	if cfg.Recheck == 0 {
		cfg.Recheck = 150 * time.Millisecond
	}
	h := testHarness(tb, cfg, 1)
	tb.Cleanup(h.CloseIdleConnections)
	return h
}

// checkContext bounds a check called in-process, as Ginkgo bounds a run.
func checkContext(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	tb.Cleanup(cancel)
	return ctx
}

// wantBroken fails the test unless err is a *Broken of rule, whose report
// names it and holds no key.
func wantBroken(tb testing.TB, what string, err error, rule string) *judge.Broken {
	tb.Helper()
	var broken *judge.Broken
	if !errors.As(err, &broken) || broken.Rule != rule {
		tb.Errorf("%s: verdict %v, want a *Broken of rule %s", what, err, rule)
		return nil
	}
	if report := err.Error(); !strings.Contains(report, "broken rule "+rule+": ") {
		tb.Errorf("%s: the report does not name rule %s:\n%s", what, rule, report)
	}
	noKey(tb, what, err)
	if strings.Contains(broken.Detail, conformancetest.Key) {
		tb.Errorf("%s: the detail of the verdict shows the API key: %s", what, broken.Detail)
	}
	return broken
}

// wantSkipped fails the test unless err is a *Skipped whose reason holds
// each of says, and no key.
func wantSkipped(tb testing.TB, what string, err error, says ...string) {
	tb.Helper()
	var skipped *judge.Skipped
	if !errors.As(err, &skipped) || errors.As(err, new(*judge.Aborted)) {
		tb.Errorf("%s: verdict %v, want a *Skipped", what, err)
		return
	}
	for _, want := range says {
		if !strings.Contains(skipped.Reason, want) {
			tb.Errorf("%s: the reason does not say %q:\n%s", what, want, skipped.Reason)
		}
	}
	noKey(tb, what, err)
}

// noKey fails the test if the message of err holds the key.
func noKey(tb testing.TB, what string, err error) {
	tb.Helper()
	if err != nil && strings.Contains(err.Error(), conformancetest.Key) {
		tb.Errorf("%s: the verdict shows the API key:\n%s", what, err)
	}
}

// TestPetmockPassesEveryCheck: petmock passes every check of a run,
// strict or not, of its own document, of the evolved ones and of two
// without the Petstore's operations, one of whose errors are numbered, with
// no check skipped.
func TestPetmockPassesEveryCheck(t *testing.T) {
	t.Parallel()
	widgets := conformancetest.WriteDocument(t, conformancetest.Widgets)
	numbered := conformancetest.WriteDocument(t, conformancetest.NumberedWidgets)
	for _, doc := range []struct {
		name, path string
		least      int // checks a run makes, at least
	}{
		{"the Petstore", "", 50},
		{conformancetest.EvolvedField, conformancetest.Testdata(t, conformancetest.EvolvedField), 50},
		{conformancetest.EvolvedOps, conformancetest.Testdata(t, conformancetest.EvolvedOps), 50},
		{"widgets", widgets, 15},
		{"widgets of numbered errors", numbered, 15},
	} {
		for _, strict := range []bool{false, true} {
			name := doc.name
			if strict {
				name += ", strict"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				petmock, cfg := conformancetest.Petmock(t), Settings{Strict: strict}
				if doc.path != "" {
					petmock = conformancetest.PetmockOf(t, doc.path)
					cfg.Contract = readFile(t, doc.path)
				}
				h := judgeOver(t, petmock, cfg)
				ctx := checkContext(t)
				ran := 0
				for _, c := range allChecks(h.contract, h.cfg.APIKey) {
					if c.strict && !strict {
						continue
					}
					ran++
					if err := c.run(h, ctx); err != nil {
						t.Errorf("%s: %v", c.name, err)
					}
				}
				if ran < doc.least {
					t.Errorf("%d checks ran, want the whole run's, at least %d", ran, doc.least)
				}
			})
		}
	}
}

// contracts holds the contract of each document the tests read, by path,
// so that the harnesses judging by one share what prepare reads of it.
var contracts sync.Map

// readFile reads the contract of the document at path, once.
func readFile(tb testing.TB, path string) *spec.Contract {
	tb.Helper()
	if c, ok := contracts.Load(path); ok {
		return c.(*spec.Contract)
	}
	c, err := spec.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	actual, _ := contracts.LoadOrStore(path, c)
	return actual.(*spec.Contract)
}
