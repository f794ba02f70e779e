package admin

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver"
)

// forced answers GET /__petmock/forced, and each of the endpoints below
// with what it leaves: {"forced": [...]}, all of them, or, with
// ?operation=, what the next requests of that operation take.
func (h *handler) forced(w http.ResponseWriter, _ *http.Request, c *mockserver.Call) error {
	if op := c.Query.Get("operation"); op != "" {
		list, err := h.srv.Steering().ForcedFor(op)
		if err != nil {
			return err
		}
		return writeValue(w, http.StatusOK, map[string]any{"forced": list})
	}
	return writeValue(w, http.StatusOK, map[string]any{"forced": h.srv.Steering().Forced()})
}

// force answers POST /__petmock/forced: the body, which the edge checked
// against the document, forces the next answers, if the served document
// documents its code for its operation, or the next faults.
func (h *handler) force(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error {
	body, _ := c.Body.(map[string]any)
	a := steer.ForcedAnswer{Remaining: 1}
	a.Code, _ = integer(body["code"])
	if n, ok := integer(body["count"]); ok {
		a.Remaining = n
	}
	a.Operation, _ = body["operation"].(string)
	fault, _ := body["fault"].(string)
	a.Fault = steer.Fault(fault)
	a.BytesPerSecond, _ = integer(body["bytesPerSecond"])
	a.Chunks, _ = integer(body["chunks"])
	a.Duration, _ = body["duration"].(string)
	if err := h.srv.Steering().ForceAnswer(a); err != nil {
		return err
	}
	return h.forced(w, r, c)
}

// clearForced answers DELETE /__petmock/forced: all of them, or, with
// ?operation=, those forced for that operation, answering what its next
// requests still take.
func (h *handler) clearForced(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error {
	if op := c.Query.Get("operation"); op != "" {
		if err := h.srv.Steering().ClearForcedFor(op); err != nil {
			return err
		}
		return h.forced(w, r, c)
	}
	h.srv.Steering().ClearForced()
	return h.forced(w, r, c)
}

// removeForced answers DELETE /__petmock/forced/{id} with those left.
func (h *handler) removeForced(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error {
	id, _ := strconv.ParseInt(c.Params["id"], 10, 64) // the edge checked it is an integer
	if err := h.srv.Steering().RemoveForced(id); err != nil {
		return err
	}
	return h.forced(w, r, c)
}

// integer reads a JSON integer of a decoded body, which may be written
// 503, 5.03e2 or 503.0.
func integer(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := n.Int64(); err == nil {
		return int(i), true
	}
	f, err := n.Float64()
	if err != nil || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}
