package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
)

// reverseCommand is the hidden subcommand that serves the proxy's
// baseline.
const reverseCommand = "reverse"

// reverseHandler is the ceiling petmock --proxy is measured against: the
// standard library's reverse proxy, which forwards each request to the
// backend and copies its answer, checking nothing.
func reverseHandler(backend *url.URL) http.Handler {
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: backend.Scheme, Host: backend.Host})
	// As many connections to the backend kept open as petmock keeps.
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = 256, 256
	rp.Transport = t
	return rp
}

// serveReverse runs the baseline: petbench reverse --to URL. It prints
// its base URL, that of the backend's path, on one line, then serves until
// ctx is done.
func serveReverse(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet(reverseCommand, flag.ContinueOnError)
	to := fs.String("to", "", "the backend's base `URL`, such as http://127.0.0.1:4010/v1")
	if err := fs.Parse(args); err != nil {
		return err
	}
	backend, err := url.Parse(*to)
	if err != nil || backend.Host == "" {
		return fmt.Errorf("--to %q: want the backend's base URL", *to)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "reverse serving http://%s%s\n", ln.Addr(), backend.Path)
	return serveUntilDone(ctx, ln, reverseHandler(backend))
}
