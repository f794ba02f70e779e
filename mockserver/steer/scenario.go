package steer

import (
	"maps"
	"net/http"
	"slices"
	"unicode/utf8"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/journal"
)

// A scenario is a state machine that expectations share, as WireMock's
// scenarios are: an expectation that names a scenario and a required
// state matches only while the scenario is in that state, and one with a
// new state moves the scenario there once it answered. Every scenario
// starts in ScenarioStarted. So a script says "the first GET /pets/7
// answers the pet; after DELETE /pets/7, it answers 404" without a change
// to the app.

// ScenarioStarted is the state every scenario starts in, and returns to
// when the expectations are dropped or the states reset.
const ScenarioStarted = "Started"

// maxScenarioText bounds the name of a scenario and of its states.
const maxScenarioText = 200

// Scenario says which state machine an expectation takes part in, and
// how.
type Scenario struct {
	// Name names the scenario; expectations that give the same name
	// share it.
	Name string `json:"name"`
	// RequiredState is the state the scenario must be in for the
	// expectation to match; "" matches in any state.
	RequiredState string `json:"requiredState,omitempty"`
	// NewState is the state the scenario moves to once the expectation
	// answered; "" leaves it where it is.
	NewState string `json:"newState,omitempty"`
}

// ScenarioState is a scenario and the state it is in, as States lists it.
type ScenarioState struct {
	Name  string `json:"name"`
	State string `json:"state"`
}

// checkScenario checks a scenario of an expectation.
func checkScenario(sc *Scenario) *edge.Error {
	if sc == nil {
		return nil
	}
	for _, f := range []struct{ field, text string }{
		{"scenario.name", sc.Name}, {"scenario.requiredState", sc.RequiredState}, {"scenario.newState", sc.NewState},
	} {
		if e := checkScenarioText(f.field, f.text); e != nil {
			return e
		}
	}
	switch {
	case sc.Name == "":
		return edge.BadRequest("scenario.name", "is required: the name of the scenario the expectation takes part in")
	case sc.RequiredState == "" && sc.NewState == "":
		return edge.BadRequest("scenario", "give requiredState, newState, or both: a scenario says when the expectation matches, or what its answer moves the scenario to")
	}
	return nil
}

// checkScenarioText checks a name of a scenario or a state.
func checkScenarioText(field, text string) *edge.Error {
	switch {
	case len(text) > maxScenarioText:
		return edge.BadRequest(field, "longer than %d bytes", maxScenarioText)
	case !utf8.ValidString(text):
		return edge.BadRequest(field, "is not UTF-8")
	}
	return nil
}

// stateOf returns the state of the scenario of name. The caller holds
// ex.mu.
func (ex *expecting) stateOf(name string) string {
	if st, ok := ex.states[name]; ok {
		return st
	}
	return ScenarioStarted
}

// inState reports whether x's scenario, if any, is in the state x
// requires. The caller holds ex.mu.
func (ex *expecting) inState(x *expectation) bool {
	sc := x.Scenario
	return sc == nil || sc.RequiredState == "" || ex.stateOf(sc.Name) == sc.RequiredState
}

// move moves x's scenario, if any, to the state x moves it to. The caller
// holds ex.mu.
func (ex *expecting) move(x *expectation) {
	if sc := x.Scenario; sc != nil && sc.NewState != "" {
		if ex.states == nil {
			ex.states = map[string]string{}
		}
		ex.states[sc.Name] = sc.NewState
	}
}

// named returns the names of the scenarios the expectations set name.
// The caller holds ex.mu.
func (ex *expecting) named() []string {
	names := map[string]bool{}
	for _, x := range ex.list {
		if x.Scenario != nil {
			names[x.Scenario.Name] = true
		}
	}
	return slices.Sorted(maps.Keys(names))
}

// States returns the scenarios the expectations set name, by name, each
// with the state it is in.
func (s *Steering) States() []ScenarioState {
	ex := s.expecting
	ex.mu.Lock()
	defer ex.mu.Unlock()
	out := []ScenarioState{}
	for _, name := range ex.named() {
		out = append(out, ScenarioState{Name: name, State: ex.stateOf(name)})
	}
	return out
}

// SetState moves the scenario of name to state, as a test does to start
// from a later step. A 404 *edge.Error says that no expectation names the
// scenario; a 400 one, that the state is no state.
func (s *Steering) SetState(name, state string) error {
	if e := checkScenarioText("state", state); e != nil {
		return e
	}
	if state == "" {
		return edge.BadRequest("state", "is required, such as %q", ScenarioStarted)
	}
	ex := s.expecting
	ex.mu.Lock()
	if !slices.Contains(ex.named(), name) {
		ex.mu.Unlock()
		return edge.NewError(http.StatusNotFound, "name", "no expectation names the scenario %q", name)
	}
	if ex.states == nil {
		ex.states = map[string]string{}
	}
	ex.states[name] = state
	ex.mu.Unlock()
	s.events.Publish(journal.ChangeExpectations)
	return nil
}

// ResetStates moves every scenario back to ScenarioStarted.
func (s *Steering) ResetStates() {
	ex := s.expecting
	ex.mu.Lock()
	ex.states = nil
	ex.mu.Unlock()
	s.events.Publish(journal.ChangeExpectations)
}
