package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// progress shows how a seed run goes: a bar redrawn in place on a
// terminal, or a plain line at every tenth of the way otherwise, so that
// CI logs stay readable.
type progress struct {
	w        io.Writer
	total    int
	terminal bool

	mu       sync.Mutex // guards lastStep and drawn
	lastStep int
	drawn    bool
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, total: total, terminal: isTerminal(w), lastStep: -1}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

const barWidth = 30

func (p *progress) update(created, failed, skipped int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	done := created + failed + skipped
	if p.total == 0 {
		return
	}
	if p.terminal {
		filled := barWidth * done / p.total
		fmt.Fprintf(p.w, "\r[%s%s] %d/%d  created %d  failed %d  skipped %d",
			strings.Repeat("=", filled), strings.Repeat(" ", barWidth-filled), done, p.total, created, failed, skipped)
		p.drawn = true
		return
	}
	if step := 10 * done / p.total; step != p.lastStep {
		p.lastStep = step
		fmt.Fprintf(p.w, "seed: %d/%d (%d%%) created %d, failed %d, skipped %d\n", done, p.total, 100*done/p.total, created, failed, skipped)
	}
}

// done ends the bar's line.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
