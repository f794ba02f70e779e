//go:build soak

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// Peak memory bounds of the petmock process, VmHWM, in the soak tests.
// Pages built whole took 7.4 GB; six fixtures of 200 MB at once, 2.8 GB.
const (
	maxPagesPeak   = 400 << 20 // a store of 100 MiB, read by 32 clients at once
	maxFixturePeak = 1 << 30
)

// TestSoakLargePages creates 100 pets whose names are almost 1 MiB, then
// has 32 clients read pages of all of them at once, again and again, and
// holds the process's peak memory to maxPagesPeak.
func TestSoakLargePages(t *testing.T) {
	p := startBinary(t, "--pets", "0", "--journal", "100")
	name := strings.Repeat("n", mockserver.MaxBodyBytes-64)
	for i := range 100 {
		status, body := get(t, "POST", p.url+"/pets", `{"name":"`+name+`","categoryId":1}`)
		if status != 201 {
			t.Fatalf("creating pet %d: %d %.200s", i, status, body)
		}
	}
	until := soakUntil()
	var pages, bytes atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			client := &http.Client{}
			for time.Now().Before(until) {
				req, _ := http.NewRequest("GET", p.url+"/pets?limit=100", nil)
				req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
				resp, err := client.Do(req)
				if err != nil {
					t.Errorf("GET /v1/pets?limit=100: %v", err)
					return
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 || n < 100*int64(len(name)) {
					t.Errorf("GET /v1/pets?limit=100: %d with %d bytes (%v)", resp.StatusCode, n, err)
					return
				}
				pages.Add(1)
				bytes.Add(n)
			}
		})
	}
	wg.Wait()
	alive(t, p)
	peak := peakMemory(t, p.cmd.Process.Pid)
	t.Logf("%d pages of 100 pets (%d MiB) read by 32 clients at once; petmock's peak memory %d MiB", pages.Load(), bytes.Load()>>20, peak>>20)
	if peak > maxPagesPeak {
		t.Errorf("petmock's peak memory %d MiB, want at most %d MiB", peak>>20, maxPagesPeak>>20)
	}
}

// fixtureReader makes a fixture of n pets with names of nameBytes bytes
// as it is read, so that the test holds none of it.
type fixtureReader struct {
	n, nameBytes, next int
	pending            []byte
}

func (f *fixtureReader) size() int64 {
	var total int64 = 2 // [ and ]
	for i := 1; i <= f.n; i++ {
		total += int64(len(f.pet(i)))
	}
	return total + int64(f.n-1)
}

func (f *fixtureReader) pet(i int) string {
	return fmt.Sprintf(`{"id":%d,"name":"%s","categoryId":1}`, i, strings.Repeat("f", f.nameBytes))
}

func (f *fixtureReader) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		switch {
		case f.next == 0:
			f.pending = []byte("[")
		case f.next <= f.n:
			f.pending = []byte(f.pet(f.next))
			if f.next < f.n {
				f.pending = append(f.pending, ',')
			}
		case f.next == f.n+1:
			f.pending = []byte("]")
		default:
			return 0, io.EOF
		}
		f.next++
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// TestSoakFixtureUploads has six clients upload fixtures of 200 MB at
// once, again and again, retrying when told to, and holds the process's
// peak memory to maxFixturePeak.
func TestSoakFixtureUploads(t *testing.T) {
	p := startBinary(t, "--pets", "0")
	root := strings.TrimSuffix(p.url, "/v1")
	until := soakUntil()
	var stored, refused atomic.Int64
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for time.Now().Before(until) {
				f := &fixtureReader{n: 2000, nameBytes: 100 << 10}
				req, _ := http.NewRequest("PUT", root+admin.Prefix+"pets", f)
				req.ContentLength = f.size()
				req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					// A refused upload is answered before its body is
					// sent, and the connection closed under the client.
					refused.Add(1)
					time.Sleep(time.Second)
					continue
				}
				var e edge.Error
				json.NewDecoder(resp.Body).Decode(&e)
				resp.Body.Close()
				switch resp.StatusCode {
				case 200:
					stored.Add(1)
				case 503:
					refused.Add(1)
					time.Sleep(time.Second) // Retry-After
				default:
					t.Errorf("PUT a fixture of 200 MB: %d %+v", resp.StatusCode, e)
					return
				}
			}
		})
	}
	wg.Wait()
	alive(t, p)
	peak := peakMemory(t, p.cmd.Process.Pid)
	t.Logf("%d fixtures of 200 MB stored, %d refused while others were read; petmock's peak memory %d MiB", stored.Load(), refused.Load(), peak>>20)
	if stored.Load() == 0 {
		t.Errorf("no fixture was stored")
	}
	if peak > maxFixturePeak {
		t.Errorf("petmock's peak memory %d MiB, want at most %d MiB", peak>>20, maxFixturePeak>>20)
	}
}
