package judge

import (
	"encoding/json"
	"math"
	"testing"
)

func TestExactInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"12", 12, true},
		{"-7", -7, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"1.0", 1, true},
		{"1e2", 100, true},
		{"1E+2", 100, true},
		{"1.5", 0, false},
		{"9223372036854775808", 0, false},
		{"9.223372036854776e18", 0, false}, // MaxInt64 rounded through a float64
		{"9223372036854776000", 0, false},
		{"1e999999999", 0, false},
		{"abc", 0, false},
	}
	for _, tc := range tests {
		got, ok := ExactInt(json.Number(tc.in))
		if got != tc.want || ok != tc.ok {
			t.Errorf("exactInt(%s) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestPetSame(t *testing.T) {
	avail, sold := "available", "sold"
	base := Pet{ID: "1", Name: "Rex", CategoryID: "9223372036854775807", Status: &avail}
	tests := []struct {
		name  string
		other Pet
		same  bool
	}{
		{"equal", Pet{ID: "1", Name: "Rex", CategoryID: "9223372036854775807", Status: &avail}, true},
		{"the same numbers written otherwise", Pet{ID: "1.0", Name: "Rex", CategoryID: "9223372036854775807", Status: &avail}, true},
		{"a rounded categoryId", Pet{ID: "1", Name: "Rex", CategoryID: "9223372036854776000", Status: &avail}, false},
		{"another name", Pet{ID: "1", Name: "rex", CategoryID: "9223372036854775807", Status: &avail}, false},
		{"another status", Pet{ID: "1", Name: "Rex", CategoryID: "9223372036854775807", Status: &sold}, false},
		{"no status", Pet{ID: "1", Name: "Rex", CategoryID: "9223372036854775807"}, false},
	}
	for _, tc := range tests {
		if same, diff := base.Same(tc.other); same != tc.same {
			t.Errorf("%s: same = %v (%s), want %v", tc.name, same, diff, tc.same)
		}
	}
}

func TestFirstDuplicate(t *testing.T) {
	if id, dup := firstDuplicate([]Pet{{ID: "1"}, {ID: "2"}, {ID: "3"}}); dup {
		t.Errorf("firstDuplicate of unique ids = %d, true", id)
	}
	if id, dup := firstDuplicate([]Pet{{ID: "1"}, {ID: "2"}, {ID: "2.0"}}); !dup || id != 2 {
		t.Errorf("firstDuplicate = %d, %v; want 2, true", id, dup)
	}
}
