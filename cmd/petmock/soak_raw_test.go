//go:build soak

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
)

// rawSeeds are requests the raw fuzzer mutates.
var rawSeeds = []string{
	"GET /v1/pets?limit=5&status=sold HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer KEY\r\n\r\n",
	"GET /v1/pets/3 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer KEY\r\nPrefer: code=404\r\n\r\n",
	"POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer KEY\r\nContent-Type: application/json\r\nContent-Length: 29\r\n\r\n{\"name\":\"Rex\",\"categoryId\":1}",
	"POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer KEY\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1d\r\n{\"name\":\"Rex\",\"categoryId\":1}\r\n0\r\n\r\n",
	"GET /__petmock/requests?limit=3 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer KEY\r\n\r\n",
	"PUT /__petmock/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer KEY\r\nContent-Type: application/json\r\nContent-Length: 41\r\n\r\n[{\"id\":1,\"name\":\"Rex\",\"categoryId\":1}]   ",
	"OPTIONS /v1/pets HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost:5173\r\nAccess-Control-Request-Method: POST\r\n\r\n",
}

// mutate changes a few bytes of seed: flips, insertions of bytes that
// parsers trip on, deletions, cuts and repeats.
func mutate(rnd *rand.Rand, seed string) []byte {
	b := []byte(strings.ReplaceAll(seed, "KEY", mockserver.DefaultAPIKey))
	tricky := []byte("\r\n\x00 :;%&=?/\\\"{}[],\x7f\xff")
	for range 1 + rnd.IntN(4) {
		if len(b) == 0 {
			break
		}
		i := rnd.IntN(len(b))
		switch rnd.IntN(5) {
		case 0:
			b[i] ^= byte(1 << rnd.IntN(8))
		case 1:
			b = append(b[:i], append([]byte{tricky[rnd.IntN(len(tricky))]}, b[i:]...)...)
		case 2:
			b = append(b[:i], b[i+1:]...)
		case 3:
			b = b[:i]
		case 4:
			j := min(len(b), i+1+rnd.IntN(16))
			b = append(b[:j], append(bytes.Clone(b[i:j]), b[j:]...)...)
		}
	}
	return b
}

// TestSoakRawFuzz sends mutated raw requests, each on its own connection,
// for the soak time. Whatever comes back must be HTTP; every error an
// Error body of its status; nothing a 500; and petmock must live on.
func TestSoakRawFuzz(t *testing.T) {
	p := startBinary(t, "--pets", "20")
	host := strings.TrimPrefix(strings.TrimSuffix(p.url, "/v1"), "http://")
	until := soakUntil()
	var sent, answered atomic.Int64
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(w), 7))
			for time.Now().Before(until) {
				raw := mutate(rnd, rawSeeds[rnd.IntN(len(rawSeeds))])
				conn, err := net.Dial("tcp", host)
				if err != nil {
					t.Errorf("dial: %v", err)
					return
				}
				conn.Write(raw)
				conn.(*net.TCPConn).CloseWrite()
				conn.SetReadDeadline(time.Now().Add(30 * time.Second))
				got, _ := io.ReadAll(conn)
				conn.Close()
				sent.Add(1)
				if len(got) == 0 {
					continue
				}
				answered.Add(1)
				if msg := checkRawAnswer(got); msg != "" {
					t.Errorf("%q: %s:\n%q", raw, msg, got)
				}
			}
		})
	}
	wg.Wait()
	alive(t, p)
	if status, body := get(t, "GET", strings.TrimSuffix(p.url, "/v1")+"/__petmock/health", ""); status != 200 {
		t.Errorf("health after the fuzzer: %d %s", status, body)
	}
	t.Logf("%d mutated requests sent, %d answered", sent.Load(), answered.Load())
}

// checkRawAnswer says what is wrong with the answers on a connection, or
// returns "".
func checkRawAnswer(got []byte) string {
	r := bufio.NewReader(bytes.NewReader(got))
	for {
		if _, err := r.Peek(1); err == io.EOF {
			return ""
		}
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			return "not HTTP: " + err.Error()
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return "a body cut short: " + err.Error()
		}
		switch {
		case resp.StatusCode == http.StatusContinue:
			continue
		case resp.StatusCode == http.StatusInternalServerError:
			return "an internal error"
		case resp.StatusCode >= 400:
			var e edge.Error
			if resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &e) != nil || e.Status != resp.StatusCode || e.Code == "" {
				return "an error that is not an Error body of its status"
			}
		}
	}
}

// TestSoakFlood holds hundreds of connections that trickle their headers,
// and sends garbage on hundreds more, for the soak time, while a client
// checks health: every health check must be answered, and petmock must
// live on.
func TestSoakFlood(t *testing.T) {
	p := startBinary(t, "--pets", "20")
	host := strings.TrimPrefix(strings.TrimSuffix(p.url, "/v1"), "http://")
	until := soakUntil()
	var wg sync.WaitGroup
	var held atomic.Int64
	for range 300 {
		wg.Go(func() {
			for time.Now().Before(until) {
				conn, err := net.Dial("tcp", host)
				if err != nil {
					continue // the backlog is full: that is the flood
				}
				held.Add(1)
				io.WriteString(conn, "GET /v1/pets HTTP/1.1\r\nHost: localhost\r\n")
				for time.Now().Before(until) {
					if _, err := io.WriteString(conn, "X-Slow: a\r\n"); err != nil {
						break // cut by the header timeout
					}
					time.Sleep(time.Second)
				}
				conn.Close()
			}
		})
	}
	for range 50 {
		wg.Go(func() {
			junk := bytes.Repeat([]byte("\x00GARBAGE\r\n"), 1000)
			for time.Now().Before(until) {
				conn, err := net.Dial("tcp", host)
				if err != nil {
					continue
				}
				conn.Write(junk)
				conn.SetReadDeadline(time.Now().Add(5 * time.Second))
				io.Copy(io.Discard, conn)
				conn.Close()
			}
		})
	}
	checks := 0
	client := &http.Client{Timeout: 15 * time.Second}
	for time.Now().Before(until) {
		resp, err := client.Get(strings.TrimSuffix(p.url, "/v1") + "/__petmock/health")
		if err != nil {
			t.Errorf("health during the flood: %v", err)
			break
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("health during the flood: %d", resp.StatusCode)
		}
		checks++
		time.Sleep(200 * time.Millisecond)
	}
	wg.Wait()
	alive(t, p)
	t.Logf("%d slow connections held, %d health checks answered; peak memory %d MiB", held.Load(), checks, peakMemory(t, p.cmd.Process.Pid)>>20)
}
