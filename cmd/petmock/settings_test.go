package main

import (
	"strings"
	"testing"
)

// TestNowFlagIsWhereTheClockStarts checks that --now sets the clock as the
// settings do, so that the console can return it to the real time.
func TestNowFlagIsWhereTheClockStarts(t *testing.T) {
	s := start(t, "--now", "2031-01-01")
	root := strings.TrimSuffix(s.url, "/v1")
	if status, body := get(t, "GET", root+"/__petmock/settings", ""); status != 200 || !strings.Contains(body, `"clock":"set"`) || !strings.Contains(body, `"now":"2031-01-01T`) {
		t.Errorf("GET settings with --now 2031-01-01: %d %s", status, body)
	}
	if status, body := get(t, "PATCH", root+"/__petmock/settings", `{"now":null}`); status != 200 || !strings.Contains(body, `"clock":"real"`) {
		t.Fatalf("PATCH settings {\"now\":null}: %d %s", status, body)
	}
	if status, _ := get(t, "GET", s.url+"/pets/1", ""); status != 200 {
		t.Errorf("GET /v1/pets/1 back on the real time: %d, want 200", status)
	}
}
