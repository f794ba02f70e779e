package steer

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chunksOf serves one answer written by write to a chunkWriter of chunks
// over the duration over, and returns the chunks of HTTP it came in, as
// read off the wire.
func chunksOf(t *testing.T, chunks int, over time.Duration, write func(w http.ResponseWriter)) [][]byte {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := dribbleChunks(r.Context(), w, chunks, over)
		write(cw)
		cw.Done()
	}))
	t.Cleanup(hs.Close)
	conn, err := net.Dial("tcp", strings.TrimPrefix(hs.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	io.WriteString(conn, "GET / HTTP/1.1\r\nHost: petmock\r\nConnection: close\r\n\r\n")
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.ContentLength != -1 {
		t.Errorf("a dribbled answer announces a length of %d, want none: it comes chunked", resp.ContentLength)
	}
	var got [][]byte
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading a chunk's size: %v", err)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(line), 16, 64)
		if err != nil {
			t.Fatalf("a chunk's size %q: %v", line, err)
		}
		if n == 0 {
			return got
		}
		data := make([]byte, n+2)
		if _, err := io.ReadFull(r, data); err != nil {
			t.Fatal(err)
		}
		got = append(got, data[:n])
	}
}

// TestChunkWriter cuts bodies into the chunks asked for: of a length the
// head announces, as they are written; of none, at their end; of one
// longer than it holds, the rest as it comes; and of one shorter than the
// chunks, a byte a chunk.
func TestChunkWriter(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789"), 10) // 100 bytes
	announced := func(w http.ResponseWriter) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body[:30])
		w.Write(body[30:])
	}
	unannounced := func(w http.ResponseWriter) {
		for i := 0; i < len(body); i += 7 {
			w.Write(body[i:min(i+7, len(body))])
		}
	}
	long := bytes.Repeat([]byte("x"), dribbleHold+10)
	for _, tt := range []struct {
		name   string
		chunks int
		write  func(w http.ResponseWriter)
		sizes  []int
		whole  []byte
	}{
		{"a length announced", 4, announced, []int{25, 25, 25, 25}, body},
		{"a length announced, cut unevenly", 3, announced, []int{34, 34, 32}, body},
		{"no length announced", 4, unannounced, []int{25, 25, 25, 25}, body},
		{"a body shorter than the chunks", 5, func(w http.ResponseWriter) { w.Write([]byte("ab")) }, []int{1, 1}, []byte("ab")},
		{"longer than it holds", 2, func(w http.ResponseWriter) { w.Write(long[:dribbleHold]); w.Write(long[dribbleHold:]) }, nil, long},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := chunksOf(t, tt.chunks, 20*time.Millisecond, tt.write)
			var sizes []int
			for _, c := range got {
				sizes = append(sizes, len(c))
			}
			if tt.sizes != nil && !slices.Equal(sizes, tt.sizes) {
				t.Errorf("chunks of %v bytes, want %v", sizes, tt.sizes)
			}
			if whole := bytes.Join(got, nil); !bytes.Equal(whole, tt.whole) {
				t.Errorf("the body came as %d bytes, not the %d written", len(whole), len(tt.whole))
			}
		})
	}
}
