package admin_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// petsFixture returns a fixture of n pets whose names are of nameBytes
// bytes, padded with spaces to size bytes when size is larger.
func petsFixture(n, nameBytes, size int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"%s","categoryId":1}`, i+1, strings.Repeat("f", nameBytes))
	}
	b.WriteString("]")
	if pad := size - b.Len(); pad > 0 {
		b.WriteString(strings.Repeat(" ", pad))
	}
	return b.String()
}

// startUpload sends the head of a PUT of a fixture of size bytes on its
// own connection, and returns once the server has begun to read its body:
// it answers Expect: 100-continue when it first reads. The caller sends
// the body on the connection it returns.
func startUpload(t testing.TB, ts *testServer, size int) (net.Conn, *bufio.Reader) {
	t.Helper()
	host := strings.TrimPrefix(ts.root, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "PUT %spets HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n",
		admin.Prefix, host, key, size)
	answers := bufio.NewReader(conn)
	if line, err := answers.ReadString('\n'); err != nil || !strings.HasPrefix(line, "HTTP/1.1 100") {
		t.Fatalf("the upload was not read: %q, %v", line, err)
	}
	answers.ReadString('\n')
	return conn, answers
}

// TestAdminUploadsAreBounded checks that the fixtures read at once take at
// most MaxFixtureBytes together: an upload past it is refused at once with
// 503 and Retry-After, and changes nothing, while one that fits is read.
func TestAdminUploadsAreBounded(t *testing.T) {
	const limit = 1 << 20
	ts := newTestServer(t, mockserver.Config{}, admin.Config{MaxFixtureBytes: limit})
	first := petsFixture(3, 10, 600_000)
	conn, answers := startUpload(t, ts, len(first))

	refused := []struct {
		what string
		body io.Reader
	}{
		{"a second large fixture", strings.NewReader(petsFixture(4, 10, 600_000))},
		{"a chunked fixture", io.MultiReader(strings.NewReader(petsFixture(4, 10, 0)))},
	}
	for _, tt := range refused {
		req, _ := http.NewRequest("PUT", ts.root+admin.Prefix+"pets", tt.body)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp := ts.send(t, req)
		if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !strings.HasPrefix(resp.apiError(t).Message, "fixture: ") {
			t.Errorf("%s while one is read: %d %s, Retry-After %q; want a 503 naming the fixture, with Retry-After",
				tt.what, resp.StatusCode, resp.body, resp.Header.Get("Retry-After"))
		}
	}
	if n := ts.Items().Store("pets").Len(); n != catalogue.DefaultCount {
		t.Errorf("refused uploads changed the store: %d pets", n)
	}
	if resp := ts.admin(t, "PUT", "pets", petsFixture(5, 10, 400_000)); resp.StatusCode != 200 || ts.Items().Store("pets").Len() != 5 {
		t.Errorf("a fixture that fits beside the one being read: %s, want 200", resp)
	}

	io.WriteString(conn, first)
	resp, err := http.ReadResponse(answers, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || ts.Items().Store("pets").Len() != 3 {
		t.Errorf("the first upload: %d with %d pets stored, want 200 and 3", resp.StatusCode, ts.Items().Store("pets").Len())
	}
	if resp := ts.admin(t, "PUT", "pets", petsFixture(4, 10, 600_000)); resp.StatusCode != 200 || ts.Items().Store("pets").Len() != 4 {
		t.Errorf("the second large fixture once the first is stored: %s, want 200", resp)
	}
}

// retained is the memory the heap holds from the system: what it uses,
// and what it keeps free without giving it back.
func retained() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapSys - m.HeapReleased)
}

// TestAdminUploadGivesMemoryBack checks that once a large fixture is
// stored, petmock keeps little more memory than the store itself: what
// reading and checking it took is given back before the answer.
func TestAdminUploadGivesMemoryBack(t *testing.T) {
	const pets, name = 180, 100 << 10
	fixture := petsFixture(pets, name, 0)
	ts := newTestServer(t, mockserver.Config{}, admin.Config{MaxFixtureBytes: 2 * int64(len(fixture))})
	req, _ := http.NewRequest("PUT", ts.root+admin.Prefix+"pets", strings.NewReader(fixture))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	debug.FreeOSMemory()
	before := retained()
	resp := ts.send(t, req)
	after := retained()
	if resp.StatusCode != 200 || ts.Items().Store("pets").Len() != pets {
		t.Fatalf("PUT a fixture of %s: %s", mib(int64(len(fixture))), resp)
	}
	stored := ts.Items().Store("pets").Bytes()
	kept := after - before
	t.Logf("a fixture of %s stored in %s; the heap keeps %s more than before", mib(int64(len(fixture))), mib(stored), mib(kept))
	if max := stored + 8<<20; kept > max {
		t.Errorf("after storing %s, the heap keeps %s more than before, want at most %s", mib(stored), mib(kept), mib(max))
	}
}
