package admin

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestAdminIsMadeOnFirstUse: the admin API, its document and its edge,
// costs more than petmock's start does to answer its first request, and
// the API does not need it. New must not make it; a request of the API
// must not either; the first requests of the admin API, at once, make it
// once, and each is answered.
func TestAdminIsMadeOnFirstUse(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(srv, Config{})
	if err != nil {
		t.Fatal(err)
	}
	made := func() bool { return h.(*handler).admin != nil }
	if made() {
		t.Fatal("New made the admin API")
	}
	do := func(path string) int {
		req := httptest.NewRequest("GET", "http://127.0.0.1"+path, nil)
		req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	if code := do("/v1/pets"); code != http.StatusOK {
		t.Fatalf("GET /v1/pets: %d", code)
	}
	if made() {
		t.Fatal("a request of the API made the admin API")
	}
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Go(func() { codes[i] = do(Prefix + "health") })
	}
	wg.Wait()
	for i, code := range codes {
		if code != http.StatusOK {
			t.Errorf("GET /__petmock/health, %d of the first at once: %d", i, code)
		}
	}
	if !made() {
		t.Error("the admin API answered without being made")
	}
}
