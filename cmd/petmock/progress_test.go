package main

import (
	"strings"
	"testing"
)

func TestProgressBarOnATerminal(t *testing.T) {
	var out strings.Builder
	p := &progress{w: &out, total: 4, terminal: true, lastStep: -1}
	p.update(1, 0, 0)
	p.update(2, 1, 0)
	p.update(2, 1, 1)
	p.done()
	want := "\r[=======                       ] 1/4  created 1  failed 0  skipped 0" +
		"\r[======================        ] 3/4  created 2  failed 1  skipped 0" +
		"\r[==============================] 4/4  created 2  failed 1  skipped 1\n"
	if out.String() != want {
		t.Errorf("bar =\n%q\nwant\n%q", out.String(), want)
	}
}

func TestProgressLinesElsewhere(t *testing.T) {
	var out strings.Builder
	p := newProgress(&out, 20)
	for i := 1; i <= 20; i++ {
		p.update(i, 0, 0)
	}
	p.done()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 11 || strings.Contains(out.String(), "\r") || lines[10] != "seed: 20/20 (100%) created 20, failed 0, skipped 0" {
		t.Errorf("plain progress:\n%s", out.String())
	}
}
