package mockserver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
)

// TestWritesRefusedWhileItemsCannotBeKept checks that while the server is
// told its items cannot be kept, every write is refused with a 503 that
// says why, changing nothing, health says so too, and reads go on; and
// that once it is told they can, writes are acknowledged again.
func TestWritesRefusedWhileItemsCannotBeKept(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Contract: readContract(t, "evolved-ops.yaml")})
	// These 503s lie outside the contract, as an outage does.
	ts.client.Transport.(*contractTransport).checker.outages = true
	why := errors.New("cannot persist to /srv/petmock/state.json: no space left on device")
	ts.Items().SetPersistError(why)
	wantMessage := "state: " + why.Error() + "; nothing was changed"

	before := ts.Items().Store("orders").Entries()
	writes := []struct{ method, path, body string }{
		{"POST", "/pets", `{"name":"Lost","categoryId":1}`},
		{"POST", "/store/orders", `{"petId":3,"quantity":2}`},
		{"PUT", "/store/orders/1", `{"petId":4,"quantity":1}`},
		{"PATCH", "/store/orders/1", `{"quantity":3}`},
		{"DELETE", "/store/orders/1", ""},
	}
	for _, w := range writes {
		resp := ts.do(t, w.method, w.path, w.body)
		if resp.StatusCode != 503 || resp.apiError(t).Message != wantMessage || resp.apiError(t).Code != edge.CodeUnavailable {
			t.Errorf("%s /v1%s while items cannot be kept: %s, want 503 %q", w.method, w.path, resp, wantMessage)
		}
	}
	for _, w := range []struct {
		what string
		do   func() error
	}{
		{"Reset", func() error { _, err := ts.Items().Reset(); return err }},
		{"ReplaceItems", func() error { _, err := ts.Items().ReplaceItems("pets", strings.NewReader("[]")); return err }},
		{"Empty", func() error { _, err := ts.Items().Empty(); return err }},
		{"LoadFixture", func() error { _, err := ts.Items().LoadFixture(strings.NewReader(`{"pets":[]}`)); return err }},
	} {
		var e *edge.Error
		if err := w.do(); !errors.As(err, &e) || e.Status != 503 || e.Message != wantMessage {
			t.Errorf("%s while items cannot be kept: %v, want 503 %q", w.what, err, wantMessage)
		}
	}
	if got := ts.Items().Store("orders").Entries(); len(got) != len(before) || ts.Items().Store("pets").Len() != catalogue.DefaultCount {
		t.Errorf("refused writes changed the stores")
	}
	if _, err := ts.Items().Health(); err == nil || !strings.Contains(err.Error(), why.Error()) || !strings.HasPrefix(err.Error(), "503 ") {
		t.Errorf("Health while items cannot be kept: %v, want a 503 that says why", err)
	}
	if resp := ts.do(t, "GET", "/store/orders/1", ""); resp.StatusCode != 200 {
		t.Errorf("GET /v1/store/orders/1 while items cannot be kept: %s, want 200", resp)
	}
	if resp := ts.do(t, "POST", "/pets", `{"name":"Nope","categoryId":1}`, "Authorization", "Bearer wrong"); resp.StatusCode != 401 {
		t.Errorf("POST /v1/pets with a wrong key while items cannot be kept: %d, want 401 first", resp.StatusCode)
	}

	ts.Items().SetPersistError(nil)
	if resp := ts.do(t, "POST", "/pets", `{"name":"Kept","categoryId":1}`); resp.StatusCode != 201 {
		t.Errorf("POST /v1/pets once items can be kept again: %s, want 201", resp)
	}
	if _, err := ts.Items().Health(); err != nil {
		t.Errorf("Health once items can be kept again: %v", err)
	}
}

// failingWhileRead is a fixture that, once read to its end, tells the
// server its items cannot be kept: saves that begin to fail during a long
// upload.
type failingWhileRead struct {
	r    *strings.Reader
	srv  *mockserver.Server
	done bool
}

func (f *failingWhileRead) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err != nil && !f.done {
		f.done = true
		f.srv.Items().SetPersistError(errors.New("disk full"))
	}
	return n, err
}

// TestFixtureRefusedWhenSavesFailWhileRead checks that a fixture is not
// stored when saves began to fail while it was read.
func TestFixtureRefusedWhenSavesFailWhileRead(t *testing.T) {
	for _, tt := range []struct {
		what string
		load func(*mockserver.Server, io.Reader) error
	}{
		{"ReplaceItems", func(srv *mockserver.Server, r io.Reader) error {
			_, err := srv.Items().ReplaceItems("pets", r)
			return err
		}},
		{"LoadFixture", func(srv *mockserver.Server, r io.Reader) error { _, err := srv.Items().LoadFixture(r); return err }},
	} {
		srv, err := mockserver.New(mockserver.Config{})
		if err != nil {
			t.Fatal(err)
		}
		body := &failingWhileRead{r: strings.NewReader(`[{"id":1,"name":"Lost","categoryId":1}]`), srv: srv}
		var e *edge.Error
		if err := tt.load(srv, body); !errors.As(err, &e) || e.Status != 503 || !strings.Contains(e.Message, "disk full") {
			t.Errorf("%s while saves began to fail: %v, want 503", tt.what, err)
		}
		if n := srv.Items().Store("pets").Len(); n != catalogue.DefaultCount {
			t.Errorf("%s while saves began to fail left %d pets, want the %d there were", tt.what, n, catalogue.DefaultCount)
		}
	}
}

// orderWriter is a ResponseRecorder that notes whether the answer began
// before the write it answers was kept.
type orderWriter struct {
	*httptest.ResponseRecorder
	kept  *atomic.Bool
	early bool
}

func (w *orderWriter) WriteHeader(code int) {
	if !w.kept.Load() {
		w.early = true
	}
	w.ResponseRecorder.WriteHeader(code)
}

func (w *orderWriter) Write(p []byte) (int, error) {
	if !w.kept.Load() {
		w.early = true
	}
	return w.ResponseRecorder.Write(p)
}

// apiWrites are a create, replace, update and delete of the API, as the
// evolved document has them all.
var apiWrites = []struct{ method, path, body string }{
	{"POST", "/v1/pets", `{"name":"Kept","categoryId":1}`},
	{"POST", "/v1/store/orders", `{"petId":3,"quantity":2}`},
	{"PUT", "/v1/store/orders/1", `{"petId":4,"quantity":1}`},
	{"PATCH", "/v1/store/orders/2", `{"quantity":3}`},
	{"DELETE", "/v1/store/orders/3", ""},
}

// scenarioWrites are the writes of the control interface.
var scenarioWrites = []struct {
	what string
	do   func(*mockserver.Server) error
}{
	{"Reset", func(s *mockserver.Server) error { _, err := s.Items().Reset(); return err }},
	{"Empty", func(s *mockserver.Server) error { _, err := s.Items().Empty(); return err }},
	{"LoadFixture", func(s *mockserver.Server) error {
		_, err := s.Items().LoadFixture(strings.NewReader(`{"pets":[{"id":7,"name":"Seven","categoryId":1}]}`))
		return err
	}},
	{"ReplaceItems", func(s *mockserver.Server) error {
		_, err := s.Items().ReplaceItems("pets", strings.NewReader(`[{"id":8,"name":"Eight","categoryId":1}]`))
		return err
	}},
}

// serveWrite answers one request in-process, with the default key.
func serveWrite(srv *mockserver.Server, w http.ResponseWriter, ctx context.Context, method, path, body string) {
	req := httptest.NewRequestWithContext(ctx, method, "http://petmock"+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	srv.ServeHTTP(w, req)
}

// TestWritesAreAnsweredOnceKept checks that every write, of the API and of
// the control interface, calls the commit once, after it changed the
// items, and is answered only once the commit has returned.
func TestWritesAreAnsweredOnceKept(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{Contract: readContract(t, "evolved-ops.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	var kept atomic.Bool
	var calls atomic.Int64
	var versionAtCommit atomic.Uint64
	srv.Items().SetCommit(func(ctx context.Context) error {
		calls.Add(1)
		versionAtCommit.Store(srv.Items().Version())
		kept.Store(true)
		return nil
	})
	for _, w := range apiWrites {
		kept.Store(false)
		before, n := srv.Items().Version(), calls.Load()
		rec := &orderWriter{ResponseRecorder: httptest.NewRecorder(), kept: &kept}
		serveWrite(srv, rec, context.Background(), w.method, w.path, w.body)
		switch {
		case rec.Code >= 300:
			t.Errorf("%s %s: %d %s", w.method, w.path, rec.Code, rec.Body)
		case calls.Load() != n+1:
			t.Errorf("%s %s: the commit was called %d times, want once", w.method, w.path, calls.Load()-n)
		case rec.early:
			t.Errorf("%s %s: answered before the write was kept", w.method, w.path)
		case versionAtCommit.Load() == before:
			t.Errorf("%s %s: the commit was called before the write changed the items", w.method, w.path)
		}
	}
	for _, w := range scenarioWrites {
		before, n := srv.Items().Version(), calls.Load()
		if err := w.do(srv); err != nil {
			t.Errorf("%s: %v", w.what, err)
		}
		if calls.Load() != n+1 || versionAtCommit.Load() == before {
			t.Errorf("%s: the commit was called %d times after the change, want once", w.what, calls.Load()-n)
		}
	}
	// Reads, and writes refused before they change anything, keep nothing.
	n := calls.Load()
	for _, r := range []struct{ method, path, body string }{
		{"GET", "/v1/pets", ""},
		{"GET", "/v1/store/orders/1", ""},
		{"POST", "/v1/pets", `{"categoryId":1}`},
		{"DELETE", "/v1/store/orders/999", ""},
		{"PATCH", "/v1/store/orders/999", `{"quantity":3}`},
	} {
		serveWrite(srv, httptest.NewRecorder(), context.Background(), r.method, r.path, r.body)
	}
	if calls.Load() != n {
		t.Errorf("reads and refused writes called the commit %d times, want none", calls.Load()-n)
	}
}

// TestWriteNotKeptIsNotAcknowledged checks that a write whose commit fails
// is answered 503, saying why and that the change is in memory only, as
// the change is; and that a client that goes away while its write waits
// gets a 503 too, not an acknowledgement.
func TestWriteNotKeptIsNotAcknowledged(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Contract: readContract(t, "evolved-ops.yaml")})
	// These 503s lie outside the contract, as an outage does.
	ts.client.Transport.(*contractTransport).checker.outages = true
	why := errors.New("cannot persist to /srv/petmock/state.json: no space left on device")
	ts.Items().SetCommit(func(context.Context) error { return why })
	want := "state: " + why.Error() + "; the change was made in memory only, and is lost if petmock stops before a save succeeds"
	for _, w := range apiWrites {
		resp := ts.do(t, w.method, strings.TrimPrefix(w.path, "/v1"), w.body)
		if resp.StatusCode != 503 || resp.apiError(t).Message != want {
			t.Errorf("%s %s whose commit fails: %s, want 503 %q", w.method, w.path, resp, want)
		}
	}
	if n := ts.Items().Store("pets").Len(); n != catalogue.DefaultCount+1 {
		t.Errorf("the create whose commit failed is not in memory: %d pets, want %d", n, catalogue.DefaultCount+1)
	}
	for _, w := range scenarioWrites {
		var e *edge.Error
		if err := w.do(ts.Server); !errors.As(err, &e) || e.Status != 503 || e.Message != want {
			t.Errorf("%s whose commit fails: %v, want 503 %q", w.what, err, want)
		}
	}

	ts.Items().SetCommit(func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	serveWrite(ts.Server, rec, ctx, "POST", "/v1/pets", `{"name":"Gone","categoryId":1}`)
	if rec.Code != 503 || !strings.Contains(rec.Body.String(), "cancelled by the client before the change was saved") {
		t.Errorf("POST /v1/pets by a client gone while it waited: %d %s, want 503", rec.Code, rec.Body)
	}

	ts.Items().SetCommit(nil)
	if resp := ts.do(t, "POST", "/pets", `{"name":"At once","categoryId":1}`); resp.StatusCode != 201 {
		t.Errorf("POST /v1/pets with no commit: %s, want 201", resp)
	}
}
