package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/petstore/contract/cmd/internal/cli"
)

// progress shows how a seed run goes: a bar redrawn in place on a
// terminal, or a plain line at every tenth of the way otherwise, so that
// CI logs stay readable.
type progress struct {
	w        io.Writer
	total    int
	noun     string // what is created, such as "pets"
	terminal bool
	// now is the clock that paces the redraws and measures the rate;
	// nil means time.Now.
	now func() time.Time

	mu       sync.Mutex // guards the fields below
	start    time.Time  // of the first update
	lastDraw time.Time
	lastStep int
	drawn    bool
	width    int    // of the last bar drawn, to blank what a shorter one leaves
	stale    bool   // the counts changed since the bar was drawn
	counts   [3]int // created, failed, skipped
}

// redrawEvery paces the bar: a redraw per update costs a line of output
// per item, hundreds of kilobytes for a few thousand, for changes nobody
// can read.
const redrawEvery = 100 * time.Millisecond

func newProgress(w io.Writer, total int, noun string) *progress {
	return &progress{w: w, total: total, noun: noun, terminal: cli.IsTerminal(w), lastStep: -1}
}

const barWidth = 30

func (p *progress) clock() time.Time {
	if p.now == nil {
		return time.Now()
	}
	return p.now()
}

func (p *progress) update(created, failed, skipped int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.total == 0 {
		return
	}
	now := p.clock()
	if p.start.IsZero() {
		p.start = now
	}
	p.counts = [3]int{created, failed, skipped}
	done := created + failed + skipped
	if p.terminal {
		p.stale = true
		if !p.drawn || done == p.total || now.Sub(p.lastDraw) >= redrawEvery {
			p.draw(now)
		}
		return
	}
	if step := 10 * done / p.total; step != p.lastStep {
		p.lastStep = step
		fmt.Fprintf(p.w, "seed: %d/%d (%d%%) created %d, failed %d, skipped %d\n", done, p.total, 100*done/p.total, created, failed, skipped)
	}
}

// draw redraws the bar with the counts, the rate and the time left.
func (p *progress) draw(now time.Time) {
	created, failed, skipped := p.counts[0], p.counts[1], p.counts[2]
	done := created + failed + skipped
	filled := barWidth * done / p.total
	line := fmt.Sprintf("\r[%s%s] %d/%d  created %d  failed %d  skipped %d  %s",
		strings.Repeat("=", filled), strings.Repeat(" ", barWidth-filled), done, p.total, created, failed, skipped,
		p.pace(done, now.Sub(p.start)))
	width := len(line)
	if width < p.width {
		line += strings.Repeat(" ", p.width-width)
	}
	io.WriteString(p.w, line)
	p.width, p.lastDraw, p.drawn, p.stale = width, now, true, false
}

// pace says how fast items are made and how long the rest will take, or
// how long the whole took once done.
func (p *progress) pace(done int, elapsed time.Duration) string {
	if elapsed <= 0 || done == 0 {
		return "-- " + p.noun + "/s"
	}
	rate := float64(done) / elapsed.Seconds()
	if done == p.total {
		return fmt.Sprintf("%.0f %s/s  took %s", rate, p.noun, roundDuration(elapsed))
	}
	left := time.Duration(float64(p.total-done) / rate * float64(time.Second))
	return fmt.Sprintf("%.0f %s/s  %s left", rate, p.noun, roundDuration(left))
}

// roundDuration rounds d to what a person reads at a glance: seconds, or
// tenths of one under ten seconds.
func roundDuration(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

// done draws the counts the last redraw left out, and ends the bar's line.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stale {
		p.draw(p.clock())
	}
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
