package admin_test

import (
	"encoding/json"
	"slices"
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

// TestContractSaysWhatPetmockMadeOfTheDocument: the contract names the
// resource of each operation that has one, and for an operation of no
// resource the start-up note that says why its path is served as plain
// operations, so that a console of such a document is not an empty
// catalogue with no word of explanation.
func TestContractSaysWhatPetmockMadeOfTheDocument(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cfg       mockserver.Config
		resources int
		plain     map[string]string // operation → a word its note must hold; "" for no note
	}{
		{name: "the Petstore", cfg: mockserver.Config{}, resources: 1, plain: map[string]string{}},
		{name: "a collection without an item path", cfg: mockserver.Config{Contract: document(t, plainCollectionPaths)},
			plain: map[string]string{"listThings": "no item path", "createThing": "no item path"}},
		{name: "an operation of no collection", cfg: mockserver.Config{Contract: document(t, defaultOnlyPaths)},
			plain: map[string]string{"ping": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestServer(t, tc.cfg)
			var c struct {
				Operations []struct{ ID, Resource, Note string }
				Resources  []struct{ Name string }
				Notes      []string
			}
			resp := ts.admin(t, "GET", "contract", "", "")
			if resp.StatusCode != 200 || json.Unmarshal(resp.body, &c) != nil {
				t.Fatalf("GET contract: %s", resp)
			}
			if len(c.Resources) != tc.resources || c.Notes == nil {
				t.Fatalf("resources %+v, notes %q; want %d resources and a list of notes", c.Resources, c.Notes, tc.resources)
			}
			for _, op := range c.Operations {
				word, plain := tc.plain[op.ID]
				switch {
				case !plain && op.Resource == "":
					t.Errorf("%s: no resource, want one", op.ID)
				case plain && op.Resource != "":
					t.Errorf("%s: resource %q, want none", op.ID, op.Resource)
				case plain && word == "" && op.Note != "":
					t.Errorf("%s: note %q, want none", op.ID, op.Note)
				case plain && !strings.Contains(op.Note, word):
					t.Errorf("%s: note %q, want one that says %q", op.ID, op.Note, word)
				}
				if op.Note != "" && !slices.Contains(c.Notes, op.Note) {
					t.Errorf("%s: note %q is none of the start-up notes %q", op.ID, op.Note, c.Notes)
				}
			}
		})
	}
}
