package cli

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

func flags() *flag.FlagSet {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.String("junit-report", "", "write a JUnit report to `FILE`")
	fs.String("base-url", "", "the base `URL`")
	fs.String("addr", "", "where to listen")
	fs.Int("seed", 0, "a seed")
	fs.Bool("no-color", false, "no colour")
	return fs
}

func TestParse(t *testing.T) {
	aliases := map[string]string{"port": "addr"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--jnuit-report", "x"}, "unknown flag --jnuit-report; did you mean --junit-report?"},
		{[]string{"--base", "x"}, "unknown flag --base; did you mean --base-url?"},
		{[]string{"-port", "1"}, "unknown flag --port; did you mean --addr?"},
		{[]string{"--nocolor"}, "unknown flag --nocolor; did you mean --no-color?"},
		{[]string{"--zebra"}, "unknown flag --zebra; --help lists the flags"},
		{[]string{"--seed", "x"}, `--seed "x": parse error`},
		{[]string{"--seed"}, "flag --seed needs a value"},
	} {
		err := Parse(flags(), tt.args, aliases)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.want)
		}
	}
	if err := Parse(flags(), []string{"--help"}, nil); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: %v, want flag.ErrHelp", err)
	}
	if err := Parse(flags(), []string{"--seed", "3"}, nil); err != nil {
		t.Errorf("--seed 3: %v", err)
	}
}

func TestPrintDefaultsUsesTwoDashes(t *testing.T) {
	var b strings.Builder
	PrintDefaults(flags(), &b)
	if !strings.Contains(b.String(), "  --junit-report FILE") || strings.Contains(b.String(), "\n  -j") {
		t.Errorf("usage:\n%s", b.String())
	}
}
