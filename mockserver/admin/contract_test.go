package admin_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

func TestContractNeedsNoKey(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	var c struct {
		Title      string
		Now        time.Time
		Operations []struct {
			ID, Method, Path string
			Statuses         []int
			Deprecated       *struct {
				Sunset     time.Time
				ReplacedBy string
				Removed    bool
			}
		}
		Resources []struct {
			Name       string
			Properties []string
			Filters    []struct {
				Name   string
				Values []string
			}
		}
	}
	read := func() {
		t.Helper()
		resp := ts.admin(t, "GET", "contract", "", "")
		if resp.StatusCode != 200 || json.Unmarshal(resp.body, &c) != nil {
			t.Fatalf("GET contract without a key: %s", resp)
		}
	}
	read()
	if c.Title != "Petstore" || len(c.Operations) != 3 || len(c.Resources) != 1 {
		t.Fatalf("GET contract = %+v", c)
	}
	getPet := c.Operations[2]
	if getPet.ID != "getPet" || getPet.Path != "/v1/pets/{petId}" || getPet.Deprecated == nil ||
		getPet.Deprecated.Sunset.Format(time.DateOnly) != "2030-12-05" || getPet.Deprecated.ReplacedBy != "listPets" || getPet.Deprecated.Removed {
		t.Errorf("getPet = %+v, want deprecated until 2030-12-05, replaced by listPets", getPet)
	}
	if c.Operations[0].Deprecated != nil {
		t.Errorf("listPets is shown deprecated")
	}
	if f := c.Resources[0].Filters; len(f) != 1 || f[0].Name != "status" || strings.Join(f[0].Values, ",") != "available,pending,sold" {
		t.Errorf("filters of pets = %+v", f)
	}
	ts.admin(t, "PATCH", "settings", `{"now":"2031-01-01"}`)
	read()
	if !c.Operations[2].Deprecated.Removed || c.Now.Year() != 2031 {
		t.Errorf("with the clock at 2031: now %s, getPet removed %v; want it removed", c.Now, c.Operations[2].Deprecated.Removed)
	}
}

// TestContractListsAreNeverNull checks that an operation with only a
// default response has no statuses as [], not null, which the console
// reads as a list.
func TestContractListsAreNeverNull(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{Contract: document(t, defaultOnlyPaths)})
	if err != nil {
		t.Fatal(err)
	}
	w := serve(t, srv, "GET", "/__petmock/contract")
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"statuses":[]`) || strings.Contains(w.Body.String(), "null") {
		t.Errorf("GET contract of an operation with only a default answer: %d %s, want \"statuses\":[] and no null", w.Code, w.Body)
	}
}
