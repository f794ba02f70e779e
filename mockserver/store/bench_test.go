package store_test

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/store"
)

// The benchmarks measure the store with the items petmock serves: the
// pets of its generated catalogue, at 1,000, 100,000 and a million. Run
// them with:
//
//	go test ./mockserver/store -run '^$' -bench . -benchmem

var storeSizes = []int{1_000, 100_000, 1_000_000}

var (
	catalogueOnce sync.Once
	catalogue1M   []store.Entry
)

// generated returns the first n pets of a generated catalogue of a million.
func generated(tb testing.TB, n int) []store.Entry {
	tb.Helper()
	catalogueOnce.Do(func() {
		srv, err := mockserver.New(mockserver.Config{
			Catalogue:   &catalogue.Seeded{Seed: catalogue.DefaultSeed, Count: 1_000_000},
			JournalSize: -1,
		})
		if err != nil {
			tb.Fatal(err)
		}
		catalogue1M = srv.Items().Store("pets").Entries()
	})
	if len(catalogue1M) < n {
		tb.Fatalf("the catalogue has %d pets, want %d", len(catalogue1M), n)
	}
	return catalogue1M[:n]
}

func benchStore(b *testing.B, n int) *store.Store {
	b.Helper()
	s := store.New("pets", 1)
	if err := s.Replace(generated(b, n)); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkStorePage shows that a page costs the same at any store size:
// the first page, a filtered first page, and a filtered page deep into
// the pagination.
func BenchmarkStorePage(b *testing.B) {
	for _, n := range storeSizes {
		s := benchStore(b, n)
		pages := []struct {
			name string
			pg   store.Page
		}{
			{"first", store.Page{After: math.MinInt64, Limit: 20}},
			{"sold-first", store.StatusPage(math.MinInt64, 20, "sold")},
			{"sold-deep", store.StatusPage(int64(n)*9/10, 20, "sold")},
		}
		for _, p := range pages {
			b.Run(fmt.Sprintf("%s/pets=%d", p.name, n), func(b *testing.B) {
				buf := make([]byte, 0, 4096)
				b.ReportAllocs()
				for b.Loop() {
					s.AppendPage(buf[:0], p.pg)
				}
			})
		}
	}
}

func BenchmarkStoreLookup(b *testing.B) {
	for _, n := range storeSizes {
		s := benchStore(b, n)
		b.Run("pets="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			i := int64(0)
			for b.Loop() {
				i = i%int64(n) + 1
				if _, _, ok := s.Lookup(i); !ok {
					b.Fatal("missing")
				}
			}
		})
	}
}

func BenchmarkStoreAdd(b *testing.B) {
	for _, n := range storeSizes {
		b.Run("pets="+strconv.Itoa(n), func(b *testing.B) {
			s := benchStore(b, n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := store.AddPet(s, "Added", 2, "sold"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
