package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// staticCommand is the hidden subcommand that serves the baseline.
const staticCommand = "static"

// canned is an answer recorded from petmock, to be replayed.
type canned struct {
	Status int         `json:"status"`
	Header http.Header `json:"header"`
	Body   []byte      `json:"body"`
}

// staticHandler is the ceiling petmock is measured against: a bare
// net/http handler that writes fixed bytes, the very answers petmock gave,
// without looking at the request.
func staticHandler(get, post canned) http.Handler {
	prepare := func(c canned) (map[string][]string, []byte, int) {
		h := c.Header.Clone()
		h.Del("Date")
		h["Content-Length"] = []string{strconv.Itoa(len(c.Body))}
		return h, c.Body, c.Status
	}
	getHeader, getBody, getStatus := prepare(get)
	postHeader, postBody, postStatus := prepare(post)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		header, body, status := getHeader, getBody, getStatus
		if r.Method == http.MethodPost {
			io.Copy(io.Discard, r.Body)
			header, body, status = postHeader, postBody, postStatus
		}
		h := w.Header()
		for k, v := range header {
			h[k] = v
		}
		w.WriteHeader(status)
		w.Write(body)
	})
}

// bareCreateHandler is what any create must do and no more, to read the
// static handler's ceiling by: it answers a GET as the static handler does,
// and a POST by decoding the body to values, giving it the next id, keeping
// it and encoding it, with post's headers and a Location of that id. It
// checks nothing a document says; a body that is no JSON object is a 400.
func bareCreateHandler(get, post canned) http.Handler {
	static := staticHandler(get, post)
	header := post.Header.Clone()
	header.Del("Date")
	location := header.Get("Location")
	location = location[:strings.LastIndexByte(location, '/')+1]
	var (
		mu   sync.Mutex
		next int64
		kept = map[int64]map[string]any{}
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			static.ServeHTTP(w, r)
			return
		}
		var item map[string]any
		data, err := io.ReadAll(r.Body)
		if err == nil {
			err = json.Unmarshal(data, &item)
		}
		if err != nil || item == nil {
			http.Error(w, "the body is no JSON object", http.StatusBadRequest)
			return
		}
		mu.Lock()
		next++
		id := next
		item["id"] = id
		kept[id] = item
		mu.Unlock()
		body, _ := json.Marshal(item)
		h := w.Header()
		for k, v := range header {
			h[k] = v
		}
		h["Location"] = []string{location + strconv.FormatInt(id, 10)}
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
		w.WriteHeader(post.Status)
		w.Write(body)
	})
}

// serveStatic runs the baseline: petbench static --answers FILE, and with
// --create the bare create instead. It prints its address on one line, then
// serves until ctx is done.
func serveStatic(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet(staticCommand, flag.ContinueOnError)
	answers := fs.String("answers", "", "JSON `file` with the answers to replay")
	create := fs.Bool("create", false, "serve POST as a bare create, not the canned answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	data, err := os.ReadFile(*answers)
	if err != nil {
		return err
	}
	var c struct{ Get, Post canned }
	if err := json.Unmarshal(data, &c); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "static serving http://%s/v1\n", ln.Addr())
	h := staticHandler(c.Get, c.Post)
	if *create {
		h = bareCreateHandler(c.Get, c.Post)
	}
	return serveUntilDone(ctx, ln, h)
}

// serveUntilDone serves h on ln until ctx is done, then shuts the server
// down, as the baseline and the reverse proxy petbench runs of itself do.
func serveUntilDone(ctx context.Context, ln net.Listener, h http.Handler) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
