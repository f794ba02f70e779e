// Package cli holds what the repository's commands share of their command
// lines: flags written with two dashes, and one clear line for a mistake,
// with the flag that was probably meant.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Parse parses args with fs, printing nothing: a mistake comes back as one
// error that says what is wrong, such as "unknown flag --jnuit-report; did
// you mean --junit-report?", and -h or --help as flag.ErrHelp. aliases
// name the flag meant by words a user may try instead, such as "port" for
// "addr".
func Parse(fs *flag.FlagSet, args []string, aliases map[string]string) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		name = strings.TrimLeft(name, "-")
		if meant := Suggest(fs, name, aliases); meant != "" {
			return fmt.Errorf("unknown flag --%s; did you mean --%s?", name, meant)
		}
		return fmt.Errorf("unknown flag --%s; --help lists the flags", name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Errorf("flag --%s needs a value", strings.TrimLeft(name, "-"))
	}
	// invalid value "x" for flag -seed: parse error
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		if value, flagPart, found := strings.Cut(rest, " for flag -"); found {
			name, reason, _ := strings.Cut(flagPart, ": ")
			return fmt.Errorf("--%s %s: %s", strings.TrimLeft(name, "-"), value, reason)
		}
	}
	return err
}

// Suggest returns the flag of fs that a user who typed name probably
// meant: an alias, a flag that name begins or that begins name, or one a
// couple of typos away. It returns "" when no flag is close.
func Suggest(fs *flag.FlagSet, name string, aliases map[string]string) string {
	if meant, ok := aliases[name]; ok && fs.Lookup(meant) != nil {
		return meant
	}
	best, bestDist := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		d := distance(name, f.Name)
		if len(name) >= 3 && (strings.HasPrefix(f.Name, name) || strings.HasPrefix(name, f.Name)) {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	return best
}

// distance is the Damerau-Levenshtein distance between a and b, with
// adjacent transpositions counted as one edit: "jnuit" is one from "junit".
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// PrintDefaults writes the flags of fs as flag.PrintDefaults does, but
// with two dashes, as the README writes them.
func PrintDefaults(fs *flag.FlagSet, w io.Writer) {
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "  -"); ok {
			line = "  --" + rest
		}
		io.WriteString(w, line)
	}
}
