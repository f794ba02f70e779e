package main

import (
	"fmt"
	"io"
)

// result is one line of the table: a target, its figures, and the goal
// that both words the goal column and judges the figure.
type result struct {
	target   string
	measured string  // the figures behind the verdict, as the table shows them
	figure   float64 // the one figure the goal judges, counted in its unit
	goal     goal
}

// met reports whether r's figure meets its goal.
func (r result) met() bool { return r.goal.met(r.figure) }

// printTable writes results as aligned columns, with each target's verdict
// last.
func printTable(w io.Writer, results []result) {
	widths := [3]int{len("target"), len("measured"), len("goal")}
	for _, r := range results {
		widths[0] = max(widths[0], len(r.target))
		widths[1] = max(widths[1], len(r.measured))
		widths[2] = max(widths[2], len(r.goal.String()))
	}
	line := func(a, b, c, d string) {
		fmt.Fprintf(w, "%-*s  %-*s  %-*s  %s\n", widths[0], a, widths[1], b, widths[2], c, d)
	}
	line("target", "measured", "goal", "")
	for _, r := range results {
		verdict := "met"
		switch {
		case r.goal.cmp == reference:
			verdict = ""
		case !r.met():
			verdict = "MISSED"
		}
		line(r.target, r.measured, r.goal.String(), verdict)
	}
}
