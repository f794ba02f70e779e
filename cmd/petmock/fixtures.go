package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/petstore/contract/mockserver/catalogue"
)

// fixturesUsage heads the --help of petmock fixtures.
const fixturesUsage = "Usage: petmock fixtures [--seed N] [--count N] [--status-mix 60:30:10] [--spec FILE] [--resource NAME] [--out FILE]\n"

// fixturesAliases name the flag of petmock fixtures that a user who types
// another word probably means.
var fixturesAliases = map[string]string{
	"pets": "count", "n": "count",
	"output": "out", "o": "out", "file": "out",
	"mix": "status-mix",
}

// fixtures writes a generated catalogue as a fixture. The same arguments
// always give the same bytes.
func fixtures(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("petmock fixtures", flag.ContinueOnError)
	c := catalogue.Seeded{Seed: catalogue.DefaultSeed, Count: catalogue.DefaultCount}
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed; the same seed, count and mix give the same catalogue")
	fs.IntVar(&c.Count, "count", c.Count, "`number` of items of each resource")
	fs.Func("status-mix", "weights of the values of the status property, in the document's order, such as 60:30:10 for available:pending:sold (default: the document's x-petmock-mix)", func(v string) error {
		mix, err := parseMix(v)
		c.StatusMix = mix
		return err
	})
	specFile := fs.String("spec", "", "generate for the OpenAPI document in this `file` instead of the built-in one")
	resource := fs.String("resource", "", "write only this `resource`'s items, as an array (default: every resource)")
	out := fs.String("out", "", "write to this `file` instead of standard output")
	if err := parseFlags(fs, args, fixturesAliases, fixturesUsage, stdout); err != nil {
		return err
	}
	if c.Count < 1 {
		return usagef("--count %d: must be at least 1", c.Count)
	}
	contract, err := readContract(*specFile)
	if err != nil {
		return err
	}
	items, err := catalogue.Generate(contract, c)
	if err != nil {
		return usageError{err}
	}
	write := func(w io.Writer) error { return catalogue.WriteFixture(w, contract, items) }
	if *resource != "" {
		if contract.Resource(*resource) == nil {
			return usagef("--resource %q: the document has no such resource", *resource)
		}
		write = func(w io.Writer) error { return catalogue.WriteItems(w, items[*resource]) }
	}
	if *out == "" {
		return write(stdout)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// parseMix reads weights such as "60:30:10".
func parseMix(v string) ([]int, error) {
	var mix []int
	for _, part := range strings.Split(v, ":") {
		w, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || w < 0 {
			return nil, fmt.Errorf("%q: want weights such as 60:30:10", v)
		}
		mix = append(mix, w)
	}
	return mix, nil
}
