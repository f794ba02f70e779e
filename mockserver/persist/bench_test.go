package persist

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// BenchmarkCreateWithState measures what durability costs: creates from
// 32 clients at once over HTTP, against a state file on the disk of the
// test's temporary directory, with every write saved before it is answered
// (the default), with saves every 5 s, and without --state.
//
//	go test ./mockserver/persist -run '^$' -bench CreateWithState -benchtime 5s
func BenchmarkCreateWithState(b *testing.B) {
	for _, mode := range []struct {
		name     string
		state    bool
		interval time.Duration
	}{
		{"each write saved", true, 0},
		{"saved every 5s", true, 5 * time.Second},
		{"no state", false, 0},
	} {
		b.Run(mode.name, func(b *testing.B) {
			srv, err := mockserver.New(mockserver.Config{JournalSize: -1})
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
				defer func() { cancel(); <-stopped }()
			}
			hs := httptest.NewServer(srv)
			defer hs.Close()
			client := hs.Client()
			client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
			b.SetParallelism(max(1, 32/runtime.GOMAXPROCS(0))) // 32 clients
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req, _ := http.NewRequest("POST", hs.URL+"/v1/pets", strings.NewReader(`{"name":"Rex","categoryId":2}`))
					req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
					req.Header.Set("Content-Type", "application/json")
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusCreated {
						b.Errorf("POST /v1/pets: %d", resp.StatusCode)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
		})
	}
}
