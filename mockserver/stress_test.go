package mockserver_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
)

// TestStress runs clients that create, walk every page and read pets at
// once, for a bounded number of operations, then checks under -race that
// no acknowledged pet is missing, ids are unique, pages are ordered with
// no duplicate and no gap, and the counts are exact.
func TestStress(t *testing.T) {
	const clients, opsPerClient, seeded = 8, 60, 40
	start, err := generate(catalogue.Seeded{Seed: 5, Count: seeded})
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, mockserver.Config{Items: items(start)})
	statuses := []string{"available", "pending", "sold"}

	var mu sync.Mutex // guards acked
	acked := map[int64]Pet{}
	for _, p := range start {
		acked[p.ID] = p
	}
	snapshot := func() map[int64]Pet {
		mu.Lock()
		defer mu.Unlock()
		out := make(map[int64]Pet, len(acked))
		for k, v := range acked {
			out[k] = v
		}
		return out
	}

	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(c), 1))
			for i := range opsPerClient {
				switch rnd.IntN(4) {
				case 0, 1:
					status := statuses[rnd.IntN(3)]
					body := fmt.Sprintf(`{"name":"client-%d-op-%d","categoryId":%d,"status":%q}`, c, i, c, status)
					resp := ts.do(t, "POST", "/pets", body)
					if resp.StatusCode != http.StatusCreated {
						t.Errorf("create: %s", resp)
						return
					}
					p := resp.pet(t)
					mu.Lock()
					if _, dup := acked[p.ID]; dup {
						t.Errorf("id %d given twice", p.ID)
					}
					acked[p.ID] = p
					mu.Unlock()
				case 2:
					status := ""
					if rnd.IntN(2) == 0 {
						status = statuses[rnd.IntN(3)]
					}
					before := snapshot()
					first := "/pets?limit=" + strconv.Itoa(1+rnd.IntN(30))
					if status != "" {
						first += "&status=" + status
					}
					pets, _ := walk(t, ts, first)
					checkWalk(t, first, pets, before, status)
				case 3:
					before := snapshot()
					if len(before) == 0 {
						continue
					}
					ids := make([]int64, 0, len(before))
					for id := range before {
						ids = append(ids, id)
					}
					id := ids[rnd.IntN(len(ids))]
					resp := ts.do(t, "GET", "/pets/"+strconv.FormatInt(id, 10), "")
					if resp.StatusCode != 200 || resp.pet(t) != before[id] {
						t.Errorf("GET /v1/pets/%d: %s, want %+v", id, resp, before[id])
					}
				}
			}
		})
	}
	wg.Wait()

	final, _ := walk(t, ts, "/pets?limit=100")
	if len(final) != len(acked) || ts.Items().Store("pets").Len() != len(acked) {
		t.Fatalf("%d pets listed, %d stored, %d acknowledged: the counts must be equal", len(final), ts.Items().Store("pets").Len(), len(acked))
	}
	checkWalk(t, "the final walk", final, acked, "")
}

// checkWalk checks one walk through the pages: ids in ascending order,
// each once, every pet acknowledged before the walk there and unchanged,
// and only pets of the status walked.
func checkWalk(t *testing.T, what string, pets []Pet, before map[int64]Pet, status string) {
	t.Helper()
	if !slices.IsSortedFunc(pets, func(a, b Pet) int { return cmpID(a.ID, b.ID) }) {
		t.Errorf("%s: pages out of order", what)
	}
	seen := map[int64]bool{}
	for _, p := range pets {
		if seen[p.ID] {
			t.Errorf("%s: pet %d seen twice", what, p.ID)
		}
		seen[p.ID] = true
		if status != "" && p.Status != status {
			t.Errorf("%s: pet %d is %s", what, p.ID, p.Status)
		}
		if want, ok := before[p.ID]; ok && want != p {
			t.Errorf("%s: pet %d is %+v, was acknowledged as %+v", what, p.ID, p, want)
		}
	}
	for id, p := range before {
		if (status == "" || p.Status == status) && !seen[id] {
			t.Errorf("%s: acknowledged pet %d is missing: a gap", what, id)
		}
	}
}

func cmpID(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
