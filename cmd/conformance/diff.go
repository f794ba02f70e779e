package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/petstore/contract/cmd/internal/cli"
	"github.com/petstore/contract/spec/compat"
)

// errBreaking says that the newer document breaks clients of the older;
// the report has said how.
var errBreaking = errors.New("breaking changes")

// maxDocument bounds what diff reads of a document: a contract is a few
// hundred kilobytes, and a file far larger is a mistake, such as a log
// named in its place.
const maxDocument = 32 << 20

// diffOptions are the settings of one comparison, from the command line.
type diffOptions struct {
	format  string
	strict  bool
	noColor bool
	old     string
	new     string
}

// diffUsage is the head of diff's help.
const diffUsage = `Usage: conformance diff [flags] OLD NEW

Compares two versions of an OpenAPI document (3.0, 3.1, or Swagger 2.0), OLD
and NEW, files or - for standard input, and lists what changed: the changes
that break a client written for OLD first, then those that may break some,
then the others. Descriptions, summaries, examples and petmock's x-petmock-*
extensions are not compared: no client can tell them apart.

Exit status: 0 nothing breaks, 1 a change breaks clients (or, with
--strict, may break some), 2 the command line, or a document that cannot be
read.

Flags:
`

// parseDiffOptions reads diff's flags and its two documents' names.
func parseDiffOptions(args []string, stderr io.Writer) (diffOptions, error) {
	var o diffOptions
	fs := flag.NewFlagSet("conformance diff", flag.ContinueOnError)
	fs.StringVar(&o.format, "format", "text", "`text` for people, or json for machines")
	fs.BoolVar(&o.strict, "strict", false, "also exit 1 on a change that may break some clients, such as a request property removed")
	fs.BoolVar(&o.noColor, "no-color", false, "print no colour codes; none are printed anyway when standard output is not a terminal, or NO_COLOR is set")
	if err := cli.Parse(fs, args, map[string]string{"nocolor": "no-color", "output": "format", "json": "format"}); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stderr, diffUsage)
			cli.PrintDefaults(fs, stderr)
			return o, err
		}
		return o, usageError{err}
	}
	switch {
	case o.format != "text" && o.format != "json":
		return o, usagef("--format %s: must be text or json", o.format)
	case fs.NArg() < 2:
		return o, usagef("diff needs two documents, OLD and NEW, such as: conformance diff old.yaml spec/openapi.yaml")
	case fs.NArg() > 2:
		return o, usagef("diff: unexpected argument %q; it compares two documents, OLD and NEW", fs.Arg(2))
	case fs.Arg(0) == "-" && fs.Arg(1) == "-":
		return o, usagef("diff: only one of OLD and NEW can be - (standard input)")
	}
	o.old, o.new = fs.Arg(0), fs.Arg(1)
	return o, nil
}

// runDiff compares the two documents args name. It returns errBreaking if
// a change breaks clients of the older, and a usageError if nothing could
// be compared.
func runDiff(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, err := parseDiffOptions(args, stderr)
	if err != nil {
		return err
	}
	base, err := readDocument(o.old, stdin)
	if err != nil {
		return err
	}
	revision, err := readDocument(o.new, stdin)
	if err != nil {
		return err
	}
	report, err := compat.Compare(base, revision)
	if err != nil {
		return usagef("diff: %s", oneLine(err.Error()))
	}
	if o.format == "json" {
		err = writeDiffJSON(stdout, base, revision, report)
	} else {
		err = writeDiffText(stdout, base, revision, report, useColor(o.noColor, getenv, stdout))
	}
	if err != nil {
		return fmt.Errorf("diff: write the report: %w", err)
	}
	if report.Count(compat.Breaking) > 0 || o.strict && report.Count(compat.MayBreak) > 0 {
		return errBreaking
	}
	return nil
}

// useColor reports whether the report written to w is coloured: only on a
// terminal, and neither with --no-color nor with NO_COLOR set.
func useColor(noColor bool, getenv func(string) string, w io.Writer) bool {
	return !noColor && getenv("NO_COLOR") == "" && cli.IsTerminal(w)
}

// readDocument reads the document of a file, or of stdin for "-". Its
// error, a usageError, names the file and says what is wrong, on one line.
func readDocument(name string, stdin io.Reader) (*compat.Document, error) {
	label := name
	var r io.Reader = stdin
	if name == "-" {
		label = "standard input"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, usagef("diff: %s: %v", name, pathReason(err))
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxDocument+1))
	if err != nil {
		return nil, usagef("diff: %s: %v", label, pathReason(err))
	}
	if len(data) > maxDocument {
		return nil, usagef("diff: %s: larger than %d MiB; is it the document?", label, maxDocument>>20)
	}
	doc, err := compat.Read(label, data)
	if err != nil {
		return nil, usagef("diff: %s: %s", label, oneLine(err.Error()))
	}
	return doc, nil
}

// pathReason returns what went wrong with a file, without the file's name
// an fs.PathError repeats.
func pathReason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// oneLine returns s with its line breaks and runs of spaces made single
// spaces: a validation error may list its causes on lines of their own.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
