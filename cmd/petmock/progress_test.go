package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock that moves on by step each time it is read.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	t := c.t
	c.t = c.t.Add(c.step)
	return t
}

// terminalProgress is a bar as a terminal shows it, on a fake clock.
func terminalProgress(out *strings.Builder, total int, step time.Duration) *progress {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), step: step}
	return &progress{w: out, total: total, noun: "pets", terminal: true, lastStep: -1, now: clock.now}
}

func TestProgressBarOnATerminal(t *testing.T) {
	var out strings.Builder
	p := terminalProgress(&out, 4, time.Second)
	p.update(1, 0, 0)
	p.update(2, 1, 0)
	p.update(2, 1, 1)
	p.done()
	want := "\r[=======                       ] 1/4  created 1  failed 0  skipped 0  -- pets/s" +
		"\r[======================        ] 3/4  created 2  failed 1  skipped 0  3 pets/s  300ms left" +
		"\r[==============================] 4/4  created 2  failed 1  skipped 1  2 pets/s  took 2s" + strings.Repeat(" ", 3) + "\n"
	if out.String() != want {
		t.Errorf("bar =\n%q\nwant\n%q", out.String(), want)
	}
}

// TestProgressBarIsPaced: a run of 5,000 pets over 5 seconds redraws the
// bar about ten times a second, not once a pet, and shows the rate and
// the time left.
func TestProgressBarIsPaced(t *testing.T) {
	var out strings.Builder
	p := terminalProgress(&out, 5000, time.Millisecond)
	for i := 1; i <= 5000; i++ {
		p.update(i, 0, 0)
	}
	p.done()
	draws := strings.Split(strings.TrimPrefix(strings.TrimSuffix(out.String(), "\n"), "\r"), "\r")
	if len(draws) > 5000/100+2 || out.Len() > 10_000 {
		t.Errorf("%d redraws, %d bytes, for 5000 pets in 5 s; want at most %d redraws", len(draws), out.Len(), 5000/100+2)
	}
	midway := regexp.MustCompile(`^\[=+ *\] \d+/5000  created \d+  failed 0  skipped 0  10\d\d pets/s  [0-9.]+s left *$`)
	if len(draws) < 3 || !midway.MatchString(draws[len(draws)/2]) {
		t.Errorf("a redraw midway = %q, want the count, a rate near 1000 pets/s and the time left", draws[len(draws)/2])
	}
	if last := draws[len(draws)-1]; !strings.Contains(last, "5000/5000  created 5000") || !strings.Contains(last, "pets/s  took 5s") {
		t.Errorf("last redraw = %q, want 5000/5000 with the rate and the time taken", last)
	}
}

// TestProgressBarShowsTheLastCounts: counts that came between two
// redraws are drawn when the bar ends, as when a run stops early.
func TestProgressBarShowsTheLastCounts(t *testing.T) {
	var out strings.Builder
	p := terminalProgress(&out, 10, 0)
	for i := 1; i <= 5; i++ {
		p.update(i, 0, 0)
	}
	p.done()
	if draws := strings.Count(out.String(), "\r"); draws != 2 || !strings.Contains(out.String(), "\r[===============               ] 5/10  created 5") || !strings.HasSuffix(out.String(), "\n") {
		t.Errorf("bar =\n%q\nwant the first count, then 5/10 when it ends", out.String())
	}
}

func TestProgressLinesElsewhere(t *testing.T) {
	var out strings.Builder
	p := newProgress(&out, 20, "pets")
	for i := 1; i <= 20; i++ {
		p.update(i, 0, 0)
	}
	p.done()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 11 || strings.Contains(out.String(), "\r") || lines[10] != "seed: 20/20 (100%) created 20, failed 0, skipped 0" {
		t.Errorf("plain progress:\n%s", out.String())
	}
}
