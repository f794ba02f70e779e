package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// storeSize compares pages of a store of 1,000 pets with the same pages
// of a store of a million, and measures the large store's memory and
// seeding time.
func (b *bench) storeSize(ctx context.Context) ([]result, error) {
	type pages struct{ first, deep load }
	measure := func(n int) (pages, *process, error) {
		b.log("starting petmock with %d pets", n)
		pm, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0", "--pets", strconv.Itoa(n))
		if err != nil {
			return pages{}, nil, err
		}
		deep, err := deepPage(pm.url, "sold")
		if err != nil {
			pm.stop()
			return pages{}, nil, err
		}
		var p pages
		if p.first, err = b.best(ctx, pm.url+"/pets?status=sold&limit=20", ""); err != nil {
			pm.stop()
			return pages{}, nil, err
		}
		if p.deep, err = b.best(ctx, deep, ""); err != nil {
			pm.stop()
			return pages{}, nil, err
		}
		return p, pm, nil
	}
	small, pm, err := measure(1_000)
	if err != nil {
		return nil, err
	}
	pm.stop()
	large, pm, err := measure(b.o.million)
	if err != nil {
		return nil, err
	}
	defer pm.stop()
	seeding := pm.ready
	rss, peak, err := pm.memory()
	if err != nil {
		return nil, err
	}

	var out []result
	for _, c := range []struct {
		name         string
		small, large load
	}{
		{"filtered first page (?status=sold&limit=20)", small.first, large.first},
		{"filtered page 90% deep into the pagination", small.deep, large.deep},
	} {
		cost := c.small.rps / c.large.rps // time per request, large over small
		out = append(out, result{
			target: c.name + ", " + strconv.Itoa(b.o.million) + " vs 1000 pets",
			measured: fmt.Sprintf("%.0f vs %.0f req/s, p50 %s vs %s, p99 %s vs %s: %.2fx the cost",
				c.large.rps, c.small.rps, c.large.p50, c.small.p50, c.large.p99, c.small.p99, cost),
			figure: cost,
			goal:   goal{cmp: atMost, bound: 1.5, unit: times},
		})
	}
	out = append(out,
		result{
			target:   fmt.Sprintf("resident memory with %d pets", b.o.million),
			measured: fmt.Sprintf("%d MB (peak %d MB)", rss>>20, peak>>20),
			figure:   float64(rss),
			goal:     goal{cmp: below, bound: 300 << 20, unit: megabytes},
		},
		result{
			target:   fmt.Sprintf("seeding %d pets, spawn to listening", b.o.million),
			measured: seeding.Round(time.Millisecond).String(),
			figure:   float64(seeding),
			goal:     goal{cmp: below, bound: float64(3 * time.Second), unit: duration},
		})
	return out, nil
}

// nextLink finds the next page in a Link header.
var nextLink = regexp.MustCompile(`<([^>]+)>; rel="next"`)

// deepPage walks the pages of one status and returns the URL of the page
// 90% of the way through, with a limit of 20.
func deepPage(base, status string) (string, error) {
	url := base + "/pets?limit=100&status=" + status
	var links []string
	for url != "" {
		a, err := answer("GET", url, "")
		if err != nil {
			return "", err
		}
		if a.Status != 200 {
			return "", fmt.Errorf("GET %s: %d", url, a.Status)
		}
		url = ""
		if m := nextLink.FindStringSubmatch(a.Header.Get("Link")); m != nil {
			url = m[1]
			links = append(links, url)
		}
	}
	if len(links) == 0 {
		return "", fmt.Errorf("%s: a single page of %s pets; the store is too small", base, status)
	}
	return strings.Replace(links[len(links)*9/10], "limit=100", "limit=20", 1), nil
}
