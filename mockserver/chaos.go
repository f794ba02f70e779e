package mockserver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
)

// Latency is a range of delays. Every answer under the base path waits a
// duration drawn uniformly from [Min, Max]. The zero value adds none.
type Latency struct {
	Min, Max time.Duration
}

// ParseLatency reads a latency such as "50ms-300ms", or a fixed one such
// as "100ms".
func ParseLatency(s string) (Latency, error) {
	lo, hi, isRange := strings.Cut(s, "-")
	min, err := time.ParseDuration(strings.TrimSpace(lo))
	if err != nil {
		return Latency{}, fmt.Errorf("latency %q: want a duration such as 100ms or a range such as 50ms-300ms", s)
	}
	max := min
	if isRange {
		if max, err = time.ParseDuration(strings.TrimSpace(hi)); err != nil {
			return Latency{}, fmt.Errorf("latency %q: want a duration such as 100ms or a range such as 50ms-300ms", s)
		}
	}
	l := Latency{Min: min, Max: max}
	return l, l.validate()
}

func (l Latency) validate() error {
	switch {
	case l.Min < 0 || l.Max < l.Min:
		return fmt.Errorf("latency %s-%s: want 0 <= min <= max", l.Min, l.Max)
	case l.Max > MaxDelay:
		return fmt.Errorf("latency %s-%s: at most %s", l.Min, l.Max, MaxDelay)
	}
	return nil
}

// chaos draws the latency and the failures of answers from one seeded
// source, so that a run with the same seed and the same requests, in the
// same order, repeats.
type chaos struct {
	latency  Latency
	failRate float64

	mu  sync.Mutex // guards rnd
	rnd *rand.Rand
}

func newChaos(l Latency, failRate float64, seed uint64) (*chaos, error) {
	if err := l.validate(); err != nil {
		return nil, err
	}
	if failRate < 0 || failRate > 1 {
		return nil, fmt.Errorf("fail rate %v: want a share from 0 to 1", failRate)
	}
	return &chaos{latency: l, failRate: failRate, rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}, nil
}

// enabled reports whether chaos changes any answer.
func (c *chaos) enabled() bool { return c.latency.Max > 0 || c.failRate > 0 }

// draw returns the delay of the next answer and whether it fails.
func (c *chaos) draw() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.latency.Min
	if span := c.latency.Max - c.latency.Min; span > 0 {
		d += time.Duration(c.rnd.Int64N(int64(span) + 1))
	}
	fail := c.failRate > 0 && c.rnd.Float64() < c.failRate
	return d, fail
}

// sleep waits for d, or until ctx is done; it reports whether it waited
// all of d.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
