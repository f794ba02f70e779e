package mockserver_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
)

func TestFixtureRoundTrip(t *testing.T) {
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	items, err := catalogue.Generate(c, catalogue.Seeded{Seed: 7, Count: 25, StatusMix: []int{6, 3, 1}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := catalogue.WriteFixture(&buf, c, items); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(buf.String(), "\n"); lines != len(items["pets"])+2 {
		t.Errorf("fixture has %d lines, want one per pet and two for the brackets", lines)
	}
	back, err := catalogue.ReadFixture(c, bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back["pets"]) != len(items["pets"]) {
		t.Fatalf("read back %d pets, want %d", len(back["pets"]), len(items["pets"]))
	}
	for i := range items["pets"] {
		if !bytes.Equal(back["pets"][i], items["pets"][i]) {
			t.Errorf("pet %d: read back %s, want %s", i, back["pets"][i], items["pets"][i])
		}
	}
	srv, err := mockserver.New(mockserver.Config{Contract: c, Items: items})
	if err != nil {
		t.Fatal(err)
	}
	var exported bytes.Buffer
	if _, err := srv.Items().Export(&exported); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(exported.Bytes(), buf.Bytes()) {
		t.Errorf("Export and WriteFixture differ")
	}
}

func TestStoreLimits(t *testing.T) {
	start := []Pet{{ID: 1, Name: "a", CategoryID: 1}, {ID: 2, Name: "b", CategoryID: 1}}
	ts := newTestServer(t, mockserver.Config{Items: items(start), MaxItems: 3, MaxStoreBytes: 400})
	if resp := ts.do(t, "POST", "/pets", `{"name":"third","categoryId":1}`); resp.StatusCode != 201 {
		t.Fatalf("third pet under a cap of 3: %s", resp)
	}
	resp := ts.do(t, "POST", "/pets", `{"name":"fourth","categoryId":1}`)
	if e := resp.apiError(t); resp.StatusCode != 507 || e.Code != "store_full" ||
		!strings.HasPrefix(e.Message, "store: the store is full: it holds 3 pets") || !strings.HasSuffix(e.Message, "nothing was changed") {
		t.Errorf("fourth pet over a cap of 3: %s, want a clear 507", resp)
	}
	if ts.Items().Store("pets").Len() != 3 {
		t.Errorf("the refused create changed the store: %d pets", ts.Items().Store("pets").Len())
	}
	if _, err := ts.Items().ReplaceItems("pets", strings.NewReader(`[{"id":1,"name":"a","categoryId":1},{"id":2,"name":"b","categoryId":1},{"id":3,"name":"c","categoryId":1},{"id":4,"name":"d","categoryId":1}]`)); !errors.Is(err, store.ErrStoreFull) {
		t.Errorf("ReplaceItems of 4 pets over a cap of 3: %v, want ErrStoreFull", err)
	}
	if _, err := ts.Items().Reset(); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("n", 300)
	if resp := ts.do(t, "POST", "/pets", `{"name":"`+long+`","categoryId":1}`); resp.StatusCode != 507 {
		t.Errorf("a 300-byte name in a store capped at 400 bytes: %s, want 507", resp)
	}
	if ts.Items().Store("pets").Len() != 2 || ts.Items().Store("pets").Bytes() > 400 {
		t.Errorf("after refusals: %d pets in %d bytes", ts.Items().Store("pets").Len(), ts.Items().Store("pets").Bytes())
	}
	if _, err := mockserver.New(mockserver.Config{Items: items(start), MaxItems: 1}); err == nil {
		t.Error("New accepted a catalogue larger than MaxPets")
	}
	if _, err := mockserver.New(mockserver.Config{Items: items(start), MaxStoreBytes: 10}); err == nil {
		t.Error("New accepted a catalogue larger than MaxStoreBytes")
	}
}

// TestLoadedFileLeavesUnnamedResourcesAtTheirStart checks the one rule of
// every file loaded into a running server, by Load (petmock --state) and
// by LoadFixture (PUT /__petmock/fixture) alike: a resource the file names
// holds its items, and one it does not name holds its starting items,
// those Reset returns to, whatever was written to it since.
func TestLoadedFileLeavesUnnamedResourcesAtTheirStart(t *testing.T) {
	c := readContract(t, "evolved-ops.yaml")
	const order = `{"id":3,"petId":1,"quantity":2,"status":"placed","complete":false}`
	for _, load := range []struct {
		what string
		do   func(*mockserver.Server, string) error
	}{
		{"Load", func(s *mockserver.Server, f string) error { return s.Items().Load(strings.NewReader(f)) }},
		{"LoadFixture", func(s *mockserver.Server, f string) error {
			_, err := s.Items().LoadFixture(strings.NewReader(f))
			return err
		}},
	} {
		for _, fixture := range []string{`{"orders":[` + order + `]}`, `{"orders":[` + order + `],"pets":[]}`} {
			srv, err := mockserver.New(mockserver.Config{Contract: c, Catalogue: &catalogue.Seeded{Seed: 3, Count: 5}})
			if err != nil {
				t.Fatal(err)
			}
			start := srv.Items().Store("pets").Entries()
			srv.Items().Store("pets").Delete(1)
			srv.Items().Store("pets").Delete(2)
			if err := load.do(srv, fixture); err != nil {
				t.Fatalf("%s %s: %v", load.what, fixture, err)
			}
			wantPets := start
			if strings.Contains(fixture, `"pets":[]`) {
				wantPets = nil
			}
			if got := srv.Items().Store("pets").Entries(); len(got) != len(wantPets) || len(got) > 0 && got[0].ID != wantPets[0].ID {
				t.Errorf("%s %s: %d pets, want %d", load.what, fixture, len(got), len(wantPets))
			}
			if got := srv.Items().Store("orders").Entries(); len(got) != 1 || got[0].ID != 3 {
				t.Errorf("%s %s: orders %v, want the fixture's one", load.what, fixture, got)
			}
		}
	}
}

// TestStatusMixOfAStatusSeveralMembersDeclare: a status mix weighs the
// status's enumeration where several allOf members of the item declare
// it, one of them with its enum: the status was read as the allOf of its
// declarations, of no enumeration, and the mix refused.
func TestStatusMixOfAStatusSeveralMembersDeclare(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      responses:
        '200': {description: The pets., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
  /pets/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A pet., content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
components:
  schemas:
    Pet:
      allOf:
        - type: object
          required: [status]
          properties:
            id: {type: integer}
            status: {type: string, enum: [available, pending, sold]}
        - type: object
          properties:
            status: {type: string, description: The pet's status.}
`))
	if err != nil {
		t.Fatal(err)
	}
	items, err := catalogue.Generate(c, catalogue.Seeded{Seed: 7, Count: 20, StatusMix: []int{1, 0, 0}})
	if err != nil {
		t.Fatalf("Generate with a mix: %v", err)
	}
	for _, it := range items["pets"] {
		if !bytes.Contains(it, []byte(`"status":"available"`)) {
			t.Errorf("pet %s, want every one available, as the mix weighs", it)
		}
	}
}
