package main

import (
	"errors"
	"flag"
	"io"

	"github.com/petstore/contract/cmd/internal/cli"
)

// parseFlags parses args with fs, as every petmock command does. A mistake
// comes back as a usageError of one line, which main prints once, such as
// "unknown flag --port; did you mean --addr?"; aliases name the flag meant
// by words a user may try instead. --help writes usage and the flags, with
// two dashes, to stdout, and comes back as flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string, aliases map[string]string, usage string, stdout io.Writer) error {
	err := cli.Parse(fs, args, aliases)
	switch {
	case errors.Is(err, flag.ErrHelp):
		io.WriteString(stdout, usage)
		cli.PrintDefaults(fs, stdout)
		return err
	case err != nil:
		return usageError{err}
	case fs.NArg() > 0:
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}
