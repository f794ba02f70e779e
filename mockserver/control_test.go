package mockserver_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
)

// The control interface checks what it is given itself, whoever calls it:
// the admin API checks its requests against its own document first, and
// so words most of these refusals otherwise, but a Go caller is held to
// the same rules.

func TestChangeSettingsRefusesBadValues(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	before := srv.Steering().Settings()
	for _, tt := range []struct {
		changes map[string]any
		want    string
	}{
		{map[string]any{"latency": "fast"}, `latency: "fast": want a duration such as 100ms or a range such as 50ms-300ms`},
		{map[string]any{"latency": 100}, "latency: 100: want a duration"},
		{map[string]any{"failRate": 1.5}, "failRate: 1.5: want a share from 0 to 1"},
		{map[string]any{"failRate": "0.1"}, `failRate: "0.1": want a share from 0 to 1`},
		{map[string]any{"now": "tomorrow"}, `now: "tomorrow": want a date such as 2031-01-01`},
		{map[string]any{"journal": -1}, "journal: -1: want a number of requests from 0 to 10000"},
		{map[string]any{"journal": 2.5}, "journal: 2.5: want a number of requests"},
		{map[string]any{"latency": "1s", "jitter": "1s"}, "jitter: not a setting; the settings are latency, failRate, now, journal"},
		// One bad change changes nothing, however many good ones come with it.
		{map[string]any{"latency": "1s", "failRate": 0.5, "journal": 10001}, "journal: "},
	} {
		err := srv.Steering().ChangeSettings(tt.changes)
		var e *edge.Error
		if !errors.As(err, &e) || e.Status != 400 || !strings.HasPrefix(e.Message, tt.want) {
			t.Errorf("ChangeSettings(%v): %v, want a 400 %q", tt.changes, err, tt.want)
		}
	}
	if after := srv.Steering().Settings(); after.Latency != before.Latency || after.FailRate != before.FailRate || after.Journal != before.Journal || len(after.Changes) != 0 {
		t.Errorf("refused changes changed the settings: %+v, want %+v", after, before)
	}
	if err := srv.Steering().ChangeSettings(map[string]any{"latency": "10ms", "now": "2031-01-01", "journal": 5}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Steering().Settings(); got.Latency != "10ms" || got.Clock != "set" || got.Journal != 5 || srv.Steering().Clock().Year() != 2031 || len(got.Changes) != 3 {
		t.Errorf("after a change: %+v, clock %s", got, srv.Steering().Clock())
	}
	if err := srv.Steering().ChangeSettings(map[string]any{"latency": nil, "now": nil, "journal": nil}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Steering().Settings(); got.Latency != "0s" || got.Clock != "real" || got.Journal != journal.DefaultJournalSize {
		t.Errorf("after changes back to the defaults: %+v", got)
	}
}

func TestForceRefusesBadAnswers(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		code, count int
		operation   string
		want        string
	}{
		{99, 1, "", "code: 99: want an HTTP status such as 503"},
		{600, 1, "", "code: 600: want an HTTP status such as 503"},
		{503, 0, "", "count: 0: want a number of requests from 1 to 1000"},
		{503, 1001, "", "count: 1001: want a number of requests from 1 to 1000"},
		{503, 1, "listPetz", `operation: "listPetz": want the id of an operation of the document: listPets, createPet, getPet`},
		{404, 1, "listPets", "code: 404 is not documented for listPets"},
		{418, 1, "", "code: 418 is documented for no operation"},
	} {
		err := srv.Steering().Force(tt.code, tt.count, tt.operation)
		var e *edge.Error
		if !errors.As(err, &e) || e.Status != 400 || !strings.HasPrefix(e.Message, tt.want) {
			t.Errorf("Force(%d, %d, %q): %v, want a 400 %q", tt.code, tt.count, tt.operation, err, tt.want)
		}
	}
	if got := srv.Steering().Forced(); len(got) != 0 {
		t.Errorf("refused answers were kept: %+v", got)
	}
	if err := srv.Steering().Force(503, 2, "listPets"); err != nil {
		t.Fatal(err)
	}
	if got := srv.Steering().Forced(); len(got) != 1 || got[0] != (steer.ForcedAnswer{ID: 1, Operation: "listPets", Code: 503, Remaining: 2}) {
		t.Errorf("Forced = %+v", got)
	}
	srv.Steering().ClearForced()
	if got := srv.Steering().Forced(); len(got) != 0 {
		t.Errorf("after ClearForced: %+v", got)
	}
}

// TestSubscriptionTakesWhatChanged checks that a subscription is told of
// each kind of change, folded, and finds a write of the API, which nothing
// announces, by the stores' version.
func TestSubscriptionTakesWhatChanged(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	sub := ts.Subscribe()
	defer sub.Close()
	if got := sub.Take(); got != 0 {
		t.Errorf("Take before any change = %b, want none", got)
	}
	ts.Steering().Force(503, 1, "")
	ts.Steering().ChangeSettings(map[string]any{"latency": "1ms"})
	ts.Journal().Clear()
	select {
	case <-sub.Changed():
	case <-time.After(10 * time.Second):
		t.Fatal("no word of the changes")
	}
	if got, want := sub.Take(), journal.ChangeForced|journal.ChangeSettings|journal.ChangeJournal; got != want {
		t.Errorf("Take = %b, want %b", got, want)
	}
	ts.Steering().ClearForced() // which the create would take otherwise
	sub.Take()
	ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`)
	if got := sub.Take(); got&journal.ChangeStore == 0 || got&journal.ChangeJournal == 0 {
		t.Errorf("Take after a create = %b, want the store and the journal", got)
	}
	if got := sub.Take(); got != 0 {
		t.Errorf("Take once more = %b, want none", got)
	}
	sub.Close()
	sub.Close() // twice is harmless
	ts.Close()
	select {
	case <-sub.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done is not closed after the server's Close")
	}
}

func TestJournalAndWhere(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{JournalSize: 3})
	for _, q := range []string{"limit=1", "limit=2", "limit=3", "limit=4"} {
		ts.do(t, "GET", "/pets?"+q, "")
	}
	if got := ts.Journal().Recent(0); len(got) != 3 || got[0].Query != "limit=4" {
		t.Errorf("Journal(0) = %d exchanges, the newest %+v; want the 3 kept, newest first", len(got), got[0])
	}
	if got := ts.Journal().Recent(1); len(got) != 1 || got[0].Query != "limit=4" {
		t.Errorf("Journal(1) = %+v", got)
	}
	ts.Journal().Clear()
	if got := ts.Journal().Recent(0); len(got) != 0 {
		t.Errorf("after ClearJournal: %+v", got)
	}
	where, err := ts.Items().Where("pets", url.Values{"status": {"sold"}, "limit": {"3"}})
	if err != nil || len(where) != 1 {
		t.Fatalf("Where status=sold: %v, %v", where, err)
	}
	sold := ts.do(t, "GET", "/pets?status=sold&limit=100", "").pets(t)
	if n := ts.Items().Store("pets").Count(&where[0]); n != len(sold) {
		t.Errorf("Where status=sold counts %d, the list %d", n, len(sold))
	}
	if _, err := ts.Items().Where("pets", url.Values{"status": {"lost"}}); err == nil || !strings.HasSuffix(err.Error(), "status: lost: want one of available, pending, sold") {
		t.Errorf("Where status=lost: %v", err)
	}
	if _, err := ts.Items().Where("owners", nil); err == nil {
		t.Error("Where of no resource: no error")
	}
}
