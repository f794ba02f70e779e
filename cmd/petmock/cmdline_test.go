package main

import (
	"context"
	"net"
	"regexp"
	"strings"
	"testing"
)

// runCommand runs petmock with args as main does, and returns what it
// wrote and the status it would exit with.
func runCommand(tb testing.TB, args ...string) (stdout, stderr string, status int) {
	tb.Helper()
	var out, errs strings.Builder
	err := run(context.Background(), args, env(), &out, &errs)
	status = exitStatus(err, &errs)
	return out.String(), errs.String(), status
}

// TestCommandLineMistakeIsOneLine: a mistake in the command line is said
// once, in one line that names the flag meant, without the usage.
func TestCommandLineMistakeIsOneLine(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--port", "4010"}, "petmock: unknown flag --port; did you mean --addr?\n"},
		{[]string{"-port", "4010"}, "petmock: unknown flag --port; did you mean --addr?\n"},
		{[]string{"--api-kye", "k"}, "petmock: unknown flag --api-kye; did you mean --api-key?\n"},
		{[]string{"--seed", "x"}, `petmock: --seed "x": parse error` + "\n"},
		{[]string{"--addr"}, "petmock: flag --addr needs a value\n"},
		{[]string{"--backend", "https://staging.example/v1"}, "petmock: unknown flag --backend; did you mean --proxy?\n"},
		{[]string{"fixtures", "--cuont", "3"}, "petmock: unknown flag --cuont; did you mean --count?\n"},
		{[]string{"fixtures", "--output", "x.json"}, "petmock: unknown flag --output; did you mean --out?\n"},
		{[]string{"seed", "--url", "http://127.0.0.1:1/v1"}, "petmock: unknown flag --url; did you mean --base-url?\n"},
		{[]string{"seed", "--base-url", "http://127.0.0.1:1/v1", "--count", "3", "--workers", "2"}, "petmock: unknown flag --workers; did you mean --concurrency?\n"},
	}
	for _, tt := range tests {
		stdout, stderr, status := runCommand(t, tt.args...)
		if stderr != tt.want || stdout != "" || status != 2 {
			t.Errorf("petmock %s: exit %d, stdout %q, stderr %q; want exit 2 and only %q",
				strings.Join(tt.args, " "), status, stdout, stderr, tt.want)
		}
	}
}

// TestHelpUsesTwoDashes: --help writes the usage to stdout, with the
// flags as the README writes them.
func TestHelpUsesTwoDashes(t *testing.T) {
	oneDash := regexp.MustCompile(`(?m)^  -[a-z]`)
	for _, args := range [][]string{
		{"--help"},
		{"-h"},
		{"fixtures", "--help"},
		{"seed", "--help"},
	} {
		stdout, stderr, status := runCommand(t, args...)
		if status != 0 || stderr != "" {
			t.Errorf("petmock %s: exit %d, stderr %q; want exit 0 and nothing on stderr", strings.Join(args, " "), status, stderr)
		}
		if !strings.HasPrefix(stdout, "Usage:") || !strings.Contains(stdout, "\n  --seed ") || oneDash.MatchString(stdout) {
			t.Errorf("petmock %s: usage =\n%s\nwant Usage: and every flag with two dashes", strings.Join(args, " "), stdout)
		}
	}
}

// TestBusyPort: a port in use gets one line that says what to do.
func TestBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	stdout, stderr, status := runCommand(t, "--addr", addr, "--pets", "0")
	want := "petmock: --addr " + addr + ": the port is in use; stop the other petmock or pick another with --addr\n"
	if stderr != want || stdout != "" || status != 2 {
		t.Errorf("petmock --addr %s (in use): exit %d, stdout %q, stderr %q; want exit 2 and only %q", addr, status, stdout, stderr, want)
	}
}
