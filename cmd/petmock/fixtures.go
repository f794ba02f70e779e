package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/petstore/contract/mockserver"
)

// fixtures writes a generated catalogue as a fixture. The same arguments
// always give the same bytes.
func fixtures(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("petmock fixtures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := mockserver.Catalogue{Seed: mockserver.DefaultSeed, Count: mockserver.DefaultPets}
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed; the same seed, count and mix give the same catalogue")
	fs.IntVar(&c.Count, "count", c.Count, "`number` of pets")
	fs.Func("status-mix", "weights of available:pending:sold, such as 60:30:10 (default 60:25:15)", func(v string) error {
		mix, err := parseMix(v)
		c.StatusMix = mix
		return err
	})
	out := fs.String("out", "", "write to this `file` instead of standard output")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: petmock fixtures [--seed N] [--count N] [--status-mix 60:30:10] [--out FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if c.Count < 1 {
		return usagef("--count %d: must be at least 1", c.Count)
	}
	pets, err := mockserver.Generate(c)
	if err != nil {
		return usageError{err}
	}
	if *out == "" {
		return mockserver.WriteFixture(stdout, pets)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := mockserver.WriteFixture(f, pets); err != nil {
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
