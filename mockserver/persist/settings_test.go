package persist

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/steer"
	"github.com/petstore/contract/spec"
)

// settingsOf returns the settings and the forced answers of a running
// server, from its admin API.
func settingsOf(t *testing.T, s *savedServer) (steer.SettingsView, []steer.ForcedAnswer) {
	t.Helper()
	root := s.URL
	var v steer.SettingsView
	status, body := get(t, "GET", root+"/__petmock/settings", "")
	if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil {
		t.Fatalf("GET settings: %d %s", status, body)
	}
	var f struct{ Forced []steer.ForcedAnswer }
	status, body = get(t, "GET", root+"/__petmock/forced", "")
	if err := json.Unmarshal([]byte(body), &f); status != 200 || err != nil {
		t.Fatalf("GET forced: %d %s", status, body)
	}
	return v, f.Forced
}

// TestSettingsSurviveRestarts checks that the settings and the forced
// answers that wait are saved with the state file, beside it, and
// restored at the next start, but for those whose flags are given then,
// which win; and that a settings file that is not valid is refused at
// start, and left as it is.
func TestSettingsSurviveRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	first := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
	root := first.URL
	if status, body := get(t, "PATCH", root+"/__petmock/settings", `{"latency":"5ms","failRate":0.25,"now":"2031-01-01","journal":7,"journalSecrets":"shown"}`); status != 200 {
		t.Fatalf("PATCH settings: %d %s", status, body)
	}
	if status, body := get(t, "POST", root+"/__petmock/forced", `{"code":503,"count":2,"operation":"listPets"}`); status != 200 {
		t.Fatalf("POST forced: %d %s", status, body)
	}
	if err := first.stop(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "state.settings.json")); err != nil {
		t.Fatalf("no settings file beside the state file: %v", err)
	}

	second := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
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
	if err := second.stop(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	// petmock --latency 1ms --now 2040-01-01 --journal-secrets hidden
	latency, _ := steer.ParseLatency("1ms")
	third := newSavedServer(t, path, Config{Given: map[string]bool{"latency": true, "now": true, "journal-secrets": true}},
		mockserver.Config{Catalogue: seeded(3), Latency: latency, ClockAt: time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC)})
	v, forced = settingsOf(t, third)
	if v.Latency != "1ms" || v.Now.Year() != 2040 || v.JournalSecrets != "hidden" || v.FailRate != 0.25 || v.Journal != 7 {
		t.Errorf("settings after a restart with --latency, --now and --journal-secrets: %+v, want those flags' and the rest restored", v)
	}
	if len(forced) != 1 || forced[0].Remaining != 1 {
		t.Errorf("forced answers after one was taken and a restart: %+v, want 1 remaining", forced)
	}
	if err := third.stop(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	settings := filepath.Join(filepath.Dir(path), "state.settings.json")
	torn := []byte(`{"latency":"5ms","failRa`)
	os.WriteFile(settings, torn, 0o644)
	srv, err := mockserver.New(mockserver.Config{Catalogue: seeded(catalogue.DefaultCount)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(path, source{srv}, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
	if err == nil || !strings.Contains(err.Error(), "settings file "+settings+" is corrupt") {
		t.Errorf("start with a torn settings file: err = %v, want it refused by name", err)
	}
	if got, _ := os.ReadFile(settings); !bytes.Equal(got, torn) {
		t.Errorf("the torn settings file was changed")
	}
}

// TestExpectationsAndFaultsSurviveRestarts checks that the expectations,
// with what they still answer, the forced faults and the settings of
// faults are saved with the state file and restored at the next start; and that
// an expectation the document served then no longer allows is left out,
// with a line of the log, rather than refusing the start.
func TestExpectationsAndFaultsSurviveRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	first := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
	root := first.URL
	for _, req := range []struct{ method, path, body string }{
		{"PUT", "/__petmock/expectations", `{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":404,"body":{"code":"not_found","message":"petId: no pet has id 7","status":404}},"times":3}`},
		{"PUT", "/__petmock/expectations", `{"when":{"method":"GET","path":"/v1/pets","query":{"status":"sold"}},"answer":{"status":200,"body":[]}}`},
		{"POST", "/__petmock/forced", `{"fault":"slow","bytesPerSecond":50,"operation":"getPet"}`},
		{"PATCH", "/__petmock/settings", `{"fault":"malformed-chunk","faultRate":0.125,"slowBytesPerSecond":20}`},
	} {
		if status, body := get(t, req.method, root+req.path, req.body); status >= 300 {
			t.Fatalf("%s %s: %d %s", req.method, req.path, status, body)
		}
	}
	if err := first.stop(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	second := newSavedServer(t, path, Config{}, mockserver.Config{Catalogue: seeded(3)})
	root = second.URL
	v, forced := settingsOf(t, second)
	if v.Fault != steer.FaultMalformedChunk || v.FaultRate != 0.125 || v.SlowBytesPerSecond != 20 {
		t.Errorf("settings of faults after a restart: %q at %v, %d bytes a second; want malformed-chunk at 0.125, 20", v.Fault, v.FaultRate, v.SlowBytesPerSecond)
	}
	if len(forced) != 1 || forced[0].Fault != steer.FaultSlow || forced[0].BytesPerSecond != 50 || forced[0].Operation != "getPet" {
		t.Errorf("forced answers after a restart: %+v, want the slow body of getPet at 50 bytes a second", forced)
	}
	// With the faults off, the first expectation answers, and counts.
	get(t, "PATCH", root+"/__petmock/settings", `{"fault":null}`)
	get(t, "DELETE", root+"/__petmock/forced", "")
	if status, body := get(t, "GET", second.url+"/pets/7", ""); status != 404 || !strings.Contains(body, "no pet has id 7") {
		t.Errorf("GET /v1/pets/7 after a restart: %d %s, want the expectation's 404", status, body)
	}
	status, body := get(t, "GET", root+"/__petmock/expectations", "")
	var list struct{ Expectations []steer.Expectation }
	if err := json.Unmarshal([]byte(body), &list); status != 200 || err != nil {
		t.Fatalf("GET expectations: %d %s", status, body)
	}
	if len(list.Expectations) != 2 || list.Expectations[0].Remaining != 2 || list.Expectations[0].Matched != 1 || list.Expectations[1].When.Query["status"] != "sold" {
		t.Errorf("expectations after a restart and a match: %+v, want both, in order, the first with 2 of 3 left", list.Expectations)
	}
	if err := second.stop(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	// A document whose getPet no longer answers 404: the expectation of
	// a 404 is left out, the other kept. petmock --spec DOC --fault empty:
	doc, err := spec.Read([]byte(strings.Replace(string(spec.YAML()), "        '404':\n          description: The animal cannot be found.", "        '409':\n          description: The animal cannot be found.", 1)))
	if err != nil {
		t.Fatal(err)
	}
	third := newSavedServer(t, path, Config{Given: map[string]bool{"fault": true}},
		mockserver.Config{Contract: doc, Catalogue: seeded(catalogue.DefaultCount), Fault: steer.FaultEmpty})
	root = third.URL
	v, _ = settingsOf(t, third)
	if v.Fault != steer.FaultEmpty || v.FaultRate != 0.125 {
		t.Errorf("settings after a restart with --fault empty: %q at %v, want the flag's fault at the saved rate", v.Fault, v.FaultRate)
	}
	_, body = get(t, "GET", root+"/__petmock/expectations", "")
	if !strings.Contains(body, `"status":"sold"`) || strings.Contains(body, "/v1/pets/7") {
		t.Errorf("expectations with a document without getPet: %s, want the list's alone", body)
	}
}
