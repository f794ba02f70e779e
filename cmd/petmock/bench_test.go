package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// BenchmarkServeBesideStatic loads petmock, as it serves by default (the
// whole of serve: its HTTP server, connections, admin handler, journal and
// request log, written to a writer that keeps nothing, as to /dev/null),
// and beside it, in the same process, a bare net/http handler that writes
// the very answers petmock gave, as petbench's baseline does. Clients on
// keep-alive connections send the same request again and again, as wrk
// does. The ratio of the two ns/op of an operation is petmock's cost over
// the static handler's, the figure petbench measures with wrk:
//
//	go test ./cmd/petmock -run '^$' -bench ServeBesideStatic -count 6
//
// Clients and servers share the process's cores, as wrk and the server
// share the machine's, so that the cost of each request counts whoever
// pays it.
func BenchmarkServeBesideStatic(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, stopped := serveInProcess(b, ctx, "--addr", "127.0.0.1:0")
	defer func() { cancel(); <-stopped }()
	addr := strings.TrimPrefix(base, "http://")
	addr = addr[:strings.IndexByte(addr, '/')]
	auth := "Authorization: Bearer " + mockserver.DefaultAPIKey + "\r\n"
	const createBody = `{"name":"Load","categoryId":2,"status":"pending"}`
	requests := []struct{ name, raw string }{
		{"GET list", "GET /v1/pets?limit=20 HTTP/1.1\r\nHost: " + addr + "\r\n" + auth + "\r\n"},
		{"POST create", "POST /v1/pets HTTP/1.1\r\nHost: " + addr + "\r\n" + auth + "Content-Type: application/json\r\nContent-Length: " +
			strconv.Itoa(len(createBody)) + "\r\n\r\n" + createBody},
	}
	answers := make([]*http.Response, len(requests))
	bodies := make([][]byte, len(requests))
	for i, rq := range requests {
		answers[i], bodies[i] = exchange(b, addr, rq.raw)
	}
	static := staticServer(b, answers, bodies)
	defer static.Close()
	for i, rq := range requests {
		for _, srv := range []struct{ name, addr string }{{"static", static.Listener.Addr().String()}, {"petmock", addr}} {
			b.Run(rq.name+"/"+srv.name, func(b *testing.B) {
				raw := strings.Replace(rq.raw, "Host: "+addr, "Host: "+srv.addr, 1)
				load(b, srv.addr, raw, answers[i].StatusCode)
			})
		}
	}
}

// serveInProcess runs petmock's serve with args in this process, its
// standard error thrown away, and returns its base URL and a channel
// closed once it has stopped, after ctx is done.
func serveInProcess(tb testing.TB, ctx context.Context, args ...string) (string, <-chan struct{}) {
	tb.Helper()
	outR, outW := io.Pipe()
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		if err := run(ctx, args, env(), outW, io.Discard); err != nil {
			tb.Error(err)
		}
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		tb.Fatal(err)
	}
	go io.Copy(io.Discard, outR)
	return strings.Fields(line)[2], stopped
}

// exchange sends raw once on a connection of its own, and returns the
// answer and its body.
func exchange(tb testing.TB, addr, raw string) (*http.Response, []byte) {
	tb.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, raw); err != nil {
		tb.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		tb.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp, body
}

// staticServer serves the answers on a loopback port, as petbench's
// baseline does: the first for a GET, the second for a POST, each with
// its headers but Date, written without a look at the request but its
// method.
func staticServer(tb testing.TB, answers []*http.Response, bodies [][]byte) *staticListener {
	tb.Helper()
	type fixed struct {
		header http.Header
		body   []byte
		status int
	}
	fix := func(i int) fixed {
		h := answers[i].Header.Clone()
		h.Del("Date")
		h["Content-Length"] = []string{strconv.Itoa(len(bodies[i]))}
		return fixed{h, bodies[i], answers[i].StatusCode}
	}
	get, post := fix(0), fix(1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	hs := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f := get
		if r.Method == http.MethodPost {
			io.Copy(io.Discard, r.Body)
			f = post
		}
		h := w.Header()
		for k, v := range f.header {
			h[k] = v
		}
		w.WriteHeader(f.status)
		w.Write(f.body)
	})}
	go hs.Serve(ln)
	return &staticListener{Listener: ln, hs: hs}
}

// staticListener is the baseline's server.
type staticListener struct {
	net.Listener
	hs *http.Server
}

func (s *staticListener) Close() { s.hs.Close() }

// load sends raw over keep-alive connections, one for each goroutine of
// b.RunParallel (32 with two cores, as petbench's wrk opens), b.N times in all,
// each answer read whole and its status checked.
func load(b *testing.B, addr, raw string, status int) {
	b.SetParallelism(16)
	b.ReportAllocs()
	want := []byte("HTTP/1.1 " + strconv.Itoa(status) + " ")
	before := cpuTime()
	b.ResetTimer()
	defer func() { b.ReportMetric(float64((cpuTime()-before).Nanoseconds())/float64(b.N), "cpu-ns/op") }()
	b.RunParallel(func(pb *testing.PB) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			b.Error(err)
			return
		}
		defer c.Close()
		r := bufio.NewReaderSize(c, 16<<10)
		req := []byte(raw)
		for pb.Next() {
			if _, err := c.Write(req); err != nil {
				b.Error(err)
				return
			}
			if err := readAnswer(r, want); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// cpuTime returns the CPU time the process has spent, user and system:
// other work on a shared machine stretches the clock's time of a request
// far more than the CPU it costs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// readAnswer reads one answer from r, which must begin with want, and
// skips its body, of the length Content-Length gives.
func readAnswer(r *bufio.Reader, want []byte) error {
	first := true
	length := -1
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return err
		}
		if first {
			if !bytes.HasPrefix(line, want) {
				return fmt.Errorf("answered %q, want %q", line, want)
			}
			first = false
			continue
		}
		if len(line) <= 2 {
			break
		}
		if name, value, ok := bytes.Cut(line, []byte(":")); ok && strings.EqualFold(string(name), "Content-Length") {
			length, err = strconv.Atoi(string(bytes.TrimSpace(value)))
			if err != nil {
				return err
			}
		}
	}
	if length < 0 {
		return errors.New("an answer without Content-Length")
	}
	_, err := r.Discard(length)
	return err
}
