//go:build soak

package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// TestSoakControlPlane replays the attack kit's probes of the control
// plane against the petmock binary, started with 256 descriptors: pages of
// other origins, with the published key, preflights and requests alike;
// names a page could rebind to petmock's address; and more event streams
// than the descriptors allow. None may be let in, and health and the API
// must answer throughout.
func TestSoakControlPlane(t *testing.T) {
	p := startLimited(t, 256)
	root := strings.TrimSuffix(p.url, "/v1")
	until := soakUntil()
	client := &http.Client{Timeout: 10 * time.Second}

	origins := []string{"http://evil.example", "null", "http://127.0.0.1:1", "http://localhost:5173", "https://" + strings.TrimPrefix(root, "http://")}
	targets := []struct{ method, name string }{
		{"PATCH", "settings"}, {"GET", "requests"}, {"DELETE", "requests"}, {"GET", "events"}, {"POST", "reset"}, {"PUT", "fixture"}, {"GET", ""},
	}
	var crossSent, crossLetIn int
	hosts := []string{"evil.example", "rebind.attacker.test:4010", "127.0.0.1.nip.io", "localhost.evil.example", "petmock", "0x7f000001"}
	var hostsSent, hostsLetIn int
	for round := 0; round == 0 || time.Now().Before(until) && round < 50; round++ {
		for _, origin := range origins {
			for _, tg := range targets {
				for _, preflight := range []bool{true, false} {
					method := tg.method
					if preflight {
						method = "OPTIONS"
					}
					req, _ := http.NewRequest(method, root+"/__petmock/"+tg.name, strings.NewReader(`{"failRate":1}`))
					req.Header.Set("Origin", origin)
					if preflight {
						req.Header.Set("Access-Control-Request-Method", tg.method)
						req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
					} else {
						req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
						req.Header.Set("Content-Type", "application/json")
					}
					resp, err := client.Do(req)
					if err != nil {
						t.Fatalf("%s /__petmock/%s from %s: %v", method, tg.name, origin, err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					crossSent++
					letIn := resp.StatusCode < 400 || resp.Header.Get("Access-Control-Allow-Origin") != "" || resp.Header.Get("Access-Control-Allow-Methods") != ""
					if letIn {
						crossLetIn++
						t.Errorf("%s /__petmock/%s from %s: %d, Allow-Origin %q", method, tg.name, origin, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
					}
				}
			}
		}
		for _, host := range hosts {
			for _, tg := range targets {
				req, _ := http.NewRequest(tg.method, root+"/__petmock/"+tg.name, strings.NewReader(`{"failRate":1}`))
				req.Host = host
				req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					t.Fatalf("%s /__petmock/%s with Host %s: %v", tg.method, tg.name, host, err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				hostsSent++
				if resp.StatusCode != http.StatusMisdirectedRequest {
					hostsLetIn++
					t.Errorf("%s /__petmock/%s with Host %s: %d, want 421", tg.method, tg.name, host, resp.StatusCode)
				}
			}
		}
	}
	t.Logf("cross-origin probes: %d sent, %d let in; rebinding probes: %d sent, %d let in", crossSent, crossLetIn, hostsSent, hostsLetIn)
	if status, body := get(t, "GET", root+"/__petmock/settings", ""); status != 200 || !strings.Contains(body, `"failRate":0,`) {
		t.Errorf("after the probes, settings: %d %s, want the fail rate untouched", status, body)
	}

	// Streams from eight clients, more than the cap allows.
	var open, refused, other atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var bodies sync.Mutex
	var held []io.Closer
	for c := 1; c <= 8; c++ {
		cl := clientAt("127.0.0." + string(rune('0'+c)))
		for range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequestWithContext(ctx, "GET", root+"/__petmock/events", nil)
				req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
				resp, err := cl.Do(req)
				switch {
				case err != nil:
					other.Add(1)
				case resp.StatusCode == 200:
					open.Add(1)
					bodies.Lock()
					held = append(held, resp.Body)
					bodies.Unlock()
				case resp.StatusCode == 503 && resp.Header.Get("Retry-After") != "":
					refused.Add(1)
					resp.Body.Close()
				default:
					other.Add(1)
					resp.Body.Close()
				}
			}()
		}
	}
	wg.Wait()
	start := time.Now()
	healthStatus, _ := get(t, "GET", root+"/__petmock/health", "")
	healthTook := time.Since(start)
	start = time.Now()
	apiStatus, _ := get(t, "GET", p.url+"/pets?limit=5", "")
	apiTook := time.Since(start)
	t.Logf("event streams at 256 descriptors: %d asked, %d open, %d refused with 503, %d other; then health %d in %s, the API %d in %s",
		320, open.Load(), refused.Load(), other.Load(), healthStatus, healthTook.Round(time.Microsecond), apiStatus, apiTook.Round(time.Microsecond))
	all, _ := streamCaps(256, true)
	if open.Load() != int64(all) || other.Load() != 0 || healthStatus != 200 || apiStatus != 200 {
		t.Errorf("streams: %d open, want the cap of %d; %d neither open nor refused; health %d, API %d", open.Load(), all, other.Load(), healthStatus, apiStatus)
	}
	cancel()
	for _, b := range held {
		b.Close()
	}
	alive(t, p)
}

// clientAt returns a client whose connections come from the loopback
// address ip.
func clientAt(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// startLimited starts the petmock binary with at most limit open files.
func startLimited(t *testing.T, limit int) *binary {
	t.Helper()
	cmd := exec.Command("sh", "-c", `ulimit -n "$0" && exec "$@"`, strconv.Itoa(limit), petmockBinary(t), "--addr", "127.0.0.1:0", "--pets", "10")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	b := &binary{cmd: cmd, stderr: &strings.Builder{}}
	cmd.Stderr = b.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no start line: %v", err)
	}
	go io.Copy(io.Discard, stdout)
	b.url = strings.Fields(line)[2]
	return b
}
