package check

import (
	"fmt"
	"slices"
	"testing"
)

// TestSampleOf: a short enumeration is taken whole; a long one gives
// MaxSampledValues of its values, the first and the last among them, in
// order and without repeats.
func TestSampleOf(t *testing.T) {
	short := []string{"available", "pending", "sold"}
	if got := sampleOf(short); !slices.Equal(got, short) {
		t.Errorf("sampleOf(%v) = %v, want all of them", short, got)
	}
	var long []string
	for i := range 10_000 {
		long = append(long, fmt.Sprint(i))
	}
	got := sampleOf(long)
	if len(got) != MaxSampledValues || got[0] != "0" || got[len(got)-1] != "9999" {
		t.Errorf("sampleOf of 10000 values = %v, want %d of them from the first to the last", got, MaxSampledValues)
	}
	for i := 1; i < len(got); i++ {
		if slices.Index(long, got[i]) <= slices.Index(long, got[i-1]) {
			t.Errorf("sampleOf of 10000 values = %v: out of order or repeated", got)
		}
	}
}
