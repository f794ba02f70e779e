package conformance

import (
	"fmt"
	"io"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// SuiteDescription names the suite of a run of the document of c in
// reports, after the document's own title, such as "Petstore
// conformance" for the built-in one; nil names the built-in one.
func SuiteDescription(c *spec.Contract) string {
	if c == nil {
		if def, err := spec.Default(); err == nil {
			c = def
		}
	}
	if c == nil || c.Doc == nil || c.Doc.Info == nil || strings.TrimSpace(c.Doc.Info.Title) == "" {
		return "conformance"
	}
	return strings.TrimSpace(c.Doc.Info.Title) + " conformance"
}

// RunOptions say how a run goes and what it reports as it goes; what it
// judges is the Config's. Each zero value leaves Ginkgo's default, or,
// under go test, what the -ginkgo.* flags say.
type RunOptions struct {
	// LabelFilter runs only the checks whose labels match it, a label
	// expression such as "auth || limit" (see CheckLabelFilter); empty
	// runs them all. Run narrows it with Config.ReadOnly and
	// Config.Strict.
	LabelFilter string
	// Seed orders the checks, where they run in random order, and seeds
	// the run's random choices where Config.Seed is zero. The report
	// prints it, so that a run can be repeated. Zero means one from the
	// clock.
	Seed int64
	// Randomize runs the checks in an order of the seed rather than as
	// they are declared: checks must pass in any order.
	Randomize bool
	// Timeout bounds the whole run: past it the checks left do not run,
	// and the run fails. Zero means an hour.
	Timeout time.Duration
	// NoColor prints no colour codes.
	NoColor bool
	// Verbose reports every check as it runs, not only the failures;
	// Succinct reports a line for the run.
	Verbose, Succinct bool
}

// CheckLabelFilter returns an error, which says where, if expr is not a
// label expression RunOptions.LabelFilter can take: labels joined by &&,
// || and !, grouped by parentheses, as Ginkgo reads them.
func CheckLabelFilter(expr string) error {
	_, err := types.ParseLabelFilter(expr)
	return err
}

// Run registers the specs, runs them against the deployment cfg describes
// as opts ask and reports whether all passed. Ginkgo runs them, and allows
// that once per process. Run returns an error, and runs nothing, when
// opts cannot be run: a label filter that does not parse.
//
// Checks fail through the suite's own reports, never through a Gomega
// matcher, so no fail handler is registered with Gomega: the values a
// matcher prints come from the server and are not redacted.
func Run(cfg Config, opts RunOptions) (bool, error) {
	if err := CheckLabelFilter(opts.LabelFilter); err != nil {
		return false, fmt.Errorf("label filter %q: %w", opts.LabelFilter, err)
	}
	suiteConfig, reporterConfig := opts.ginkgo()
	// The tree needs facts of the document, such as the PetStatus values
	// that make one entry each, so the document is read here, once; the
	// harness waits for BeforeSuite.
	p, setupErr := check.Prepare(cfg.settings(nil))
	s := &suite{contract: p.Contract, key: cfg.APIKey, strict: cfg.Strict, readOnly: cfg.ReadOnly, coverage: &coverage{}}
	BeforeSuite(func() {
		if setupErr == nil {
			setupErr = cfg.validateFields()
		}
		if setupErr != nil {
			Fail(judge.RedactKey("the configuration: "+setupErr.Error(), cfg.APIKey))
		}
		s.h = check.New(cfg.settings(s.coverage.saw), p, uint64(GinkgoRandomSeed()))
		fmt.Fprintf(cfg.output(), "conformance: run id %s; items created are named %s%s-N, or shorter where the document asks\n", s.h.RunID(), NamePrefix, s.h.RunID())
	})
	s.register()
	var junit func() error
	ReportAfterSuite("the run's summary", func(report Report) {
		junit = s.afterSuite(cfg, p, report)
	})
	suiteConfig.LabelFilter = cfg.labelFilter(suiteConfig.LabelFilter)
	passed := RunSpecs(noTestingT{}, SuiteDescription(p.Contract.Contract), suiteConfig, reporterConfig)
	// The JUnit report is written once Ginkgo is done, so that a signal
	// that comes meanwhile is the command's alone to act on.
	if junit != nil {
		if err := junit(); err != nil {
			fmt.Fprintf(cfg.output(), "conformance: writing the JUnit report: %v\n", err)
		}
	}
	return passed, nil
}

// ginkgo returns Ginkgo's configuration of a run of o: what Ginkgo holds,
// its defaults or the -ginkgo.* flags of go test, with o's settings on
// it.
func (o RunOptions) ginkgo() (types.SuiteConfig, types.ReporterConfig) {
	suiteConfig, reporterConfig := GinkgoConfiguration()
	if o.LabelFilter != "" {
		suiteConfig.LabelFilter = o.LabelFilter
	}
	if o.Seed != 0 {
		suiteConfig.RandomSeed = o.Seed
	}
	if o.Timeout > 0 {
		suiteConfig.Timeout = o.Timeout
	}
	suiteConfig.RandomizeAllSpecs = suiteConfig.RandomizeAllSpecs || o.Randomize
	reporterConfig.NoColor = reporterConfig.NoColor || o.NoColor
	reporterConfig.Verbose = reporterConfig.Verbose || o.Verbose
	reporterConfig.Succinct = reporterConfig.Succinct || o.Succinct
	return suiteConfig, reporterConfig
}

// noTestingT is the GinkgoTestingT of a run: Run's result says whether a
// check failed.
type noTestingT struct{}

func (noTestingT) Fail() {}

// afterSuite writes what a run ends with on cfg.Output: the coverage
// summary and the checks skipped, with their reasons. It returns the
// writing of the JUnit report, or nil if the run asks for none.
func (s *suite) afterSuite(cfg Config, p check.Prepared, report Report) func() error {
	out := cfg.output()
	var cov []OperationCoverage
	runID := cfg.RunID
	// A run that selected no check has no harness: it still says what
	// it left out.
	posts := 0
	if s.h != nil {
		posts, runID = int(min(s.h.Posts(), int64(cfg.maxCreates()))), s.h.RunID()
	}
	if p.Contract.Contract != nil {
		cov = s.coverage.summarize(p.Contract, report, cfg.ReadOnly)
		writeCoverage(out, cov, posts, cfg.maxCreates())
	}
	writeSkipped(out, report)
	if cfg.JUnitReport == "" {
		return nil
	}
	base, _ := cfg.baseURL()
	facts := runFacts{
		suite:       SuiteDescription(p.Contract.Contract),
		document:    p.Contract.Doc.Info.Title + " " + p.Contract.Doc.Info.Version,
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
	return func() error { return writeJUnit(cfg.JUnitReport, report, facts) }
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
	contract check.Contract
	// key is the run's key, which the near misses of it are made of.
	key string
	h   *check.Harness
	// strict and readOnly say which checks the run makes: one that would
	// only be left out is not declared at all, so that no check is
	// reported skipped without a reason.
	strict, readOnly bool
	// coverage notes the answers of the run, by operation.
	coverage *coverage
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

// register declares the checks: the Petstore's where the document has its
// operations, and the generic ones of every operation and resource.
func (s *suite) register() {
	if s.contract.IsPetstore {
		s.describeAuth()
		s.describeList()
		s.describeCreate()
		s.describeGet()
		s.describeDeprecation()
		s.describePagination()
		s.describeErrorCodes()
	}
	s.describeOperations()
	s.describeCredentials()
	s.describeLists()
	s.describeResources()
	s.describeUnknownIDs()
}
