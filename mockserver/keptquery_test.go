package mockserver_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestKeptQueriesAnswerAlike sends the same queries from many clients at
// once, while others create pets, so that the values the gate keeps of a
// query (edge/querycache.go) are read by many handlers together: each
// answer is what the query asks, and the race detector, under which CI
// runs the tests, finds any handler that writes to them.
func TestKeptQueriesAnswerAlike(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{JournalSize: 10})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				if w == 0 && i%3 == 0 {
					if r := ts.do(t, "POST", "/pets", `{"name":"Kept","categoryId":1,"status":"sold"}`); r.StatusCode != 201 {
						errs <- fmt.Errorf("create: %s", r)
						return
					}
					continue
				}
				r := ts.do(t, "GET", "/pets?status=sold&limit=5", "")
				var page []struct{ Status string }
				if err := json.Unmarshal(r.body, &page); err != nil || r.StatusCode != 200 || len(page) == 0 || len(page) > 5 {
					errs <- fmt.Errorf("GET ?status=sold&limit=5: %s", r)
					return
				}
				for _, p := range page {
					if p.Status != "sold" {
						errs <- fmt.Errorf("GET ?status=sold&limit=5 listed a pet %s", p.Status)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
