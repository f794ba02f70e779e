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

// serveStatic runs the baseline: petbench static --answers FILE. It prints
// its address on one line, then serves until ctx is done.
func serveStatic(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet(staticCommand, flag.ContinueOnError)
	answers := fs.String("answers", "", "JSON `file` with the answers to replay")
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
	return serveUntilDone(ctx, ln, staticHandler(c.Get, c.Post))
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
