package mockserver_test

import (
	"errors"
	"io"
	"strings"
	"testing"

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
	ts.SetPersistError(why)
	wantMessage := "state: " + why.Error() + "; nothing was changed"

	before := ts.Store("orders").Entries()
	writes := []struct{ method, path, body string }{
		{"POST", "/pets", `{"name":"Lost","categoryId":1}`},
		{"POST", "/store/orders", `{"petId":3,"quantity":2}`},
		{"PUT", "/store/orders/1", `{"petId":4,"quantity":1}`},
		{"PATCH", "/store/orders/1", `{"quantity":3}`},
		{"DELETE", "/store/orders/1", ""},
	}
	for _, w := range writes {
		resp := ts.do(t, w.method, w.path, w.body)
		if resp.StatusCode != 503 || resp.apiError(t).Message != wantMessage || resp.apiError(t).Code != mockserver.CodeUnavailable {
			t.Errorf("%s /v1%s while items cannot be kept: %s, want 503 %q", w.method, w.path, resp, wantMessage)
		}
	}
	for _, w := range []struct {
		what string
		do   func() error
	}{
		{"Reset", func() error { _, err := ts.Reset(); return err }},
		{"ReplaceItems", func() error { _, err := ts.ReplaceItems("pets", strings.NewReader("[]")); return err }},
		{"Empty", func() error { _, err := ts.Empty(); return err }},
		{"LoadFixture", func() error { _, err := ts.LoadFixture(strings.NewReader(`{"pets":[]}`)); return err }},
	} {
		var e *mockserver.Error
		if err := w.do(); !errors.As(err, &e) || e.Status != 503 || e.Message != wantMessage {
			t.Errorf("%s while items cannot be kept: %v, want 503 %q", w.what, err, wantMessage)
		}
	}
	if got := ts.Store("orders").Entries(); len(got) != len(before) || ts.Store("pets").Len() != mockserver.DefaultCount {
		t.Errorf("refused writes changed the stores")
	}
	if _, err := ts.Health(); err == nil || !strings.Contains(err.Error(), why.Error()) || !strings.HasPrefix(err.Error(), "503 ") {
		t.Errorf("Health while items cannot be kept: %v, want a 503 that says why", err)
	}
	if resp := ts.do(t, "GET", "/store/orders/1", ""); resp.StatusCode != 200 {
		t.Errorf("GET /v1/store/orders/1 while items cannot be kept: %s, want 200", resp)
	}
	if resp := ts.do(t, "POST", "/pets", `{"name":"Nope","categoryId":1}`, "Authorization", "Bearer wrong"); resp.StatusCode != 401 {
		t.Errorf("POST /v1/pets with a wrong key while items cannot be kept: %d, want 401 first", resp.StatusCode)
	}

	ts.SetPersistError(nil)
	if resp := ts.do(t, "POST", "/pets", `{"name":"Kept","categoryId":1}`); resp.StatusCode != 201 {
		t.Errorf("POST /v1/pets once items can be kept again: %s, want 201", resp)
	}
	if _, err := ts.Health(); err != nil {
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
		f.srv.SetPersistError(errors.New("disk full"))
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
		{"ReplaceItems", func(srv *mockserver.Server, r io.Reader) error { _, err := srv.ReplaceItems("pets", r); return err }},
		{"LoadFixture", func(srv *mockserver.Server, r io.Reader) error { _, err := srv.LoadFixture(r); return err }},
	} {
		srv, err := mockserver.New(mockserver.Config{})
		if err != nil {
			t.Fatal(err)
		}
		body := &failingWhileRead{r: strings.NewReader(`[{"id":1,"name":"Lost","categoryId":1}]`), srv: srv}
		var e *mockserver.Error
		if err := tt.load(srv, body); !errors.As(err, &e) || e.Status != 503 || !strings.Contains(e.Message, "disk full") {
			t.Errorf("%s while saves began to fail: %v, want 503", tt.what, err)
		}
		if n := srv.Store("pets").Len(); n != mockserver.DefaultCount {
			t.Errorf("%s while saves began to fail left %d pets, want the %d there were", tt.what, n, mockserver.DefaultCount)
		}
	}
}
