package admin_test

import (
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// TestAdminWritesRefusedWhileItemsCannotBeKept checks that while the
// server is told its items cannot be kept, every write of the admin API is
// refused with a 503 that says why, changing nothing, health says so too,
// and reads go on; and that once it is told they can, health is 200 again.
func TestAdminWritesRefusedWhileItemsCannotBeKept(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Contract: readContract(t, "evolved-ops.yaml")})
	why := errors.New("cannot persist to /srv/petmock/state.json: no space left on device")
	ts.Items().SetPersistError(why)
	wantMessage := "state: " + why.Error() + "; nothing was changed"
	before := ts.Items().Store("orders").Entries()
	for _, w := range []struct{ method, name, body string }{{"POST", "reset", ""}, {"PUT", "pets", "[]"}, {"POST", "empty", ""}, {"PUT", "fixture", `{"pets":[]}`}} {
		resp := ts.admin(t, w.method, w.name, w.body)
		if resp.StatusCode != 503 || resp.apiError(t).Message != wantMessage {
			t.Errorf("%s /__petmock/%s while items cannot be kept: %s, want 503 %q", w.method, w.name, resp, wantMessage)
		}
	}
	if got := ts.Items().Store("orders").Entries(); len(got) != len(before) || ts.Items().Store("pets").Len() != catalogue.DefaultCount {
		t.Errorf("refused writes changed the stores")
	}
	health := ts.admin(t, "GET", "health", "", "")
	if health.StatusCode != 503 || !strings.Contains(health.apiError(t).Message, why.Error()) {
		t.Errorf("GET health while items cannot be kept: %s, want a 503 that says why", health)
	}
	if resp := ts.admin(t, "GET", "orders", ""); resp.StatusCode != 200 {
		t.Errorf("GET /__petmock/orders while items cannot be kept: %s, want 200", resp)
	}
	ts.Items().SetPersistError(nil)
	if health := ts.admin(t, "GET", "health", "", ""); health.StatusCode != 200 {
		t.Errorf("GET health once items can be kept again: %s, want 200", health)
	}
}

// failingWhileRead is a fixture body that, once read to its end, tells the
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

// TestUploadRefusedWhenSavesFailWhileRead checks that a fixture is not
// stored, nor acknowledged, when saves began to fail while it was read.
func TestUploadRefusedWhenSavesFailWhileRead(t *testing.T) {
	for _, name := range []string{"pets", "fixture"} {
		srv, err := mockserver.New(mockserver.Config{})
		if err != nil {
			t.Fatal(err)
		}
		h, err := admin.New(srv, admin.Config{})
		if err != nil {
			t.Fatal(err)
		}
		body := &failingWhileRead{r: strings.NewReader(`[{"id":1,"name":"Lost","categoryId":1}]`), srv: srv}
		req := httptest.NewRequest("PUT", "http://petmock.localhost/__petmock/"+name, io.NopCloser(body))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 503 || !strings.Contains(w.Body.String(), "disk full") {
			t.Errorf("PUT /__petmock/%s while saves began to fail: %d %s, want 503", name, w.Code, w.Body)
		}
		if n := srv.Items().Store("pets").Len(); n != catalogue.DefaultCount {
			t.Errorf("PUT /__petmock/%s while saves began to fail left %d pets, want the %d there were", name, n, catalogue.DefaultCount)
		}
	}
}
