package admin

import (
	"net/http"
	"strconv"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
)

// violations answers GET /__petmock/violations: the backend petmock
// proxies to, and its last answers that broke the document, newest first,
// as many as limit asks for, or all the view keeps.
func (h *handler) violations(w http.ResponseWriter, _ *http.Request, c *mockserver.Call) error {
	limit, _ := strconv.Atoi(c.Query.Get("limit")) // an integer of at least 1, or none
	return writeValue(w, http.StatusOK, map[string]any{"backend": h.srv.Backend(), "violations": h.srv.Violations().Recent(limit)})
}

// clearViolations answers DELETE /__petmock/violations with the view,
// empty.
func (h *handler) clearViolations(w http.ResponseWriter, _ *http.Request, _ *mockserver.Call) error {
	h.srv.Violations().Clear()
	return writeValue(w, http.StatusOK, map[string]any{"backend": h.srv.Backend(), "violations": []journal.Exchange{}})
}
