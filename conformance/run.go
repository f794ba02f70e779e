package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// SuiteDescription names the suite in reports.
const SuiteDescription = "Petstore conformance"

// Run registers the specs, runs them against the deployment cfg describes
// and reports whether all passed. Ginkgo allows it once per process.
//
// Checks fail through the suite's own reports, never through a Gomega
// matcher, so no fail handler is registered with Gomega: the values a
// matcher prints come from the server and are not redacted.
//
// suiteConfig and reporterConfig are Ginkgo's; pass GinkgoConfiguration()
// to honour the --ginkgo.* flags of go test, or set fields of it (the
// JUnit report path, the label filter, colours, verbosity, the seed,
// RandomizeAllSpecs). Run narrows the label filter with cfg: ReadOnly
// leaves out LabelMutating, and without Strict LabelStrict is left out.
func Run(t GinkgoTestingT, cfg Config, suiteConfig types.SuiteConfig, reporterConfig types.ReporterConfig) bool {
	// The tree needs facts of the document, such as the PetStatus values
	// that make one entry each, so the document is read here, once; the
	// harness waits for BeforeSuite.
	p, setupErr := prepare(cfg)
	s := &suite{contract: p.contract, strict: cfg.Strict, readOnly: cfg.ReadOnly}
	BeforeSuite(func() {
		if setupErr == nil {
			setupErr = cfg.validateFields()
		}
		if setupErr != nil {
			Fail(RedactKey("the configuration: "+setupErr.Error(), cfg.APIKey))
		}
		s.h = newHarness(cfg, p, uint64(GinkgoRandomSeed()))
		fmt.Fprintf(cfg.output(), "conformance: run id %s; items created are named %s%s-N\n", s.h.runID, NamePrefix, s.h.runID)
	})
	s.register()
	ReportAfterSuite("the run's summary", func(report Report) {
		s.afterSuite(cfg, p, report)
	})
	suiteConfig.LabelFilter = cfg.labelFilter(suiteConfig.LabelFilter)
	return RunSpecs(t, SuiteDescription, suiteConfig, reporterConfig)
}

// afterSuite writes what a run ends with: the coverage summary and the
// checks skipped, with their reasons, on cfg.Output, and the JUnit report.
func (s *suite) afterSuite(cfg Config, p prepared, report Report) {
	out := cfg.output()
	var cov []OperationCoverage
	runID := cfg.RunID
	if s.h != nil {
		cov = s.h.coverage.summarize(p.contract.Contract, report, cfg.ReadOnly)
		writeCoverage(out, cov, int(min(s.h.creates.Load(), int64(cfg.maxCreates()))), cfg.maxCreates())
		runID = s.h.runID
	}
	writeSkipped(out, report)
	if cfg.JUnitReport == "" {
		return
	}
	base, _ := cfg.baseURL()
	facts := runFacts{
		document:    p.contract.Doc.Info.Title + " " + p.contract.Doc.Info.Version,
		runID:       runID,
		seed:        report.SuiteConfig.RandomSeed,
		strict:      cfg.Strict,
		readOnly:    cfg.ReadOnly,
		labelFilter: report.SuiteConfig.LabelFilter,
		coverage:    cov,
	}
	if base != nil {
		facts.baseURL = base.String()
	}
	if err := writeJUnit(cfg.JUnitReport, report, facts); err != nil {
		fmt.Fprintf(out, "conformance: writing the JUnit report: %v\n", err)
	}
}

// writeSkipped lists the checks a run skipped, each with its reason; those
// the label filter left out are only counted.
func writeSkipped(w io.Writer, report Report) {
	var lines []string
	counted := map[string]int{} // reasons shared by checks that did not run
	var order []string
	for _, sr := range report.SpecReports {
		if sr.State != types.SpecStateSkipped {
			continue
		}
		reason := skipReason(report, sr)
		if reason == notSelected || strings.HasPrefix(reason, "not run: ") {
			if counted[reason] == 0 {
				order = append(order, reason)
			}
			counted[reason]++
			continue
		}
		lines = append(lines, "  "+checkName(sr)+"\n    "+firstLine(reason))
	}
	if len(lines) > 0 {
		fmt.Fprintf(w, "\nSkipped %d checks:\n%s\n", len(lines), strings.Join(lines, "\n"))
	}
	for _, reason := range order {
		fmt.Fprintf(w, "\n%d checks %s.\n", counted[reason], strings.Replace(reason, "not run: ", "did not run: ", 1))
	}
}

// suite holds what the specs share. The tree is declared with contract,
// read before the tree is built; h is set up in BeforeSuite.
type suite struct {
	contract contract
	h        *harness
	// strict and readOnly say which checks the run makes: one that would
	// only be left out is not declared at all, so that no check is
	// reported skipped without a reason.
	strict, readOnly bool
}

// runs reports whether a check with these labels is part of the run: no
// strict check without Config.Strict, and no mutating one with
// Config.ReadOnly.
func (s *suite) runs(labels ...string) bool {
	for _, l := range labels {
		if l == LabelStrict && !s.strict || l == LabelMutating && s.readOnly {
			return false
		}
	}
	return true
}

func (s *suite) register() {
	s.describeAuth()
	s.describeList()
	s.describeCreate()
	s.describeGet()
	s.describeDeprecation()
	s.describePagination()
	s.describeErrorCodes()
	s.describeOperations()
	s.describeResources()
}

// census returns the first page of listPets at the largest limit.
func (h *harness) census(ctx context.Context) []pet {
	GinkgoHelper()
	x := h.listPets(ctx, "limit="+strconv.Itoa(h.contract.limitMax))
	x.require(x.status == http.StatusOK, ruleContract, fmt.Sprintf("listPets with a valid key and limit must answer 200; status %d", x.status))
	return x.pets()
}

// listedPet returns a pet taken from listPets, so that read checks need
// no pet of their own. It skips the spec if the catalogue is empty.
func (h *harness) listedPet(ctx context.Context) pet {
	GinkgoHelper()
	pets := h.census(ctx)
	if len(pets) == 0 {
		Skip("the catalogue is empty: no pet to read")
	}
	return pets[h.rnd.IntN(len(pets))]
}

// fallbackCategory is the categoryId of pets created on a deployment that
// lists no pet to take one from.
const fallbackCategory = 1

// category returns a categoryId for a pet to create: the most common one
// among the pets listed, so one the deployment knows, or fallbackCategory
// if it lists none. Categories are a gap of the interface: a server may
// refuse an id it does not know.
func (h *harness) category(ctx context.Context) int64 {
	GinkgoHelper()
	counts := map[int64]int{}
	for _, p := range h.census(ctx) {
		if id, ok := exactInt(p.CategoryID); ok {
			counts[id]++
		}
	}
	best := int64(fallbackCategory)
	for _, id := range slices.Sorted(maps.Keys(counts)) {
		if counts[id] > counts[best] {
			best = id
		}
	}
	return best
}

// absentID returns an id that no pet has, in all likelihood: a random one
// in a range no catalogue fills, never a fixed guess.
func (h *harness) absentID() int64 {
	return 1<<53 + h.rnd.Int64N(math.MaxInt64-1<<53)
}

// invalidKey returns a key no server issued.
func (h *harness) invalidKey() string {
	return "conformance-invalid-" + strconv.FormatUint(h.rnd.Uint64(), 36)
}

// petName returns a new name for a pet this run creates.
func (h *harness) petName() string {
	return NamePrefix + h.runID + "-" + strconv.FormatInt(h.named.Add(1), 10)
}

// randomStatus returns one of the PetStatus values.
func (h *harness) randomStatus() string {
	return h.contract.Statuses[h.rnd.IntN(len(h.contract.Statuses))]
}

// pastSunset reports whether getPet's removal date has come.
func (h *harness) pastSunset() bool {
	return !h.cfg.now().Before(h.contract.Deprecation.Sunset)
}

// skipPastSunset skips a spec of getPet once it may have been removed.
func (h *harness) skipPastSunset() {
	if h.pastSunset() {
		Skip("getPet was to be removed on " + h.contract.SunsetDay + ": it need not answer any more")
	}
}

// newPetBody returns a NewPet as JSON. An empty status is left out.
func newPetBody(name string, categoryID int64, status string) string {
	m := map[string]any{"name": name, "categoryId": categoryID}
	if status != "" {
		m["status"] = status
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// create creates a pet and checks the answer: 201 with the pet sent and
// an integer id. It returns the pet as sent, with the id it got.
func (h *harness) create(ctx context.Context, categoryID int64, status string) (*exchange, pet) {
	GinkgoHelper()
	name := h.petName()
	x := h.createPet(ctx, newPetBody(name, categoryID, status))
	return x, checkCreated(x, name, categoryID, status)
}

// checkCreated checks x, the answer to a createPet of the pet of name,
// categoryID and status: 201 with that pet and an integer id. It returns
// the pet as sent, with the id it got.
func checkCreated(x *exchange, name string, categoryID int64, status string) pet {
	GinkgoHelper()
	x.require(x.status == http.StatusCreated, ruleCreate, fmt.Sprintf("status %d, want 201", x.status))
	got := x.pet()
	_, ok := exactInt(got.ID)
	x.require(ok, ruleCreate, fmt.Sprintf("id %s is not an int64 integer", got.ID))
	want := pet{ID: got.ID, Name: name, CategoryID: json.Number(strconv.FormatInt(categoryID, 10))}
	if status != "" {
		want.Status = &status
	} else {
		want.Status = got.Status // any PetStatus or none; the schema checked which
	}
	same, diff := got.same(want)
	x.require(same, ruleCreate, "the created pet differs from what was sent: "+diff)
	return got
}
