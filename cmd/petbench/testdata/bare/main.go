// Command bare is the start-up baseline of petbench: a net/http server
// that answers every request with an empty JSON array, and nothing else,
// started as petmock is and printing its URL as petmock does.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("bare serving http://" + ln.Addr().String() + "/v1")
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]\n"))
	}))
}
