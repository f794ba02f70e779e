package admin

import (
	"net/http"

	"github.com/petstore/contract/mockserver"
)

// settings answers GET /__petmock/settings.
func (h *handler) settings(w http.ResponseWriter, _ *http.Request, _ *mockserver.Call) error {
	return writeValue(w, http.StatusOK, h.srv.Steering().Settings())
}

// changeSettings answers PATCH /__petmock/settings: each member of the
// body, an object the edge checked against the document, changes one
// setting, all of them or none; the server says what is wrong with a
// value.
func (h *handler) changeSettings(w http.ResponseWriter, _ *http.Request, c *mockserver.Call) error {
	changes, _ := c.Body.(map[string]any)
	if err := h.srv.Steering().ChangeSettings(changes); err != nil {
		return err
	}
	return writeValue(w, http.StatusOK, h.srv.Steering().Settings())
}
