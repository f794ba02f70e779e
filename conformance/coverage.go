package conformance

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// coverage notes which answers of which operations a run saw, so that
// the run can say what it exercised of the document and what not, and why.
type coverage struct {
	mu   sync.Mutex // guards seen
	seen map[string]map[int]bool
}

// saw notes an answer of status to operation op.
func (c *coverage) saw(op string, status int) {
	if c == nil || status == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[string]map[int]bool{}
	}
	if c.seen[op] == nil {
		c.seen[op] = map[int]bool{}
	}
	c.seen[op][status] = true
}

// OperationCoverage is what a run exercised of one operation.
type OperationCoverage struct {
	ID, Method, Path string
	// Seen are the documented statuses the operation answered with;
	// Unseen the others.
	Seen, Unseen []int
	// Undocumented are statuses it answered with that it does not
	// document.
	Undocumented []int
	// Why says why the checks of the operation did not all run: left out
	// by a read-only run or a label filter, or skipped for the reason a
	// check gave. Empty when they all ran.
	Why string
	// Sampled says which enumerations the checks of the operation took a
	// sample of, rather than one check each value, such as "status: 8 of
	// its 10000 values".
	Sampled []string
	// Behaviour says which behaviour checks of the operation ran, such
	// as "an unknown id 404s ran", and why the others did not, in words,
	// such as "skipped: getWidget documents no 404, ...".
	Behaviour string
}

// summarize returns the coverage of every operation of the contract, with
// the reasons the report gives for checks that did not run.
func (c *coverage) summarize(contract check.Contract, report types.Report, readOnly bool) []OperationCoverage {
	c.mu.Lock()
	defer c.mu.Unlock()
	sampled := sampledEnums(contract)
	var out []OperationCoverage
	for _, op := range contract.Operations {
		oc := OperationCoverage{ID: op.ID, Method: op.Method, Path: op.Path, Sampled: sampled[op.ID]}
		seen := c.seen[op.ID]
		for _, s := range op.Statuses {
			if seen[s] {
				oc.Seen = append(oc.Seen, s)
			} else {
				oc.Unseen = append(oc.Unseen, s)
			}
		}
		for s := range seen {
			if !slices.Contains(op.Statuses, s) {
				oc.Undocumented = append(oc.Undocumented, s)
			}
		}
		slices.Sort(oc.Undocumented)
		oc.Why = notRun(op, report, readOnly, len(seen) > 0)
		oc.Behaviour = behaviourSummary(contract, op, report)
		out = append(out, oc)
	}
	return out
}

// sampledEnums says, by operation, which enumerations its checks take a
// sample of: the filters of a list whose values are too many to check one
// by one, and the PetStatus values createPet is sent with.
func sampledEnums(c check.Contract) map[string][]string {
	out := map[string][]string{}
	for _, res := range c.Resources {
		if res.List == nil {
			continue // filters are a list's
		}
		for _, f := range res.Filters {
			if n := len(f.Enum()); n > check.MaxSampledValues {
				out[res.List.ID] = append(out[res.List.ID], fmt.Sprintf("%s: %d of its %d values", f.Name(), check.MaxSampledValues, n))
			}
		}
	}
	if n := len(c.Statuses); c.IsPetstore && n > check.MaxSampledValues {
		out[spec.CreatePet] = append(out[spec.CreatePet], fmt.Sprintf("status: %d of its %d values", check.MaxSampledValues, n))
	}
	return out
}

// notRun says why the checks of op did not all run, from the report of
// the run, or "" when they did.
func notRun(op *spec.Operation, report types.Report, readOnly, seen bool) string {
	label := opLabel(op)
	var skipped []string
	ran := false
	for _, s := range report.SpecReports {
		if !slices.Contains(s.Labels(), label) {
			continue
		}
		switch s.State {
		case types.SpecStateSkipped:
			if msg := firstLine(skipReason(report, s)); msg != notSelected && !slices.Contains(skipped, msg) {
				skipped = append(skipped, msg)
			}
		case types.SpecStatePending:
		default:
			ran = true
		}
	}
	switch {
	case len(skipped) > 0:
		return "skipped: " + strings.Join(skipped, "; ")
	case !ran && !seen && readOnly && request.Mutating(op):
		return "not run: read-only"
	case !ran && !seen:
		return "not run: not selected by the label filter"
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// writeCoverage writes the coverage summary of a run, which sent posts
// POST requests of the most it may.
func writeCoverage(w io.Writer, ops []OperationCoverage, posts, maxPosts int) {
	total, seen := 0, 0
	for _, oc := range ops {
		total += len(oc.Seen) + len(oc.Unseen)
		seen += len(oc.Seen)
	}
	fmt.Fprintf(w, "\nCoverage: %d operations, %d of their %d documented answers seen; %d POST requests sent (at most %d)\n", len(ops), seen, total, posts, maxPosts)
	width := 0
	for _, oc := range ops {
		width = max(width, len(oc.ID)+len(oc.Method)+len(oc.Path)+2)
	}
	for _, oc := range ops {
		name := oc.ID + " " + oc.Method + " " + oc.Path
		fmt.Fprintf(w, "  %-*s  %s\n", width, name, oc.statuses())
		if oc.Why != "" {
			fmt.Fprintf(w, "  %-*s    %s\n", width, "", oc.Why)
		}
		if len(oc.Sampled) > 0 {
			fmt.Fprintf(w, "  %-*s    sampled: %s\n", width, "", strings.Join(oc.Sampled, "; "))
		}
		if oc.Behaviour != "" {
			fmt.Fprintf(w, "  %-*s    behaviour: %s\n", width, "", oc.Behaviour)
		}
	}
}

// statuses says which documented answers were seen.
func (oc OperationCoverage) statuses() string {
	var parts []string
	for _, s := range oc.Seen {
		parts = append(parts, strconv.Itoa(s)+" seen")
	}
	for _, s := range oc.Unseen {
		parts = append(parts, strconv.Itoa(s)+" not seen")
	}
	for _, s := range oc.Undocumented {
		parts = append(parts, strconv.Itoa(s)+" seen, undocumented")
	}
	if len(parts) == 0 {
		return "documents no status"
	}
	return strings.Join(parts, ", ")
}
