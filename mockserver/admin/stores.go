package admin

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
)

// The stores' endpoints: the health, a resource's items read and
// replaced, and the scenarios (reset, empty, a fixture), each answered
// with the number of items of each resource, as the server's control
// interface returns them.

// health answers GET /__petmock/health: ok and the number of items of
// each resource, or a 503 that says why while they cannot be kept.
func (h *handler) health(w http.ResponseWriter, _ *http.Request, _ *mockserver.Call) error {
	counts, err := h.srv.Items().Health()
	if err != nil {
		return err
	}
	out := make(map[string]any, len(counts)+1)
	for name, n := range counts {
		out[name] = n
	}
	out["status"] = "ok"
	return writeValue(w, http.StatusOK, out)
}

// reset answers POST /__petmock/reset.
func (h *handler) reset(w http.ResponseWriter, _ *http.Request, _ *mockserver.Call) error {
	counts, err := h.srv.Items().Reset()
	if err != nil {
		return err
	}
	return writeValue(w, http.StatusOK, counts)
}

// empty answers POST /__petmock/empty.
func (h *handler) empty(w http.ResponseWriter, _ *http.Request, _ *mockserver.Call) error {
	counts, err := h.srv.Items().Empty()
	if err != nil {
		return err
	}
	return writeValue(w, http.StatusOK, counts)
}

// loadFixture answers PUT /__petmock/fixture.
func (h *handler) loadFixture(w http.ResponseWriter, r *http.Request, _ *mockserver.Call) error {
	body, done, err := h.upload(w, r)
	if err != nil {
		return err
	}
	defer done()
	counts, err := h.srv.Items().LoadFixture(body)
	if err != nil {
		return err
	}
	return writeValue(w, http.StatusOK, counts)
}

// exportItems answers GET /__petmock/{resource} with the resource's
// items, as a fixture, written from the store as it goes.
func (h *handler) exportItems(w http.ResponseWriter, r *http.Request, _ *mockserver.Call) error {
	st := h.srv.Items().Store(r.PathValue("resource"))
	if st == nil {
		return notAResource(r)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if _, err := st.Export(w); err != nil && h.log != nil {
		h.log.Warn("export cut short", "err", err)
	}
	return nil
}

// replaceItems answers PUT /__petmock/{resource}.
func (h *handler) replaceItems(w http.ResponseWriter, r *http.Request, _ *mockserver.Call) error {
	name := r.PathValue("resource")
	body, done, err := h.upload(w, r)
	if err != nil {
		return err
	}
	defer done()
	n, err := h.srv.Items().ReplaceItems(name, body)
	if err != nil {
		return err
	}
	return writeValue(w, http.StatusOK, map[string]int{name: n})
}

// notAResource is the 404 of a name that is no resource. The edge routes
// only the names of resources here; this is in case it had not.
func notAResource(r *http.Request) *edge.Error {
	return edge.NewError(http.StatusNotFound, "resource", "%s is no resource of the document", r.PathValue("resource"))
}

// writeValue answers with v encoded as JSON.
func writeValue(w http.ResponseWriter, status int, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	body = append(body, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
	return nil
}
