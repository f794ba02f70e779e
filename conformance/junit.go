package conformance

import (
	"encoding/xml"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"
)

// The JUnit report is a report of the deployment, for CI: one test case
// a check, named as the check reads, failed with the rule it broke as the
// failure's type, or skipped with the reason; and the run's facts as
// properties: the base URL, the document, the run id, the seed, and what
// the run covered. It names no source file and no directory of the machine
// that ran it.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Package    string          `xml:"package,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Status    string        `xml:"status,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// runFacts are the facts of a run that the report's properties give.
type runFacts struct {
	suite                    string // the suite's name, after the document's title
	baseURL, document, runID string
	seed                     int64
	strict, readOnly         bool
	labelFilter              string
	coverage                 []OperationCoverage
}

// brokenRule finds the rule a failure names.
var brokenRule = regexp.MustCompile(`broken rule ([a-z0-9.-]+):`)

// checkName is a check's name as the log and the report give it: its
// containers and its text, and its labels.
func checkName(s types.SpecReport) string {
	name := strings.Join(append(slices.Clone(s.ContainerHierarchyTexts), s.LeafNodeText), " ")
	if s.LeafNodeType.Is(types.NodeTypesForSuiteLevelNodes) {
		name = strings.Trim(s.LeafNodeType.String()+" "+s.LeafNodeText, " []")
	}
	if labels := s.Labels(); len(labels) > 0 {
		name += " [" + strings.Join(labels, ", ") + "]"
	}
	return name
}

// notSelected is the reason of a check the label filter left out.
const notSelected = "not selected by the label filter"

// skipReason says why a check of a run was skipped: the reason it gave,
// that the label filter left it out, or that the run stopped before it,
// interrupted or out of time.
func skipReason(report types.Report, s types.SpecReport) string {
	if msg := strings.TrimSpace(s.Failure.Message); msg != "" {
		return msg
	}
	if filter, err := types.ParseLabelFilter(report.SuiteConfig.LabelFilter); err == nil && !filter(s.Labels()) {
		return notSelected
	}
	if reasons := report.SpecialSuiteFailureReasons; len(reasons) > 0 {
		return "not run: " + strings.ToLower(strings.Join(reasons, ", "))
	}
	return "not run: the run stopped before it"
}

// writeJUnit writes the JUnit report of a run to path.
func writeJUnit(path string, report types.Report, facts runFacts) error {
	suite := junitSuite{
		Name:      facts.suite,
		Package:   facts.baseURL,
		Time:      seconds(report.RunTime),
		Timestamp: report.StartTime.UTC().Format(time.RFC3339),
	}
	suite.Properties = append(suite.Properties,
		junitProperty{"base-url", facts.baseURL},
		junitProperty{"document", facts.document},
		junitProperty{"run-id", facts.runID},
		junitProperty{"seed", strconv.FormatInt(facts.seed, 10)},
		junitProperty{"strict", strconv.FormatBool(facts.strict)},
		junitProperty{"read-only", strconv.FormatBool(facts.readOnly)},
		junitProperty{"label-filter", facts.labelFilter},
	)
	seen, total := 0, 0
	for _, oc := range facts.coverage {
		seen += len(oc.Seen)
		total += len(oc.Seen) + len(oc.Unseen)
		value := oc.Method + " " + oc.Path + ": " + oc.statuses()
		if oc.Why != "" {
			value += "; " + oc.Why
		}
		if len(oc.Sampled) > 0 {
			value += "; sampled: " + strings.Join(oc.Sampled, "; ")
		}
		if oc.Behaviour != "" {
			value += "; behaviour: " + oc.Behaviour
		}
		suite.Properties = append(suite.Properties, junitProperty{"coverage." + oc.ID, value})
	}
	suite.Properties = append(suite.Properties, junitProperty{"coverage", fmt.Sprintf("%d of %d documented answers seen", seen, total)})

	for _, s := range report.SpecReports {
		suiteLevel := s.LeafNodeType.Is(types.NodeTypesForSuiteLevelNodes)
		if suiteLevel && !s.State.Is(types.SpecStateFailureStates) {
			continue // setup that went well is no check
		}
		c := junitCase{Name: checkName(s), Classname: facts.suite, Status: s.State.String(), Time: seconds(s.RunTime)}
		switch {
		case s.State.Is(types.SpecStateFailureStates):
			msg := s.Failure.Message
			typ := s.State.String()
			if m := brokenRule.FindStringSubmatch(msg); m != nil {
				typ = m[1]
			}
			c.Failure = &junitFailure{Message: firstLine(msg), Type: typ, Text: msg}
			suite.Failures++
		case s.State == types.SpecStateSkipped, s.State == types.SpecStatePending:
			c.Skipped = &junitSkipped{Message: skipReason(report, s)}
			suite.Skipped++
		}
		suite.Tests++
		suite.Cases = append(suite.Cases, c)
	}
	doc := junitSuites{
		Name: facts.suite, Tests: suite.Tests, Failures: suite.Failures, Skipped: suite.Skipped,
		Time: suite.Time, Suites: []junitSuite{suite},
	}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(out, '\n')...), 0o644)
}

func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}
