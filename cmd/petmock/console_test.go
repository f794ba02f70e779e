package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// TestShutdownEndsConsoleStreams checks that a console left open does not
// hold a shutdown up: its event stream lasts as long as the page, and
// the HTTP server's Shutdown waits for every request to end.
func TestShutdownEndsConsoleStreams(t *testing.T) {
	s := start(t, "--pets", "1")
	req, _ := http.NewRequest("GET", strings.TrimSuffix(s.url, "/v1")+admin.Prefix+"events", nil)
	req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET events: %s", resp.Status)
	}
	if err := s.stop(t); err != nil {
		t.Errorf("run, with a console open: %v", err)
	}
}
