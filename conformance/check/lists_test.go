package check

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/spec"
)

// shortPages serves three notes of conformancetest.Notes, and a page of a limit below three one
// note short of it until late has passed since the first such page, as an
// eventually consistent server whose page holds the place of a note just
// created that it does not show yet; forever when late is 0.
func shortPages(late time.Duration) http.Handler {
	var mu sync.Mutex
	var first time.Time
	all := []map[string]any{{"id": 1, "text": "a"}, {"id": 2, "text": "b"}, {"id": 3, "text": "c"}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		page := all
		if limit, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && limit < len(all) {
			mu.Lock()
			if first.IsZero() {
				first = time.Now()
			}
			short := late == 0 || time.Since(first) < late
			mu.Unlock()
			page = all[:limit]
			if short {
				page = all[:limit-1]
			}
		}
		json.NewEncoder(w).Encode(page)
	})
}

// TestShortPageAskedAgain: a page short of its limit is asked again
// within the settle time before it fails list.limit, as an eventually
// consistent server may show it so for a moment; one short for good
// fails.
func TestShortPageAskedAgain(t *testing.T) {
	t.Parallel()
	c, err := spec.Read([]byte(ct.Notes))
	if err != nil {
		t.Fatal(err)
	}
	res := c.Resource("notes")
	if res == nil || res.Paging.Limit != "limit" {
		t.Fatalf("no resource notes with a limit: %v", c.Notes)
	}
	for range 5 { // the limit is drawn at random, 1 or 2
		h := judgeOver(t, shortPages(100*time.Millisecond), Settings{Contract: c, Settle: 500 * time.Millisecond})
		if err := h.CheckListLimit(checkContext(t), res); err != nil {
			t.Fatalf("a page short for 100ms: %v", err)
		}
	}
	h := judgeOver(t, shortPages(0), Settings{Contract: c, Settle: 300 * time.Millisecond})
	b := wantBroken(t, "a page short for good", h.CheckListLimit(checkContext(t), res), "list.limit")
	if b != nil {
		t.Logf("%s", b.Detail)
	}
}

// TestShortPetsPageAskedAgain: listPets' page short of its limit for a
// moment, as an eventually consistent Petstore may show it, is asked
// again within the settle time and passes; one short for good fails
// limit.
func TestShortPetsPageAskedAgain(t *testing.T) {
	t.Parallel()
	shortFor := func(late time.Duration) http.Handler {
		var mu sync.Mutex
		var first time.Time
		return ct.Intercept(ct.Petmock(t), func(r *http.Request, rec *httptest.ResponseRecorder) {
			limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
			if r.Method != http.MethodGet || r.URL.Path != "/v1/pets" || err != nil || limit >= 100 {
				return
			}
			mu.Lock()
			if first.IsZero() {
				first = time.Now()
			}
			short := late == 0 || time.Since(first) < late
			mu.Unlock()
			var pets []any
			if !short || json.Unmarshal(rec.Body.Bytes(), &pets) != nil || len(pets) == 0 {
				return
			}
			rec.Body.Reset()
			json.NewEncoder(rec.Body).Encode(pets[:len(pets)-1])
		})
	}
	late := judgeOver(t, shortFor(100*time.Millisecond), Settings{Settle: 500 * time.Millisecond})
	choose := LimitChoices(late.contract)[0].Choose // the minimum, 1
	if err := late.CheckLimit(checkContext(t), choose); err != nil {
		t.Errorf("a page short for 100ms: %v", err)
	}
	wantBroken(t, "a page short for good", judgeOver(t, shortFor(0), Settings{Settle: 300 * time.Millisecond}).CheckLimit(checkContext(t), choose), "limit.honoured")
}
