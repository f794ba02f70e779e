package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/petstore/contract/cmd/internal/cli"
	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/conformance/replay"
	"github.com/petstore/contract/spec"
)

// errReplayFailed says that a request replayed got an answer that breaks
// the document, or none; the report has said which.
var errReplayFailed = errors.New("replayed requests failed")

// replayOptions are the settings of one replay, from the command line.
type replayOptions struct {
	cfg      replay.Config
	baseURL  string
	specFile string
	file     string
}

// replayUsage is the head of replay's help.
const replayUsage = `Usage: conformance replay [flags] FILE --base-url URL

Sends the requests an app made against petmock, as petmock's journal kept
them, to a deployment such as staging, oldest first, and judges each answer
against the document: whether what the app actually uses works there. FILE
is the JSON GET /__petmock/requests answers (the console's journal saves
it), or - for standard input.

The run's key goes where the app sent one of petmock's, and in place of every
value the journal hid. An item the app created is created again, and the
requests after it name the id the deployment gave it. A request of no
operation of the document, one whose body the journal cut, and one that names
an item the replay could not create are skipped, saying why.

Exit status: 0 every answer is one the document allows, 1 one is not (or did
not come), 2 the command line, or a file that is no journal of petmock's.

Flags:
`

// parseReplayOptions reads replay's flags and its file's name.
func parseReplayOptions(args []string, getenv func(string) string, stderr io.Writer) (replayOptions, error) {
	var o replayOptions
	fs := flag.NewFlagSet("conformance replay", flag.ContinueOnError)
	fs.StringVar(&o.baseURL, "base-url", "", "`URL` of the deployment, with the version segment, such as https://staging.example/v1 (required)")
	fs.StringVar(&o.cfg.APIKey, "api-key", "", "API `key` of the deployment, sent where the app sent petmock's and never printed (default $"+keyEnv+")")
	fs.StringVar(&o.specFile, "spec", "", "judge against the OpenAPI document in `FILE` instead of the built-in one")
	fs.BoolVar(&o.cfg.ReadOnly, "read-only", false, "replay only GET requests: for production")
	fs.BoolVar(&o.cfg.Strict, "strict", false, "also hold the answers to petmock's choices of headers")
	fs.DurationVar(&o.cfg.Timeout, "timeout", replay.DefaultTimeout, "time allowed for each request, from sending it to the last byte of the answer")
	// Flags may come after the file, as the usage line writes them.
	var rest []string
	for len(args) > 0 {
		if err := cli.Parse(fs, args, flagAliases); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stderr, replayUsage)
				cli.PrintDefaults(fs, stderr)
				return o, err
			}
			return o, usageError{err}
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if o.cfg.APIKey == "" {
		o.cfg.APIKey = getenv(keyEnv)
	}
	switch {
	case len(rest) == 0:
		return o, usagef("replay needs a journal, such as: conformance replay journal.json --base-url https://staging.example/v1")
	case len(rest) > 1:
		return o, usagef("replay: unexpected argument %q; it replays one journal", rest[1])
	case o.baseURL == "":
		return o, usagef("replay: --base-url is required, such as --base-url https://staging.example/v1")
	case o.cfg.APIKey == "":
		return o, usagef("replay: no API key: pass --api-key or set %s", keyEnv)
	case o.cfg.Timeout <= 0:
		return o, usagef("replay: --timeout %v: must be positive", o.cfg.Timeout)
	}
	base, err := check.ParseBaseURL(o.baseURL)
	if err != nil {
		return o, usagef("replay: --%v", err)
	}
	o.cfg.Base, o.file = base, rest[0]
	return o, nil
}

// runReplay replays the journal args name. It returns errReplayFailed if
// an answer breaks the document, and a usageError if nothing could be
// replayed.
func runReplay(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, err := parseReplayOptions(args, getenv, stderr)
	if err != nil {
		return err
	}
	if o.cfg.Contract, err = readReplayDocument(o.specFile); err != nil {
		return err
	}
	reqs, err := readJournal(o.file, stdin)
	if err != nil {
		return err
	}
	defer redactLog(o.cfg.APIKey, stderr)()
	results, err := replay.Run(ctx, o.cfg, reqs)
	if err != nil {
		return usageError{err}
	}
	if err := writeReplay(stdout, o, results); err != nil {
		return fmt.Errorf("replay: write the report: %w", err)
	}
	for _, r := range results {
		if r.Outcome == replay.Failed {
			return errReplayFailed
		}
	}
	return nil
}

// readReplayDocument reads the document of --spec, or the built-in one.
func readReplayDocument(file string) (*spec.Contract, error) {
	if file == "" {
		return spec.Default()
	}
	c, err := spec.ReadFile(file)
	if err != nil {
		return nil, usagef("replay: --spec: %v", err)
	}
	return c, nil
}

// readJournal reads the journal of a file, or of stdin for "-".
func readJournal(name string, stdin io.Reader) ([]replay.Request, error) {
	r := stdin
	label := "standard input"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, usagef("replay: %s: %v", name, pathReason(err))
		}
		defer f.Close()
		r, label = f, name
	}
	reqs, err := replay.Read(r)
	if err != nil {
		return nil, usagef("replay: %s: %s", label, oneLine(err.Error()))
	}
	return reqs, nil
}

// writeReplay writes the report: a line for each request, the verdict of
// each that failed below it, and a line that counts them.
func writeReplay(w io.Writer, o replayOptions, results []replay.Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "replay: %d requests of %s against %s\n", len(results), o.file, o.cfg.Base)
	var passed, failed, skipped int
	for _, r := range results {
		target := r.Path
		if r.Query != "" {
			target += "?" + r.Query
		}
		line := fmt.Sprintf("%-4s %3d  %s %s", r.Outcome, r.N, r.Method, cli.RedactKey(target, o.cfg.APIKey))
		switch r.Outcome {
		case replay.Passed:
			passed++
			line += fmt.Sprintf(" -> %d", r.Status)
		case replay.Failed:
			failed++
			if r.Status != 0 {
				line += fmt.Sprintf(" -> %d", r.Status)
			}
		case replay.Skipped:
			skipped++
		}
		if sent := strings.TrimPrefix(r.Sent, "/"); r.Sent != "" && o.cfg.Base.Path+r.Sent != target {
			line += " (sent as " + cli.RedactKey("/"+sent, o.cfg.APIKey) + ")"
		}
		if r.Note != "" {
			line += ": " + cli.RedactKey(r.Note, o.cfg.APIKey)
		}
		fmt.Fprintln(bw, line)
		if r.Verdict != nil {
			for l := range strings.Lines(cli.RedactKey(r.Verdict.Error(), o.cfg.APIKey)) {
				fmt.Fprint(bw, "        ", l)
			}
			fmt.Fprintln(bw)
		}
	}
	fmt.Fprintf(bw, "replay: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	return bw.Flush()
}
