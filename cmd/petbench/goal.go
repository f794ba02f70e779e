package main

import (
	"fmt"
	"strconv"
	"time"
)

// goal is what a target asks of its figure. The table's goal column and
// the verdict are both read from it, so what petbench says it checks is
// what it checks. The zero goal is met by nothing, so a result that lacks
// one is MISSED rather than passed.
type goal struct {
	label string // names the figure judged when the target does not, as "p99" does; may be empty
	cmp   comparison
	bound float64 // counted in unit: a ratio, bytes or nanoseconds
	unit  unit
}

// comparison is how a figure must stand to a goal's bound.
type comparison int

const (
	noComparison comparison = iota // the zero goal's: met by nothing
	atLeast                        // >=
	atMost                         // <=
	below                          // <
	reference                      // judges nothing: a figure shown beside the goals, to read them by
)

var comparisonSigns = [...]string{noComparison: "no goal", atLeast: ">=", atMost: "<=", below: "<", reference: "for reference"}

// unit is what a goal's bound and the judged figure count, and how the
// bound is written.
type unit int

const (
	percent   unit = iota // a ratio, written as a percentage
	times                 // a ratio, written as a multiple
	megabytes             // bytes, written in whole MB
	duration              // nanoseconds, written as a time.Duration
)

// met reports whether figure, counted in g's unit, meets g. A figure that
// is not a number, such as a ratio over a baseline that did nothing,
// meets no goal.
func (g goal) met(figure float64) bool {
	switch g.cmp {
	case atLeast:
		return figure >= g.bound
	case atMost:
		return figure <= g.bound
	case below:
		return figure < g.bound
	case reference:
		return true
	}
	return false
}

// String words g for the goal column, as in "p99 <= 3x" or "< 300 MB".
func (g goal) String() string {
	if g.cmp == noComparison || g.cmp == reference {
		return comparisonSigns[g.cmp]
	}
	text := comparisonSigns[g.cmp] + " " + g.unit.format(g.bound)
	if g.label != "" {
		text = g.label + " " + text
	}
	return text
}

// format writes v, counted in u, as the goal column shows it.
func (u unit) format(v float64) string {
	switch u {
	case percent:
		return fmt.Sprintf("%.0f%%", 100*v)
	case times:
		return strconv.FormatFloat(v, 'f', -1, 64) + "x"
	case megabytes:
		return fmt.Sprintf("%.0f MB", v/(1<<20))
	case duration:
		return time.Duration(v).String()
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
