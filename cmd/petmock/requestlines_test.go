package main

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestRequestLinesAreTheTextHandlers holds every line requestLines writes
// to the very bytes slog's text handler writes of the same record: lines
// of the request log of every kind of method, path, status and duration,
// in two time zones, lines with more than the request log's attributes,
// other records, and records of strings the text handler quotes, which
// requestLines hands it.
func TestRequestLinesAreTheTextHandlers(t *testing.T) {
	paths := []string{"/v1/pets", "/v1/pets/7", "/", "/a;jsessionid=[redacted]", "/v1/pets/a%20b", "/v1/x=y", "/v1/a b",
		`/v1/"q"`, `/v1/back\slash`, "/v1/caf\u00e9", "/v1/tab\there", "", "/v1/~user/(1),2;3!*'$&+:@", "/v1/<>?#[]{}|^`"}
	methods := []string{"GET", "POST", "DELETE", "PATCH", "OPTIONS", "M=1", "", "G T"}
	durations := []time.Duration{0, 1, 999, 1500, 35092 * time.Nanosecond, 2 * time.Millisecond, 1234567890, time.Hour + time.Second}
	zones := []*time.Location{time.UTC, time.FixedZone("east", 5*3600+1800), time.FixedZone("west", -8*3600)}
	rng := rand.New(rand.NewPCG(1, 2))
	var records []slog.Record
	for i := range 2000 {
		at := time.Unix(1_800_000_000+rng.Int64N(1e8), rng.Int64N(1e9)).In(zones[i%len(zones)])
		r := slog.NewRecord(at, slog.LevelInfo, "request", 0)
		r.AddAttrs(
			slog.String("method", methods[rng.IntN(len(methods))]),
			slog.String("path", paths[rng.IntN(len(paths))]),
			slog.Int("status", []int{200, 201, 404, 503, 0, -1}[rng.IntN(6)]),
			slog.Duration("duration", durations[rng.IntN(len(durations))]+time.Duration(rng.Int64N(1e6))),
		)
		switch i % 10 {
		case 7:
			r.AddAttrs(slog.String("fault", "reset"))
		case 8:
			r.Message = "recorded"
		case 9:
			r.Level = slog.LevelWarn
		}
		records = append(records, r)
	}
	fast := 0
	for _, r := range records {
		var want, got bytes.Buffer
		if err := slog.NewTextHandler(&want, nil).Handle(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		if err := newRequestLines(&got).Handle(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("wrote\n%q\nwant\n%q", got.String(), want.String())
		}
		if _, ok := appendRequestLine(nil, r); ok {
			fast++
		}
		if r.Message == "request" && r.Level == slog.LevelInfo && r.NumAttrs() == len(requestKeys) {
			// The same line, handed to the handler without a record.
			var attrs []slog.Value
			r.Attrs(func(a slog.Attr) bool { attrs = append(attrs, a.Value); return true })
			var direct bytes.Buffer
			ok := newRequestLines(&direct).(requestLines).WriteRequestLine(r.Time, attrs[0].String(), attrs[1].String(), int(attrs[2].Int64()), attrs[3].Duration())
			if _, fastToo := appendRequestLine(nil, r); ok != fastToo || ok && direct.String() != want.String() {
				t.Fatalf("WriteRequestLine wrote %q (%v), want %q (%v)", direct.String(), ok, want.String(), fastToo)
			}
		}
	}
	typical := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
	typical.AddAttrs(slog.String("method", "GET"), slog.String("path", "/v1/pets"), slog.Int("status", 200), slog.Duration("duration", time.Millisecond))
	if _, ok := appendRequestLine(nil, typical); !ok || fast < len(records)/10 {
		t.Errorf("%d of %d lines, and a GET of /v1/pets: %v, written by requestLines itself", fast, len(records), ok)
	}
}

// TestRequestLinesWithAttrs holds a logger of requestLines with
// attributes or a group to write as the text handler does.
func TestRequestLinesWithAttrs(t *testing.T) {
	var want, got bytes.Buffer
	at := time.Date(2031, 1, 2, 3, 4, 5, 6e6, time.UTC)
	for _, h := range []struct {
		h   slog.Handler
		out *bytes.Buffer
	}{{slog.NewTextHandler(&want, nil), &want}, {newRequestLines(&got), &got}} {
		l := slog.New(h.h).With("server", "a").WithGroup("g")
		r := slog.NewRecord(at, slog.LevelInfo, "request", 0)
		r.AddAttrs(slog.String("method", "GET"), slog.String("path", "/v1/pets"), slog.Int("status", 200), slog.Duration("duration", time.Millisecond))
		l.Handler().Handle(context.Background(), r)
		if !l.Enabled(context.Background(), slog.LevelInfo) || l.Enabled(context.Background(), slog.LevelDebug) {
			t.Error("requestLines is enabled at other levels than the text handler")
		}
	}
	if got.String() != want.String() || !strings.Contains(got.String(), "g.method=GET") {
		t.Errorf("wrote %q, want %q", got.String(), want.String())
	}
}

// BenchmarkRequestLine writes a line of the request log with slog's text
// handler and with requestLines:
//
//	go test ./cmd/petmock -run '^$' -bench RequestLine -benchmem
func BenchmarkRequestLine(b *testing.B) {
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("method", "GET"), slog.String("path", "/v1/pets"), slog.Int("status", 200), slog.Duration("duration", 35092*time.Nanosecond))
	for _, h := range []struct {
		name string
		h    slog.Handler
	}{{"text", slog.NewTextHandler(discard{}, nil)}, {"requestLines", newRequestLines(discard{})}} {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				h.h.Handle(context.Background(), r)
			}
		})
	}
}
