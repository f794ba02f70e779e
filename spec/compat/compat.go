// Package compat compares two versions of an OpenAPI document and says
// which of the changes break a client written for the older one: a removed
// operation, a new required request property, a narrowed enumeration, a
// removed response property. It is the check a team runs before merging a
// change of the contract.
//
// The comparison is oasdiff's (github.com/oasdiff/oasdiff), whose rules
// judge each change by the side of the wire it is on: a value a request
// may no longer send breaks clients, one a response may now send breaks
// them too. What a client cannot notice is not compared: descriptions,
// summaries, examples, and extensions other than the few oasdiff gives a
// meaning (x-sunset, x-stability-level, x-extensible-enum), so none of
// petmock's x-petmock-* extensions.
//
// Only the conformance command links this package: petmock has no use for
// it.
package compat

import (
	"fmt"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"
)

// Report is what Compare found.
type Report struct {
	// Changes are the changes from the older document to the newer, the
	// breaking ones first, then those that may break, then the others;
	// within each, by path and method.
	Changes []Change
	// Versioning are what the two documents' info.version say of the
	// breaking changes: that a change breaks clients although the
	// version stayed the same, went down, or did not take the major step
	// semantic versioning asks for. They are no change of the document,
	// so Changes leaves them out, and none is said unless a change
	// breaks clients.
	Versioning []Remark
}

// Remark is something a comparison found of the two documents as a
// whole, rather than a change of one of them.
type Remark struct {
	// Text says it, such as "a breaking change was detected but the
	// version is still `1.0.0`".
	Text string `json:"text"`
	// Rule names the rule of oasdiff that found it, such as
	// api-version-not-bumped.
	Rule string `json:"rule"`
}

// versioningRules are oasdiff's rules of the versioning policy: a
// breaking change calls for a major step of info.version.
var versioningRules = []string{checker.APIVersionNotBumpedId, checker.APIVersionDecreasedId, checker.APIMajorVersionNotBumpedId}

// Count returns the number of changes of severity s.
func (r *Report) Count(s Severity) int {
	n := 0
	for _, c := range r.Changes {
		if c.Severity == s {
			n++
		}
	}
	return n
}

// Compare compares base, the older version of a document, with revision,
// the newer one.
func Compare(base, revision *Document) (*Report, error) {
	b, r, err := comparable(base, revision)
	if err != nil {
		return nil, err
	}
	// Descriptions and examples change nothing a client sees, and no rule
	// judges them: leaving them out only spares the work.
	config := diff.NewConfig(diff.WithExcludeElements([]string{diff.ExcludeDescriptionOption, diff.ExcludeExamplesOption}))
	d, sources, err := diff.GetWithOperationsSourcesMap(config, b, r)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	found := checker.CheckBackwardCompatibilityUntilLevel(checker.NewConfig(checker.GetAllChecks()), d, sources, checker.INFO)
	report := &Report{Changes: make([]Change, 0, len(found))}
	localize := checker.NewDefaultLocalizer()
	for _, c := range found {
		if slices.Contains(versioningRules, c.GetId()) {
			report.Versioning = append(report.Versioning, Remark{Text: c.GetUncolorizedText(localize), Rule: c.GetId()})
			continue
		}
		report.Changes = append(report.Changes, Change{
			Severity: severity(c.GetLevel()),
			Method:   c.GetOperation(),
			Path:     c.GetPath(),
			Section:  c.GetSection(),
			Text:     c.GetUncolorizedText(localize),
			Rule:     c.GetId(),
		})
	}
	// oasdiff orders its levels as these severities; stable, so its order
	// within a level, by path and method, stays.
	slices.SortStableFunc(report.Changes, func(x, y Change) int { return int(y.Severity) - int(x.Severity) })
	return report, nil
}

// severity maps an oasdiff level to a severity: an error breaks clients,
// a warning may, and the rest do not.
func severity(l checker.Level) Severity {
	switch l {
	case checker.ERR:
		return Breaking
	case checker.WARN:
		return MayBreak
	default:
		return NonBreaking
	}
}

// comparable reads base and revision again, each into a copy of its own,
// as oasdiff compares them: flattened (see flatten) if both can be, else
// both as written, for a document flattened and one not differ where
// nothing changed.
func comparable(base, revision *Document) (*load.SpecInfo, *load.SpecInfo, error) {
	b, r, err := parsePair(base, revision)
	if err != nil {
		return nil, nil, err
	}
	if flatten(b) != nil || flatten(r) != nil {
		if b, r, err = parsePair(base, revision); err != nil {
			return nil, nil, err
		}
	}
	return &load.SpecInfo{Url: base.Name, Spec: b, Version: base.Version},
		&load.SpecInfo{Url: revision.Name, Spec: r, Version: revision.Version}, nil
}

// parsePair parses the two documents Read has read.
func parsePair(base, revision *Document) (*openapi3.T, *openapi3.T, error) {
	b, err := parse(base.Name, base.data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", base.Name, err)
	}
	r, err := parse(revision.Name, revision.data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", revision.Name, err)
	}
	return b, r, nil
}
