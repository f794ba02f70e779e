package admin_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
)

// settings reads GET /__petmock/settings.
func (ts *testServer) settings(t testing.TB) steer.SettingsView {
	t.Helper()
	resp := ts.admin(t, "GET", "settings", "")
	var v steer.SettingsView
	if resp.StatusCode != 200 || json.Unmarshal(resp.body, &v) != nil {
		t.Fatalf("GET settings: %s", resp)
	}
	return v
}

// journal reads GET /__petmock/requests.
func (ts *testServer) journal(t testing.TB) []journal.Exchange {
	t.Helper()
	var got struct{ Requests []journal.Exchange }
	if resp := ts.admin(t, "GET", "requests", ""); json.Unmarshal(resp.body, &got) != nil {
		t.Fatalf("GET requests: %s", resp)
	}
	return got.Requests
}

func TestSettingsStartFromTheConfig(t *testing.T) {
	clock := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name string
		cfg  mockserver.Config
		want steer.SettingsView
	}{
		{"defaults", mockserver.Config{}, steer.SettingsView{Latency: "0s", Clock: "real", Journal: 100}},
		{"flags", mockserver.Config{
			Latency: steer.Latency{Min: 50 * time.Millisecond, Max: 300 * time.Millisecond}, FailRate: 0.25, JournalSize: 7, ClockAt: clock,
		}, steer.SettingsView{Latency: "50ms-300ms", FailRate: 0.25, Clock: "set", Journal: 7}},
		{"journal off", mockserver.Config{JournalSize: -1}, steer.SettingsView{Latency: "0s", Clock: "real", Journal: 0}},
		{"fixed latency", mockserver.Config{Latency: steer.Latency{Min: time.Second, Max: time.Second}}, steer.SettingsView{Latency: "1s", Clock: "real", Journal: 100}},
	} {
		ts := newTestServer(t, tt.cfg)
		got := ts.settings(t)
		if got.Latency != tt.want.Latency || got.FailRate != tt.want.FailRate || got.Clock != tt.want.Clock || got.Journal != tt.want.Journal || len(got.Changes) != 0 {
			t.Errorf("%s: GET settings = %+v, want %+v", tt.name, got, tt.want)
		}
		if tt.cfg.ClockAt.IsZero() && time.Since(got.Now).Abs() > time.Hour {
			t.Errorf("%s: now = %s on the real clock", tt.name, got.Now)
		}
		if !tt.cfg.ClockAt.IsZero() && got.Now.Before(clock) {
			t.Errorf("%s: now = %s, want %s or a little after", tt.name, got.Now, clock)
		}
	}
}

func TestPatchSettingsRefusesBadValues(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	before := ts.settings(t)
	for _, tt := range []struct {
		body, want string
	}{
		{`{"latency":"fast"}`, `latency: "fast": want a duration such as 100ms or a range such as 50ms-300ms`},
		{`{"latency":"300ms-50ms"}`, "latency: "},
		{`{"latency":"31s"}`, "latency: "},
		{`{"latency":100}`, "latency: must be a string"},
		{`{"failRate":1.5}`, "failRate: must be at most 1"},
		{`{"failRate":"0.1"}`, "failRate: "},
		{`{"now":"tomorrow"}`, `now: "tomorrow": want a date such as 2031-01-01`},
		{`{"now":20310101}`, "now: "},
		{`{"journal":-1}`, "journal: must be at least 0"},
		{`{"journal":10001}`, "journal: "},
		{`{"journal":2.5}`, "journal: "},
		{`{"latency":"1s","jitter":"1s"}`, "jitter: is not a member; the members are failRate, fault, faultRate, journal, journalSecrets, latency, now, slowBytesPerSecond"},
		// One bad member changes nothing, however many good ones come with it.
		{`{"latency":"1s","failRate":0.5,"journal":-1}`, "journal: "},
		{`[]`, "body: must be a JSON object"},
		{`null`, "body: must not be null"},
		{`{"latency":"1s"} {}`, "body: malformed JSON: data after the JSON value"},
		{`{"latency":`, "body: "},
	} {
		resp := ts.admin(t, "PATCH", "settings", tt.body)
		if e := resp.apiError(t); resp.StatusCode != 400 || !strings.HasPrefix(e.Message, tt.want) {
			t.Errorf("PATCH settings %s: %s, want 400 %q", tt.body, resp, tt.want)
		}
	}
	if after := ts.settings(t); after.Latency != before.Latency || after.FailRate != before.FailRate || after.Journal != before.Journal || after.Clock != before.Clock {
		t.Errorf("refused changes changed the settings: %+v, want %+v", after, before)
	}
	req, _ := http.NewRequest("PATCH", strings.TrimSuffix(ts.URL, "/v1")+"/__petmock/settings", strings.NewReader(`{"latency":"1s"}`))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "text/plain")
	if resp := ts.send(t, req); resp.StatusCode != 415 || resp.apiError(t).Code != "unsupported_media_type" {
		t.Errorf("PATCH settings as text/plain: %s, want 415", resp)
	}
}

func TestPatchSettingsChangesTheAnswers(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	created := ts.do(t, "POST", "/pets", `{"name":"Kept","categoryId":1}`).pet(t)

	// Latency: the next answer waits at least that long, as its own
	// round trip and the journal both show. A machine may be slower,
	// never faster.
	const latency = 150 * time.Millisecond
	if resp := ts.admin(t, "PATCH", "settings", `{"latency":"150ms"}`); resp.StatusCode != 200 || !strings.Contains(string(resp.body), `"latency":"150ms"`) {
		t.Fatalf("PATCH latency: %s", resp)
	}
	start := time.Now()
	ts.do(t, "GET", "/pets?limit=1", "")
	if elapsed := time.Since(start); elapsed < latency {
		t.Errorf("GET /v1/pets after latency 150ms: answered after %s", elapsed)
	}
	if j := ts.journal(t); len(j) == 0 || j[0].DurationMS < float64(latency.Milliseconds()) {
		t.Errorf("journal after latency 150ms: %+v, want a duration of at least 150 ms", j[0])
	}

	// Fail rate 1 fails every request, and null turns it off again.
	ts.admin(t, "PATCH", "settings", `{"latency":null,"failRate":1}`)
	if resp := ts.do(t, "GET", "/pets/1", ""); resp.StatusCode != 503 || !strings.Contains(resp.apiError(t).Message, "injected failure (fail rate 1)") {
		t.Errorf("GET /v1/pets/1 at fail rate 1: %s, want an injected 503", resp)
	}
	ts.admin(t, "PATCH", "settings", `{"failRate":null}`)

	// The clock: past getPet's sunset it is gone; null is the real time.
	ts.admin(t, "PATCH", "settings", `{"now":"2031-01-01"}`)
	if resp := ts.do(t, "GET", "/pets/1", ""); resp.StatusCode != 410 {
		t.Errorf("GET /v1/pets/1 with the clock at 2031-01-01: %s, want 410", resp)
	}
	if got := ts.settings(t); got.Clock != "set" || got.Now.Year() != 2031 {
		t.Errorf("settings with the clock set: %+v", got)
	}
	ts.admin(t, "PATCH", "settings", `{"now":null}`)
	if resp := ts.do(t, "GET", "/pets/1", ""); resp.StatusCode != 200 {
		t.Errorf("GET /v1/pets/1 back on the real time: %s, want 200", resp)
	}

	// Nothing of that lost the store.
	if resp := ts.do(t, "GET", fmt.Sprintf("/pets/%d", created.ID), ""); resp.StatusCode != 200 || resp.pet(t) != created {
		t.Errorf("the pet created before the changes: %s", resp)
	}
	changes := ts.settings(t).Changes
	var names []string
	for _, c := range changes {
		names = append(names, c.Setting+" "+c.From+" → "+c.To)
	}
	if want := []string{"now", "now", "failRate 1 → 0", "failRate 0 → 1", "latency 150ms → 0s", "latency 0s → 150ms"}; len(names) != len(want) {
		t.Errorf("changes = %q, want %d of them, newest first", names, len(want))
	} else {
		for i := range want {
			if !strings.HasPrefix(names[i], want[i]) {
				t.Errorf("change %d = %q, want %q", i, names[i], want[i])
			}
		}
	}
}

func TestPatchJournalSize(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{JournalSize: 4})
	for i := range 4 {
		ts.do(t, "GET", fmt.Sprintf("/pets?limit=%d", i+1), "")
	}
	paths := func() (out []string) {
		for _, x := range ts.journal(t) {
			out = append(out, x.Query)
		}
		return out
	}
	for _, tt := range []struct {
		size string
		want string
	}{
		{"2", "limit=4 limit=3"}, // shrinks, keeping the newest
		{"6", "limit=4 limit=3"}, // grows, keeping all
		{"0", ""},                // keeps none
		{"null", ""},             // back to the default size, empty
		{"100", ""},              // the same size: nothing to do
	} {
		if resp := ts.admin(t, "PATCH", "settings", `{"journal":`+tt.size+`}`); resp.StatusCode != 200 {
			t.Fatalf("PATCH journal %s: %s", tt.size, resp)
		}
		if got := strings.Join(paths(), " "); got != tt.want {
			t.Errorf("journal after size %s: %q, want %q", tt.size, got, tt.want)
		}
	}
	ts.admin(t, "PATCH", "settings", `{"journal":2}`)
	for i := range 3 {
		ts.do(t, "GET", fmt.Sprintf("/pets?limit=%d", 10+i), "")
	}
	if got := strings.Join(paths(), " "); got != "limit=12 limit=11" {
		t.Errorf("a journal of 2 after 3 requests: %q", got)
	}
	ts.admin(t, "PATCH", "settings", `{"journal":0}`)
	ts.do(t, "GET", "/pets", "")
	ts.admin(t, "PATCH", "settings", `{"journal":3}`)
	ts.do(t, "GET", "/pets?limit=5", "")
	if got := strings.Join(paths(), " "); got != "limit=5" {
		t.Errorf("a journal turned off and on again: %q, want only the request after", got)
	}
}

func TestSettingChangesAreLogged(t *testing.T) {
	var buf syncBuffer
	ts := newTestServer(t, mockserver.Config{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	ts.admin(t, "PATCH", "settings", `{"latency":"10ms","failRate":0,"journal":50}`)
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var rec struct{ Msg, Setting, From, To string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "setting changed" {
			lines = append(lines, rec.Setting+" "+rec.From+" "+rec.To)
		}
	}
	// failRate did not change, so it has no line.
	if want := "latency 0s 10ms|journal 100 50"; strings.Join(lines, "|") != want {
		t.Errorf("log lines of the changes = %q, want %q", lines, want)
	}
}

// TestSettingsChangeUnderLoad changes every setting while clients send
// requests, for the race detector: no request may see half a change.
func TestSettingsChangeUnderLoad(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{JournalSize: 5})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	defer func() {
		close(stop)
		wg.Wait()
	}()
	// until sends req again and again until the test ends.
	until := func(what string, req func() *response) {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if resp := req(); resp.StatusCode != 200 {
					t.Errorf("%s during changes: %s", what, resp)
					return
				}
			}
		})
	}
	for range 4 {
		until("GET /v1/pets", func() *response { return ts.do(t, "GET", "/pets?limit=2", "") })
	}
	// The journal is read while it is resized, as the console does.
	until("GET requests", func() *response { return ts.admin(t, "GET", "requests", "") })
	for i := range 50 {
		body := fmt.Sprintf(`{"latency":"%dus","journal":%d,"now":"2030-0%d-01"}`, i, i%7, 1+i%9)
		if resp := ts.admin(t, "PATCH", "settings", body); resp.StatusCode != 200 {
			t.Fatalf("PATCH %s: %s", body, resp)
		}
		ts.journal(t)
	}
}
