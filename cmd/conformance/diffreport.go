package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/petstore/contract/spec/compat"
)

// severityColor is the colour of each severity's word on a terminal.
var severityColor = map[compat.Severity]string{
	compat.Breaking:    "\x1b[31m", // red
	compat.MayBreak:    "\x1b[33m", // yellow
	compat.NonBreaking: "\x1b[32m", // green
}

const colorReset = "\x1b[0m"

// severityWidth is the width of the longest severity, "non-breaking", so
// that the changes line up after it.
const severityWidth = len("non-breaking")

// writeDiffText writes the report for people: a line for each document, a
// line for each change, what the versions say of the breaking ones on
// lines of their own right after them, and a line that counts the changes.
func writeDiffText(w io.Writer, base, revision *compat.Document, r *compat.Report, color bool) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "old: %s\n", describe(base))
	fmt.Fprintf(bw, "new: %s\n", describe(revision))
	remarked := false
	remark := func() {
		for _, v := range r.Versioning {
			word := fmt.Sprintf("%-*s", severityWidth, "version")
			if color {
				word = severityColor[compat.Breaking] + word + colorReset
			}
			fmt.Fprintf(bw, "%s  info: %s\n", word, v.Text)
		}
		remarked = true
	}
	for _, c := range r.Changes {
		if c.Severity != compat.Breaking && !remarked {
			remark()
		}
		word := fmt.Sprintf("%-*s", severityWidth, c.Severity)
		if color {
			word = severityColor[c.Severity] + word + colorReset
		}
		fmt.Fprintf(bw, "%s  %s\n", word, c)
	}
	if !remarked {
		remark()
	}
	fmt.Fprintln(bw, summary(r))
	return bw.Flush()
}

// describe names a document by its title, version and file.
func describe(d *compat.Document) string {
	title := d.Title
	if title == "" {
		title = "(no title)"
	}
	if d.Version != "" {
		title += " " + d.Version
	}
	return fmt.Sprintf("%s (%s)", title, d.Name)
}

// summary counts the changes of a report: "3 breaking changes, 2
// non-breaking", or "no changes".
func summary(r *compat.Report) string {
	if len(r.Changes) == 0 {
		return "no changes"
	}
	breaking, mayBreak, other := r.Count(compat.Breaking), r.Count(compat.MayBreak), r.Count(compat.NonBreaking)
	parts := []string{plural(breaking, "breaking change", "breaking changes")}
	if mayBreak > 0 {
		parts = append(parts, plural(mayBreak, "that may break", "that may break"))
	}
	parts = append(parts, fmt.Sprintf("%d non-breaking", other))
	return strings.Join(parts, ", ")
}

// plural returns n with the word for one or for many.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// diffDocument is a document as the JSON report names it.
type diffDocument struct {
	File    string `json:"file"`
	Title   string `json:"title"`
	Version string `json:"version"`
}

// diffJSON is the report for machines.
type diffJSON struct {
	Old     diffDocument    `json:"old"`
	New     diffDocument    `json:"new"`
	Changes []compat.Change `json:"changes"`
	// Versioning are what the versions say of the breaking changes, such
	// as a version that stayed the same; omitted when nothing breaks or
	// the versions say nothing wrong.
	Versioning  []compat.Remark `json:"versioning,omitempty"`
	Breaking    int             `json:"breaking"`
	MayBreak    int             `json:"mayBreak"`
	NonBreaking int             `json:"nonBreaking"`
}

// writeDiffJSON writes the report as one JSON object.
func writeDiffJSON(w io.Writer, base, revision *compat.Document, r *compat.Report) error {
	doc := func(d *compat.Document) diffDocument { return diffDocument{d.Name, d.Title, d.Version} }
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(diffJSON{
		Old:         doc(base),
		New:         doc(revision),
		Changes:     r.Changes,
		Versioning:  r.Versioning,
		Breaking:    r.Count(compat.Breaking),
		MayBreak:    r.Count(compat.MayBreak),
		NonBreaking: r.Count(compat.NonBreaking),
	})
}
