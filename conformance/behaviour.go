package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/spec"
)

// The behaviour checks are those that judge what an operation does, not
// only what it answers: an item created reads back and is listed, a
// delete removes it, an id no item has is not found, a limit and a filter
// hold, the pages of a list hold every item once. The coverage summary
// says, for each operation, which of them ran, and for those that did not,
// why, in words.

// The behaviours, each a label of the specs that check it.
const (
	behaviourCreated    = "created"
	behaviourReplaced   = "replaced"
	behaviourUpdated    = "updated"
	behaviourDeleted    = "deleted"
	behaviourNotFound   = "not-found"
	behaviourConsistent = "consistent"
	behaviourWalked     = "walked"
	behaviourLimit      = "limit"
	behaviourFilter     = "filter"
	behaviourKept       = "kept"
)

// behaviourLabel is the label of the specs that check behaviour b.
func behaviourLabel(b string) string { return "behaviour:" + b }

// behaviourNames say what each behaviour check holds an operation to.
var behaviourNames = map[string]string{
	behaviourCreated:    "read after create and listed",
	behaviourReplaced:   "replace",
	behaviourUpdated:    "update",
	behaviourDeleted:    "delete, then 404 and unlisted",
	behaviourNotFound:   "an unknown id 404s",
	behaviourConsistent: "reads as listed",
	behaviourWalked:     "pages walked, each item once",
	behaviourLimit:      "limit bounds the list",
	behaviourFilter:     "filters match",
	behaviourKept:       "kept to the run's end",
}

// opBehaviour is a behaviour check of an operation, or why there is none:
// the resource the check is of, "" when reason says why it is not made.
type opBehaviour struct {
	name     string
	resource string
	reason   string
}

// behavioursOf returns the behaviour checks of op, of the resources it is
// an operation of, and why each that is not made is not.
func behavioursOf(c check.Contract, op *spec.Operation) []opBehaviour {
	res := op.Resource
	if res == nil {
		return nil
	}
	on := func(b string) opBehaviour { return opBehaviour{name: b, resource: res.Name} }
	not := func(b, why string) opBehaviour { return opBehaviour{name: b, reason: why} }
	var out []opBehaviour
	if res.CreateOp == nil && (op == res.Read || op == res.List) {
		why := fmt.Sprintf("no create of %s was found, so the run has no item of its own to look for", res.Name)
		return append(out, not(behaviourCreated, why), not(behaviourDeleted, why))
	}
	switch op {
	case res.CreateOp:
		out = append(out, on(behaviourCreated))
		if res.Read != nil {
			out = append(out, on(behaviourKept))
		} else {
			out = append(out, not(behaviourKept, fmt.Sprintf("%s has no read of one item", res.Name)))
		}
	case res.Read:
		out = append(out, on(behaviourCreated), on(behaviourNotFound), on(behaviourKept))
		if res.List != nil {
			out = append(out, on(behaviourConsistent))
		}
		if res.Delete != nil {
			out = append(out, on(behaviourDeleted))
		}
	case res.List:
		out = append(out, on(behaviourCreated), on(behaviourWalked))
		if res.Read != nil {
			out = append(out, on(behaviourConsistent))
		} else {
			out = append(out, not(behaviourConsistent, fmt.Sprintf("%s has no read of one item to compare with", res.Name)))
		}
		switch {
		case !c.GenericList(res):
			// The Petstore's own checks judge listPets' limit and filter.
		case res.Paging.Limit == "":
			out = append(out, not(behaviourLimit, "the list has no limit parameter"))
		default:
			out = append(out, on(behaviourLimit))
		}
		switch {
		case !c.GenericList(res):
		case len(check.FilterValues(res)) == 0:
			out = append(out, not(behaviourFilter, "the list has no query parameter that matches a property of its items"))
		default:
			out = append(out, on(behaviourFilter))
		}
	case res.Replace:
		out = append(out, on(behaviourReplaced))
	case res.Update:
		out = append(out, on(behaviourUpdated))
	case res.Delete:
		out = append(out, on(behaviourDeleted))
	}
	return out
}

// behaviourSummary says, for op, which behaviour checks ran and why the
// others did not, from the report of the run; for an operation of no
// resource, why it is not part of one.
func behaviourSummary(c check.Contract, op *spec.Operation, report types.Report) string {
	if op.Resource == nil {
		return "none: " + notAResource(c, op)
	}
	var parts []string
	for _, b := range behavioursOf(c, op) {
		state := b.reason
		if state == "" {
			state = behaviourState(report, b)
		} else {
			state = "not checked: " + state
		}
		parts = append(parts, behaviourNames[b.name]+" "+state)
	}
	return strings.Join(parts, "; ")
}

// behaviourState says how the specs of behaviour b of its resource fared:
// failed, ran, skipped with the first reason, or not run.
func behaviourState(report types.Report, b opBehaviour) string {
	var ran, failed bool
	var skipped string
	for _, s := range report.SpecReports {
		labels := s.Labels()
		if !slices.Contains(labels, behaviourLabel(b.name)) || b.name != behaviourKept && !slices.Contains(labels, "res:"+b.resource) {
			continue
		}
		switch {
		case s.State.Is(types.SpecStateFailureStates):
			failed = true
		case s.State == types.SpecStatePassed:
			ran = true
		case s.State == types.SpecStateSkipped && skipped == "":
			skipped = firstLine(skipReason(report, s))
		}
	}
	switch {
	case failed:
		return "failed"
	case ran:
		return "ran"
	case skipped == notSelected:
		return "not run: not selected by the label filter"
	case skipped != "":
		return "skipped: " + skipped
	}
	return "not run: read-only"
}

// notAResource says why op is no operation of a resource: the note spec
// made of its path, where it made one, or that the document has no create
// and read of items there.
func notAResource(c check.Contract, op *spec.Operation) string {
	for _, note := range c.Notes {
		if strings.HasPrefix(note, "paths."+op.Path+".") || strings.HasPrefix(note, "paths."+op.Path+":") {
			return "not part of a resource: " + note
		}
	}
	return "not part of a resource: the document has no collection that creates items at " + op.Path + " with a read or a list of them"
}
