package admin

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
)

// The expectations' endpoints: canned answers for the requests that match
// them, set, listed and dropped (see mockserver.Server.Expect). The server
// checks each against the document it serves; the edge has checked the
// body's shape against this API's.

// expectations answers GET /__petmock/expectations, and DELETE of one
// or all of them with those left: {"expectations": [...]}.
func (h *handler) expectations(w http.ResponseWriter, _ *http.Request, _ *mockserver.Call) error {
	return writeValue(w, http.StatusOK, map[string]any{"expectations": h.srv.Steering().Expectations()})
}

// expect answers PUT /__petmock/expectations: the body sets one more
// expectation, after those set before, and the answer is the expectation
// as set, with its id.
func (h *handler) expect(w http.ResponseWriter, _ *http.Request, c *mockserver.Call) error {
	// The body was decoded with its numbers as written: encoded again,
	// it decodes into an Expectation that keeps every digit.
	text, err := json.Marshal(c.Body)
	if err != nil {
		return err
	}
	var e steer.Expectation
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		// A matcher the document cannot describe is named by steer.
		var named *edge.Error
		if errors.As(err, &named) {
			return named
		}
		return edge.NewError(http.StatusBadRequest, "body", "%v", err)
	}
	e.Remaining, e.Matched = 0, 0 // counted by the server
	set, err := h.srv.Steering().Expect(e)
	if err != nil {
		return err
	}
	w.Header().Set("Location", Prefix+"expectations/"+strconv.FormatInt(set.ID, 10))
	return writeValue(w, http.StatusCreated, set)
}

// clearExpectations answers DELETE /__petmock/expectations.
func (h *handler) clearExpectations(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error {
	h.srv.Steering().ClearExpectations()
	return h.expectations(w, r, c)
}

// expectation answers GET /__petmock/expectations/{id}.
func (h *handler) expectation(w http.ResponseWriter, _ *http.Request, c *mockserver.Call) error {
	id, _ := strconv.ParseInt(c.Params["id"], 10, 64) // the edge checked it is an integer
	for _, e := range h.srv.Steering().Expectations() {
		if e.ID == id {
			return writeValue(w, http.StatusOK, e)
		}
	}
	return noExpectation(id)
}

// removeExpectation answers DELETE /__petmock/expectations/{id} with the
// expectations left.
func (h *handler) removeExpectation(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error {
	id, _ := strconv.ParseInt(c.Params["id"], 10, 64)
	if err := h.srv.Steering().RemoveExpectation(id); err != nil {
		return err
	}
	return h.expectations(w, r, c)
}

// noExpectation is the 404 of an id no expectation has.
func noExpectation(id int64) *edge.Error {
	return edge.NewError(http.StatusNotFound, "id", "no expectation has id %d", id)
}

// states answers GET /__petmock/states, and the endpoints below with the
// states they leave: {"states": [{"name", "state"}]}.
func (h *handler) states(w http.ResponseWriter, _ *http.Request, _ *mockserver.Call) error {
	return writeValue(w, http.StatusOK, map[string]any{"states": h.srv.Steering().States()})
}

// resetStates answers DELETE /__petmock/states.
func (h *handler) resetStates(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error {
	h.srv.Steering().ResetStates()
	return h.states(w, r, c)
}

// setState answers PUT /__petmock/states/{name}: {"state": "..."}.
func (h *handler) setState(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error {
	body, _ := c.Body.(map[string]any) // the edge checked it is an object with a string state
	state, _ := body["state"].(string)
	name, err := url.PathUnescape(c.Params["name"])
	if err != nil {
		return edge.BadRequest("name", "%v", err)
	}
	if err := h.srv.Steering().SetState(name, state); err != nil {
		return err
	}
	return h.states(w, r, c)
}

// verification answers GET /__petmock/verification.
func (h *handler) verification(w http.ResponseWriter, _ *http.Request, _ *mockserver.Call) error {
	return writeValue(w, http.StatusOK, h.srv.Steering().Verification())
}

// resetVerification answers DELETE /__petmock/verification with the
// verification, counted from now.
func (h *handler) resetVerification(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error {
	h.srv.Steering().ResetVerification()
	return h.verification(w, r, c)
}
