package steer

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
// source, so that a run with the same seed, settings and requests, in the
// same order, repeats. The latency and the fail rate are settings, which
// may change while the server runs.
type chaos struct {
	mu  sync.Mutex // guards rnd
	rnd *rand.Rand
}

func newChaos(seed uint64) *chaos {
	return &chaos{rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// draw returns the delay of the next answer under latency l, whether it
// fails at failRate, and whether it meets a fault at faultRate. A rate of
// 0 draws nothing, so that the draws of the others repeat as without it.
func (c *chaos) draw(l Latency, failRate, faultRate float64) (delay time.Duration, fail, fault bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delay = l.Min
	if span := l.Max - l.Min; span > 0 {
		delay += time.Duration(c.rnd.Int64N(int64(span) + 1))
	}
	fail = failRate > 0 && c.rnd.Float64() < failRate
	fault = faultRate > 0 && c.rnd.Float64() < faultRate
	return delay, fail, fault
}

// bytes draws n bytes, such as those of FaultRandomData.
func (c *chaos) bytes(n int) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(c.rnd.Uint32())
	}
	return b
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
