package mockserver_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
)

// listenedServer serves srv as petmock does, on the connections of a
// server's Listener, and returns its base URL, ending in /v1.
func listenedServer(tb testing.TB, srv *mockserver.Server) string {
	tb.Helper()
	hs := httptest.NewUnstartedServer(srv)
	hs.Listener = srv.Listener(hs.Listener, edge.WireLimits{})
	hs.Start()
	tb.Cleanup(hs.Close)
	return hs.URL + "/v1"
}

// freshClient is a client on a connection of its own for each request:
// on a connection it reused, net/http sends an idempotent request again
// when the first try meets a closed connection, as browsers do too, and
// would hide the fault from the test.
func freshClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, Transport: &http.Transport{DisableKeepAlives: true}}
}

// faultRequest sends a request with the key through a fresh client.
func faultRequest(tb testing.TB, client *http.Client, method, url, body string) (*http.Response, error) {
	tb.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return client.Do(req)
}

// TestFaultsReachARealClient forces each fault but slow on a write, and
// checks what net/http's client reads, that the write was not made, and
// that the journal names the fault.
func TestFaultsReachARealClient(t *testing.T) {
	for _, tt := range []struct {
		fault steer.Fault
		// sees checks what the client got: the error of the request, or
		// the response and the error of reading its body.
		sees   func(resp *http.Response, err error, readErr error) string
		status int // the journal's
	}{
		{steer.FaultReset, func(_ *http.Response, err, _ error) string {
			if !errors.Is(err, syscall.ECONNRESET) {
				return "want ECONNRESET, got " + errorText(err)
			}
			return ""
		}, 0},
		{steer.FaultEmpty, func(_ *http.Response, err, _ error) string {
			if !errors.Is(err, io.EOF) {
				return "want EOF before any answer, got " + errorText(err)
			}
			return ""
		}, 0},
		{steer.FaultMalformedChunk, func(resp *http.Response, err, readErr error) string {
			switch {
			case err != nil:
				return "want a head, got " + err.Error()
			case resp.StatusCode != 503:
				return "a write's head claims " + resp.Status + "; want 503, which no client takes for a write made"
			case readErr == nil || !strings.Contains(readErr.Error(), "chunk"):
				return "want a chunk parse error reading the body, got " + errorText(readErr)
			}
			return ""
		}, 503},
		{steer.FaultRandomData, func(_ *http.Response, err, _ error) string {
			if err == nil || !strings.Contains(err.Error(), "malformed HTTP") {
				return "want a malformed answer, got " + errorText(err)
			}
			return ""
		}, 0},
	} {
		t.Run(string(tt.fault), func(t *testing.T) {
			srv, err := mockserver.New(mockserver.Config{Items: items([]Pet{{ID: 1, Name: "Rex", CategoryID: 1}})})
			if err != nil {
				t.Fatal(err)
			}
			url := listenedServer(t, srv)
			if err := srv.Steering().ForceAnswer(steer.ForcedAnswer{Fault: tt.fault, Remaining: 1, Operation: "createPet"}); err != nil {
				t.Fatal(err)
			}
			resp, err := faultRequest(t, freshClient(10*time.Second), "POST", url+"/pets", `{"name":"Toto","categoryId":2}`)
			var readErr error
			if err == nil {
				_, readErr = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			if problem := tt.sees(resp, err, readErr); problem != "" {
				t.Errorf("POST /v1/pets meeting %s: %s", tt.fault, problem)
			}
			if n := srv.Items().Store("pets").Len(); n != 1 {
				t.Errorf("POST /v1/pets meeting %s: %d pets stored, want 1: a fault means the request was not processed", tt.fault, n)
			}
			j := journaled(t, srv, "POST", "/v1/pets")
			if len(j) != 1 || j[0].Fault != string(tt.fault) || j[0].Status != tt.status {
				t.Errorf("journal after %s: %+v, want the fault named, status %d", tt.fault, j, tt.status)
			}
			// The next request is processed as usual.
			resp, err = faultRequest(t, freshClient(10*time.Second), "POST", url+"/pets", `{"name":"Toto","categoryId":2}`)
			if err != nil || resp.StatusCode != 201 {
				t.Fatalf("POST /v1/pets after the fault: %v %v, want 201", resp, err)
			}
			resp.Body.Close()
			if n := srv.Items().Store("pets").Len(); n != 2 {
				t.Errorf("after the fault: %d pets stored, want 2", n)
			}
		})
	}
}

// journaled returns the last exchange of the journal once it is one of
// method and path: a client may see an answer, or a fault, before the
// server is done with the request.
func journaled(tb testing.TB, srv *mockserver.Server, method, path string) []journal.Exchange {
	tb.Helper()
	sub := srv.Subscribe()
	defer sub.Close()
	deadline := time.After(10 * time.Second)
	for {
		j := srv.Journal().Recent(1)
		if len(j) == 1 && j[0].Method == method && j[0].Path == path {
			return j
		}
		select {
		case <-sub.Changed():
		case <-deadline:
			tb.Fatalf("%s %s was not journaled; the last exchange is %+v", method, path, j)
		}
	}
}

func errorText(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// TestFaultsAfterALargeBody: an empty reply or a malformed chunk to a
// request whose large body petmock had not read yet is still that, and
// not the reset the kernel sends when a connection is closed on unread
// bytes.
func TestFaultsAfterALargeBody(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	url := listenedServer(t, srv)
	body := `{"name":"` + strings.Repeat("n", 900<<10) + `","categoryId":1}`
	for _, fault := range []steer.Fault{steer.FaultEmpty, steer.FaultMalformedChunk} {
		if err := srv.Steering().ForceAnswer(steer.ForcedAnswer{Fault: fault, Remaining: 1}); err != nil {
			t.Fatal(err)
		}
		resp, err := faultRequest(t, freshClient(10*time.Second), "POST", url+"/pets", body)
		switch {
		case fault == steer.FaultEmpty && !errors.Is(err, io.EOF):
			t.Errorf("POST /v1/pets of 900 KiB meeting empty: %v, want EOF", err)
		case fault == steer.FaultMalformedChunk && err != nil:
			t.Errorf("POST /v1/pets of 900 KiB meeting malformed-chunk: %v, want the head", err)
		case err == nil:
			resp.Body.Close()
		}
	}
}

// TestResetOfARead checks that a read, whose request leaves nothing
// unread that would make the kernel reset the connection anyway, is reset.
func TestResetOfARead(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	url := listenedServer(t, srv)
	if err := srv.Steering().ForceAnswer(steer.ForcedAnswer{Fault: steer.FaultReset, Remaining: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := faultRequest(t, freshClient(10*time.Second), "GET", url+"/pets", ""); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("GET /v1/pets meeting reset: %v, want ECONNRESET", err)
	}
}

// TestMalformedChunkOfARead checks that a read meets a malformed chunk
// under its own success status, and that a browser page could read it:
// the head has the CORS headers.
func TestMalformedChunkOfARead(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	url := listenedServer(t, srv)
	if err := srv.Steering().ForceAnswer(steer.ForcedAnswer{Fault: steer.FaultMalformedChunk, Remaining: 1}); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", url+"/pets", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Origin", "http://localhost:5173")
	resp, err := freshClient(10 * time.Second).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, readErr := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") == "" || readErr == nil {
		t.Errorf("GET /v1/pets meeting malformed-chunk: %s with CORS %q and read error %v; want 200, CORS, and a read error",
			resp.Status, resp.Header.Get("Access-Control-Allow-Origin"), readErr)
	}
}

// TestSlowBodyIsSlowButWhole checks that a slow answer's head comes at
// once and its body slowly: a client with a timeout gets the head and
// times out on the body; a patient one gets the whole body, as it is
// without the fault, and a write is made and answered.
func TestSlowBodyIsSlowButWhole(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	url := listenedServer(t, srv)

	// 100 pets take some 7 KB: at 100 bytes a second, over a minute.
	if err := srv.Steering().ForceAnswer(steer.ForcedAnswer{Fault: steer.FaultSlow, Remaining: 1, BytesPerSecond: 100}); err != nil {
		t.Fatal(err)
	}
	resp, err := faultRequest(t, freshClient(3*time.Second), "GET", url+"/pets?limit=100", "")
	if err != nil {
		t.Fatalf("GET /v1/pets?limit=100, slow: no head: %v", err)
	}
	got, readErr := io.ReadAll(resp.Body)
	resp.Body.Close()
	var ne net.Error
	if resp.StatusCode != 200 || !errors.As(readErr, &ne) || !ne.Timeout() {
		t.Errorf("GET /v1/pets?limit=100, slow, with a client timeout: %s, %d bytes, read error %v; want 200 and a timeout reading the body",
			resp.Status, len(got), readErr)
	}
	if len(got) >= 7000 {
		t.Errorf("slow body: the whole body (%d bytes) came within the client's timeout", len(got))
	}

	want, err := faultRequest(t, freshClient(10*time.Second), "GET", url+"/pets/1", "")
	if err != nil {
		t.Fatal(err)
	}
	wantBody, _ := io.ReadAll(want.Body)
	want.Body.Close()
	if err := srv.Steering().ForceAnswer(steer.ForcedAnswer{Fault: steer.FaultSlow, Remaining: 1, BytesPerSecond: 400}); err != nil {
		t.Fatal(err)
	}
	resp, err = faultRequest(t, freshClient(time.Minute), "GET", url+"/pets/1", "")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !bytes.Equal(body, wantBody) {
		t.Errorf("GET /v1/pets/1, slow: %q, %v; want the body it has without the fault, %q", body, err, wantBody)
	}
	before := srv.Items().Store("pets").Len()
	if err := srv.Steering().ForceAnswer(steer.ForcedAnswer{Fault: steer.FaultSlow, Remaining: 1, BytesPerSecond: 400, Operation: "createPet"}); err != nil {
		t.Fatal(err)
	}
	resp, err = faultRequest(t, freshClient(time.Minute), "POST", url+"/pets", `{"name":"Slow","categoryId":1}`)
	if err != nil {
		t.Fatal(err)
	}
	body, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 201 || !bytes.Contains(body, []byte(`"name":"Slow"`)) || srv.Items().Store("pets").Len() != before+1 {
		t.Errorf("POST /v1/pets, slow: %d %s, %v; want 201 with the pet, and the pet stored: a slow answer is processed", resp.StatusCode, body, err)
	}
	if j := journaled(t, srv, "POST", "/v1/pets"); len(j) != 1 || j[0].Fault != string(steer.FaultSlow) || j[0].Status != 201 {
		t.Errorf("journal after a slow answer: %+v, want the fault named, status 201", j)
	}
}

// TestRandomDataRepeatsBySeed: the bytes of random-data are drawn from
// the seed, so that a run repeats, and they are not the same from one
// request to the next.
func TestRandomDataRepeatsBySeed(t *testing.T) {
	received := func(seed uint64) [2][]byte {
		srv, err := mockserver.New(mockserver.Config{ChaosSeed: seed})
		if err != nil {
			t.Fatal(err)
		}
		addr := strings.TrimPrefix(strings.TrimSuffix(listenedServer(t, srv), "/v1"), "http://")
		var got [2][]byte
		for i := range got {
			if err := srv.Steering().ForceAnswer(steer.ForcedAnswer{Fault: steer.FaultRandomData, Remaining: 1}); err != nil {
				t.Fatal(err)
			}
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			io.WriteString(conn, "GET /v1/pets HTTP/1.1\r\nHost: petmock\r\nAuthorization: Bearer "+key+"\r\n\r\n")
			got[i], err = io.ReadAll(conn)
			conn.Close()
			if err != nil || len(got[i]) == 0 || bytes.HasPrefix(got[i], []byte("HTTP/")) {
				t.Fatalf("GET /v1/pets meeting random-data: %q, %v; want bytes that are no HTTP answer, then the end", got[i], err)
			}
		}
		return got
	}
	a, b := received(3), received(3)
	if !bytes.Equal(a[0], b[0]) || !bytes.Equal(a[1], b[1]) {
		t.Errorf("random-data with seed 3: the bytes differ between runs")
	}
	if bytes.Equal(a[0], a[1]) {
		t.Errorf("random-data: the same bytes for two requests")
	}
}

// TestDribbleComesInChunks reads a dribbled answer off the wire: its
// head at once, then its body in the number of chunks asked for, each of
// HTTP's chunked encoding, the last no sooner than the duration; whole,
// and of a request that was processed.
func TestDribbleComesInChunks(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimPrefix(strings.TrimSuffix(listenedServer(t, srv), "/v1"), "http://")
	plain, err := faultRequest(t, freshClient(10*time.Second), "GET", "http://"+addr+"/v1/pets?limit=10", "")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(plain.Body)
	plain.Body.Close()

	for _, tt := range []struct {
		chunks   int
		duration time.Duration
		method   string
		target   string
		body     string
		status   string
	}{
		{4, 400 * time.Millisecond, "GET", "/v1/pets?limit=10", "", "200"},
		{3, 300 * time.Millisecond, "POST", "/v1/pets", `{"name":"Drip","categoryId":1}`, "201"},
	} {
		before := srv.Items().Store("pets").Len()
		if err := srv.Steering().ForceAnswer(steer.ForcedAnswer{Fault: steer.FaultDribble, Remaining: 1, Chunks: tt.chunks, Duration: tt.duration.String()}); err != nil {
			t.Fatal(err)
		}
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(20 * time.Second))
		req := tt.method + " " + tt.target + " HTTP/1.1\r\nHost: petmock\r\nConnection: close\r\nAuthorization: Bearer " + key + "\r\n"
		if tt.body != "" {
			req += "Content-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(tt.body)) + "\r\n"
		}
		io.WriteString(conn, req+"\r\n"+tt.body)
		r := bufio.NewReader(conn)
		head, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("%s %s, dribbled: %v", tt.method, tt.target, err)
		}
		headed := time.Now()
		if !strings.HasPrefix(head.Status, tt.status) || head.TransferEncoding == nil {
			t.Errorf("%s %s, dribbled: %s, %v; want %s, chunked", tt.method, tt.target, head.Status, head.TransferEncoding, tt.status)
		}
		// net/http has read the head and left the chunks to its body:
		// read them as they come, one size line and its data at a time.
		var got []byte
		var chunks int
		var last time.Time
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("reading a chunk's size: %v after %d chunks", err, chunks)
			}
			n, err := strconv.ParseInt(strings.TrimSpace(line), 16, 64)
			if err != nil {
				t.Fatalf("a chunk's size %q: %v", line, err)
			}
			if n == 0 {
				break
			}
			data := make([]byte, n+2)
			if _, err := io.ReadFull(r, data); err != nil {
				t.Fatal(err)
			}
			got = append(got, data[:n]...)
			chunks++
			last = time.Now()
		}
		conn.Close()
		if chunks != tt.chunks {
			t.Errorf("%s %s, dribbled in %d: %d chunks came", tt.method, tt.target, tt.chunks, chunks)
		}
		if took := last.Sub(headed); took < tt.duration/time.Duration(tt.chunks)*time.Duration(tt.chunks-1) {
			t.Errorf("%s %s, dribbled over %s: the last chunk came %s after the head", tt.method, tt.target, tt.duration, took)
		}
		if tt.method == "GET" && !bytes.Equal(got, want) {
			t.Errorf("GET %s, dribbled: %q, want the body it has without the fault, %q", tt.target, got, want)
		}
		if tt.method == "POST" && (!bytes.Contains(got, []byte(`"name":"Drip"`)) || srv.Items().Store("pets").Len() != before+1) {
			t.Errorf("POST %s, dribbled: %q, want the pet, and it stored: a dribbled answer is processed", tt.target, got)
		}
		if j := journaled(t, srv, tt.method, strings.Split(tt.target, "?")[0]); len(j) != 1 || j[0].Fault != string(steer.FaultDribble) {
			t.Errorf("journal after a dribbled answer: %+v, want the fault named", j)
		}
	}
}

// TestFaultsInTheSettings checks the fault rate of the settings: at 1,
// every request of the API meets the fault, and the document served
// beside it none; at 0.5, a seed repeats the same faults.
func TestFaultsInTheSettings(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	url := listenedServer(t, srv)
	if err := srv.Steering().ChangeSettings(map[string]any{"fault": "empty", "faultRate": 1}); err != nil {
		t.Fatal(err)
	}
	client := freshClient(10 * time.Second)
	for range 3 {
		if _, err := faultRequest(t, client, "GET", url+"/pets", ""); !errors.Is(err, io.EOF) {
			t.Errorf("GET /v1/pets, fault empty at rate 1: %v, want EOF", err)
		}
	}
	resp, err := faultRequest(t, client, "GET", strings.TrimSuffix(url, "/v1")+"/openapi.json", "")
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("GET /openapi.json, fault empty at rate 1: %v %v, want 200: faults are the API's", resp, err)
	} else {
		resp.Body.Close()
	}

	faults := func(seed uint64) string {
		srv, err := mockserver.New(mockserver.Config{ChaosSeed: seed, Fault: steer.FaultReset, FaultRate: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		url := listenedServer(t, srv)
		var b strings.Builder
		for range 24 {
			resp, err := faultRequest(t, client, "GET", url+"/pets?limit=1", "")
			if err != nil {
				b.WriteByte('x')
				continue
			}
			resp.Body.Close()
			b.WriteByte('.')
		}
		return b.String()
	}
	a, b := faults(7), faults(7)
	if a != b || !strings.Contains(a, "x") || !strings.Contains(a, ".") {
		t.Errorf("fault rate 0.5 with seed 7: %s, then %s; want the same mix of faults and answers", a, b)
	}
}

// TestFaultsSeenByCurl checks that curl, a client of another make, sees
// each fault as what it is, by its exit status: 56 for a reset or a
// malformed chunk, 52 for an empty reply, 28 for a body that comes too
// slowly for --max-time.
func TestFaultsSeenByCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed")
	}
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	url := listenedServer(t, srv)
	for _, tt := range []struct {
		fault  steer.Fault
		status int
		says   string
	}{
		{steer.FaultReset, 56, "reset"},
		{steer.FaultEmpty, 52, "Empty reply"},
		{steer.FaultMalformedChunk, 56, "chunk"},
		{steer.FaultRandomData, 1, "HTTP/0.9"},
		{steer.FaultSlow, 28, "timed out"},
	} {
		a := steer.ForcedAnswer{Fault: tt.fault, Remaining: 1}
		if tt.fault == steer.FaultSlow {
			a.BytesPerSecond = 10
		}
		if err := srv.Steering().ForceAnswer(a); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(curl, "-sS", "--max-time", "2", "-H", "Authorization: Bearer "+key, url+"/pets?limit=50")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != tt.status || !strings.Contains(stderr.String(), tt.says) {
			t.Errorf("curl meeting %s: %v, %q; want exit status %d, saying %q", tt.fault, err, stderr.String(), tt.status, tt.says)
		}
	}
}

// TestFaultOnAConnectionThatCannotBeFailed checks that a fault forced on
// a writer that is no connection of net/http, such as a test's recorder,
// is answered with an Error body that says so, rather than a panic.
func TestFaultOnAConnectionThatCannotBeFailed(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Steering().ForceAnswer(steer.ForcedAnswer{Fault: steer.FaultReset, Remaining: 1}); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/v1/pets", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, req)
	if w.Code != 503 || !strings.Contains(w.Body.String(), `"message":"fault: reset: this connection cannot be failed below HTTP`) {
		t.Errorf("reset on a recorder: %d %s, want 503 and a message that says why", w.Code, w.Body)
	}
}
