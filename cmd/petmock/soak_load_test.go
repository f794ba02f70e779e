//go:build soak

package main

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// TestSoakLoad runs loaders against petmock with a state file for the
// soak time: clients that create pets, walk every page and read pets, all
// at once. No answer may be a 5xx; after SIGTERM, the state file must hold
// every pet whose creation was acknowledged.
func TestSoakLoad(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	p := startBinary(t, "--state", state, "--pets", "1000", "--save-interval", "50ms")
	stop := make(chan struct{})
	created := make(chan map[int64]string)
	go func() { created <- writeLoad(t, p.url, stop) }()

	until := soakUntil()
	var reads, walks atomic.Int64
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Go(func() {
			client := &http.Client{Timeout: 30 * time.Second}
			do := func(url string) (*http.Response, []byte) {
				req, _ := http.NewRequest("GET", url, nil)
				req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
				resp, err := client.Do(req)
				if err != nil {
					t.Errorf("GET %s: %v", url, err)
					return nil, nil
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode >= 500 {
					t.Errorf("GET %s: %d %s", url, resp.StatusCode, body)
				}
				return resp, body
			}
			for i := 0; time.Now().Before(until); i++ {
				if c%2 == 0 {
					do(p.url + "/pets/" + strconv.Itoa(1+i%1000))
					reads.Add(1)
					continue
				}
				// A walk over every page: ids ascending, none twice.
				url, last := p.url+"/pets?limit=100&status=available", int64(0)
				for url != "" && time.Now().Before(until) {
					resp, body := do(url)
					if resp == nil {
						return
					}
					var pets []pet
					json.Unmarshal(body, &pets)
					for _, pt := range pets {
						if pt.ID <= last {
							t.Errorf("walk: pet %d after %d", pt.ID, last)
						}
						last = pt.ID
					}
					url = nextURL(resp.Header.Get("Link"))
				}
				walks.Add(1)
			}
		})
	}
	wg.Wait()
	close(stop)
	acked := <-created
	stopAndCheckSaved(t, p, state, acked)
	t.Logf("%d pets created, %d reads, %d walks; every acknowledged pet saved", len(acked), reads.Load(), walks.Load())
}

// nextURL returns the URL of a Link: <URL>; rel="next", or "".
func nextURL(link string) string {
	if len(link) < 2 || link[0] != '<' {
		return ""
	}
	for i := 1; i < len(link); i++ {
		if link[i] == '>' {
			return link[1:i]
		}
	}
	return ""
}
