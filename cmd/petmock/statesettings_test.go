package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// settingsOf returns the settings and the forced answers of a running
// petmock, from its admin API.
func settingsOf(t *testing.T, s *started) (mockserver.SettingsView, []mockserver.ForcedAnswer) {
	t.Helper()
	root := strings.TrimSuffix(s.url, "/v1")
	var v mockserver.SettingsView
	status, body := get(t, "GET", root+"/__petmock/settings", "")
	if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil {
		t.Fatalf("GET settings: %d %s", status, body)
	}
	var f struct{ Forced []mockserver.ForcedAnswer }
	status, body = get(t, "GET", root+"/__petmock/forced", "")
	if err := json.Unmarshal([]byte(body), &f); status != 200 || err != nil {
		t.Fatalf("GET forced: %d %s", status, body)
	}
	return v, f.Forced
}

// TestSettingsSurviveRestarts checks that the settings and the forced
// answers that wait are saved with --state, beside the state file, and
// restored at the next start, but for those whose flags are given then,
// which win; and that a settings file that is not valid is refused at
// start, and left as it is.
func TestSettingsSurviveRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	first := start(t, "--state", path, "--pets", "3")
	root := strings.TrimSuffix(first.url, "/v1")
	if status, body := get(t, "PATCH", root+"/__petmock/settings", `{"latency":"5ms","failRate":0.25,"now":"2031-01-01","journal":7,"journalSecrets":"shown"}`); status != 200 {
		t.Fatalf("PATCH settings: %d %s", status, body)
	}
	if status, body := get(t, "POST", root+"/__petmock/forced", `{"code":503,"count":2,"operation":"listPets"}`); status != 200 {
		t.Fatalf("POST forced: %d %s", status, body)
	}
	if err := first.stop(t); err != nil {
		t.Fatalf("run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "state.settings.json")); err != nil {
		t.Fatalf("no settings file beside the state file: %v", err)
	}

	second := start(t, "--state", path, "--pets", "3")
	v, forced := settingsOf(t, second)
	if v.Latency != "5ms" || v.FailRate != 0.25 || v.Journal != 7 || v.JournalSecrets != "shown" || v.Clock != "set" || v.Now.Before(time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)) || v.Now.Year() != 2031 {
		t.Errorf("settings after a restart: %+v, want those set before it, the clock run on from 2031-01-01", v)
	}
	if len(forced) != 1 || forced[0].Code != 503 || forced[0].Remaining != 2 || forced[0].Operation != "listPets" {
		t.Errorf("forced answers after a restart: %+v, want the 2 answers 503 to listPets", forced)
	}
	// A forced answer taken is saved as taken. The fail rate may answer a
	// request before the forced answer is looked at.
	for i := 0; ; i++ {
		if _, body := get(t, "GET", second.url+"/pets", ""); strings.Contains(body, "answer forced by the admin API") {
			break
		}
		if i == 100 {
			t.Fatal("no forced answer taken in 100 requests")
		}
	}
	if err := second.stop(t); err != nil {
		t.Fatalf("run: %v", err)
	}

	third := start(t, "--state", path, "--pets", "3", "--latency", "1ms", "--now", "2040-01-01", "--journal-secrets", "hidden")
	v, forced = settingsOf(t, third)
	if v.Latency != "1ms" || v.Now.Year() != 2040 || v.JournalSecrets != "hidden" || v.FailRate != 0.25 || v.Journal != 7 {
		t.Errorf("settings after a restart with --latency, --now and --journal-secrets: %+v, want those flags' and the rest restored", v)
	}
	if len(forced) != 1 || forced[0].Remaining != 1 {
		t.Errorf("forced answers after one was taken and a restart: %+v, want 1 remaining", forced)
	}
	if err := third.stop(t); err != nil {
		t.Fatalf("run: %v", err)
	}

	settings := filepath.Join(filepath.Dir(path), "state.settings.json")
	torn := []byte(`{"latency":"5ms","failRa`)
	os.WriteFile(settings, torn, 0o644)
	err := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--state", path}, env(), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "settings file "+settings+" is corrupt") {
		t.Errorf("start with a torn settings file: err = %v, want it refused by name", err)
	}
	if got, _ := os.ReadFile(settings); !bytes.Equal(got, torn) {
		t.Errorf("the torn settings file was changed")
	}
}
