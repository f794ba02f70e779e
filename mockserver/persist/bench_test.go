package persist

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/catalogue"
)

// BenchmarkCreateWithState measures what durability costs, and that it
// does not grow with the store: creates from 16 clients at once over
// HTTP, against a store of 1,000 and of 1,000,000 pets, with every write
// saved before it is answered (the default), with saves every 5 s, and
// without --state. It reports creates a second and the 99th percentile of
// their latency.
//
//	go test ./mockserver/persist -run '^$' -bench CreateWithState -benchtime 5s
func BenchmarkCreateWithState(b *testing.B) {
	for _, pets := range []int{1_000, 1_000_000} {
		for _, mode := range []struct {
			name     string
			state    bool
			interval time.Duration
		}{
			{"each write saved", true, 0},
			{"saved every 5s", true, 5 * time.Second},
			{"no state", false, 0},
		} {
			b.Run(fmt.Sprintf("%d pets, %s", pets, mode.name), func(b *testing.B) {
				srv, err := mockserver.New(mockserver.Config{JournalSize: -1, Catalogue: &catalogue.Seeded{Seed: 1, Count: pets}, MaxItems: pets + 10_000_000})
				if err != nil {
					b.Fatal(err)
				}
				if mode.state {
					cfg := Config{Interval: mode.interval}
					saver, err := Open(filepath.Join(b.TempDir(), "state.json"), source{srv}, slog.New(slog.NewTextHandler(io.Discard, nil)), cfg)
					if err != nil {
						b.Fatal(err)
					}
					commitBy(srv, saver, cfg)
					ctx, cancel := context.WithCancel(context.Background())
					stopped := make(chan struct{})
					go func() { defer close(stopped); saver.Run(ctx) }()
					defer func() { cancel(); <-stopped; saver.Close() }()
				}
				hs := httptest.NewServer(srv)
				defer hs.Close()
				client := hs.Client()
				client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
				var mu sync.Mutex
				var took []time.Duration
				b.SetParallelism(max(1, 16/runtime.GOMAXPROCS(0))) // 16 clients
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					var mine []time.Duration
					for pb.Next() {
						req, _ := http.NewRequest("POST", hs.URL+"/v1/pets", strings.NewReader(`{"name":"Rex","categoryId":2}`))
						req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
						req.Header.Set("Content-Type", "application/json")
						start := time.Now()
						resp, err := client.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						mine = append(mine, time.Since(start))
						if resp.StatusCode != http.StatusCreated {
							b.Errorf("POST /v1/pets: %d", resp.StatusCode)
							return
						}
					}
					mu.Lock()
					took = append(took, mine...)
					mu.Unlock()
				})
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
				slices.Sort(took)
				if len(took) > 0 {
					b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
				}
			})
		}
	}
}

// BenchmarkRecover measures a start from a log of 1,000,000 pets: the log
// read, and the stores filled from it. Besides the time, it reports the
// CPU time the process spent, user and system, which other work on a
// shared machine does not inflate.
//
//	go test ./mockserver/persist -run '^$' -bench Recover -benchtime 3x
func BenchmarkRecover(b *testing.B) {
	const pets = 1_000_000
	path := filepath.Join(b.TempDir(), "state.json")
	cfg := mockserver.Config{JournalSize: -1, Catalogue: &catalogue.Seeded{Seed: 1, Count: pets}, MaxItems: 2 * pets}
	srv, err := mockserver.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	saver, err := Open(path, source{srv}, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
	if err != nil {
		b.Fatal(err)
	}
	if err := saver.Close(); err != nil {
		b.Fatal(err)
	}
	empty := cfg
	empty.Catalogue = &catalogue.Seeded{Seed: 1, Count: 0}
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		srv, err := mockserver.New(empty)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		before := cpuTime()
		b.StartTimer()
		saver, err := Open(path, source{srv}, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += cpuTime() - before
		if n := srv.Items().Store("pets").Len(); n != pets {
			b.Fatalf("recovered %d pets, want %d", n, pets)
		}
		saver.Close()
		b.StartTimer()
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

// cpuTime returns the CPU time the process has spent, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
