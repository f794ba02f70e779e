package admin

import (
	"net/http"
	"strconv"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
)

// journal answers GET /__petmock/requests: the last requests of the API,
// newest first, as many as limit asks for, or all the journal keeps.
func (h *handler) journal(w http.ResponseWriter, _ *http.Request, c *mockserver.Call) error {
	limit, _ := strconv.Atoi(c.Query.Get("limit")) // an integer of at least 1, or none
	return writeValue(w, http.StatusOK, map[string]any{"requests": h.srv.Journal().Recent(limit)})
}

// clearJournal answers DELETE /__petmock/requests with the journal, empty.
func (h *handler) clearJournal(w http.ResponseWriter, _ *http.Request, _ *mockserver.Call) error {
	h.srv.Journal().Clear()
	return writeValue(w, http.StatusOK, map[string]any{"requests": []journal.Exchange{}})
}
