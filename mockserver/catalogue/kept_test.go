package catalogue

import (
	"context"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
)

// petstore returns the resources of the Petstore's document, with the
// starting items given.
func petstore(t *testing.T, items Items, limits store.Limits) *Resources {
	t.Helper()
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	set := New(Config{Contract: c, Shapes: shape.NewBuilder(c), Events: journal.NewHub(), Limits: limits})
	if _, err := set.Fill(context.Background(), items, nil); err != nil {
		t.Fatal(err)
	}
	return set
}

// TestRecoverServesFitsAndHoldsBack recovers items kept in the form of
// the document that serves, in another form, that fit it or do not, and
// of a resource it does not have: each must be served as it is, made to
// fit, or held back saying why, and ids must go on from where they were
// given.
func TestRecoverServesFitsAndHoldsBack(t *testing.T) {
	set := petstore(t, Items{"pets": nil}, store.Limits{})
	pets := set.Resource("pets")
	own := pets.Form()
	other := own
	other.Document = "another version"
	item := func(id int64, text string, f *Form) KeptItem {
		return KeptItem{Entry: store.Entry{ID: id, Text: []byte(text), Keys: []string{"available"}}, Form: f}
	}
	rec, err := set.Recover([]KeptResource{
		{Name: "pets", Next: 100, Items: []KeptItem{
			item(1, `{"id":1,"name":"As written","categoryId":1,"status":"available"}`, &own),
			item(2, `{"id":2,"name":"Of another version","categoryId":1}`, &other),
			item(3, `{"id":3,"name":"Lost","categoryId":1,"status":"lost"}`, &other),
		}, Held: []Held{
			{KeptItem: item(4, `{"id":4,"name":"Held, fits now","categoryId":2,"status":"sold"}`, &other), Reason: "before"},
		}},
		{Name: "owners", Next: 3, Items: []KeptItem{item(1, `{"id":1,"name":"Ann"}`, &other)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Served["pets"] != 3 || rec.Converted["pets"] != 2 || rec.Held["pets"] != 1 || rec.Held["owners"] != 1 {
		t.Errorf("Recover = %+v, want 3 pets served, 2 of them made to fit, 1 pet and 1 owner held back", rec)
	}
	var names []string
	for _, e := range pets.store.Entries() {
		names = append(names, string(e.Text))
	}
	if got := strings.Join(names, "\n"); !strings.Contains(got, `"As written"`) || !strings.Contains(got, `"Of another version"`) ||
		!strings.Contains(got, `"Held, fits now"`) || strings.Contains(got, `"Lost"`) {
		t.Errorf("pets served:\n%s", got)
	}
	held := set.Held()
	if len(held["pets"]) != 1 || !strings.Contains(held["pets"][0].Reason, "status") {
		t.Errorf("pets held back: %+v, want pet 3, saying its status is why", held["pets"])
	}
	if len(held["owners"]) != 1 || !strings.Contains(held["owners"][0].Reason, "no resource owners") {
		t.Errorf("owners held back: %+v, want owner 1, saying the document has no owners", held["owners"])
	}
	e, err := pets.store.Add(func(id int64) (store.Entry, error) {
		return pets.entry(id, "", map[string]any{"name": "New", "categoryId": 1}), nil
	})
	if err != nil || e.ID != 100 {
		t.Errorf("Add after Recover gave id %d, %v; want 100, from where ids were given", e.ID, err)
	}
}

// TestRecoverPastTheLimitsChangesNothing recovers more items than a store
// may hold: it must fail, and the stores hold their starting items.
func TestRecoverPastTheLimitsChangesNothing(t *testing.T) {
	set := petstore(t, Items{"pets": {[]byte(`{"id":9,"name":"Start","categoryId":1}`)}}, store.Limits{MaxItems: 1})
	own := set.Resource("pets").Form()
	var items []KeptItem
	for id := int64(1); id <= 2; id++ {
		items = append(items, KeptItem{Entry: store.Entry{ID: id, Text: []byte(`{"id":1,"name":"x","categoryId":1}`), Keys: []string{shape.AbsentKey}}, Form: &own})
	}
	if _, err := set.Recover([]KeptResource{{Name: "pets", Next: 3, Items: items}}); err == nil {
		t.Fatal("Recover of 2 pets into a store of at most 1: no error")
	}
	if got := set.Resource("pets").store.Entries(); len(got) != 1 || got[0].ID != 9 {
		t.Errorf("after a refused Recover the pets are %v, want the starting one", got)
	}
}
