package compat

import "fmt"

// Severity says whether a change breaks a client written for the older
// version of a document.
type Severity int

// The severities, from the least to the most severe.
const (
	// NonBreaking is a change every client of the older version keeps
	// working with: a new operation, a new optional request property.
	NonBreaking Severity = iota
	// MayBreak is a change that breaks some clients and not others, or
	// one whose effect the comparison cannot tell, such as a new
	// pattern on a request property.
	MayBreak
	// Breaking is a change that breaks a client written for the older
	// version: a removed operation, a new required request property.
	Breaking
)

// String returns the severity as the report prints it: "breaking",
// "may break" or "non-breaking".
func (s Severity) String() string {
	switch s {
	case Breaking:
		return "breaking"
	case MayBreak:
		return "may break"
	default:
		return "non-breaking"
	}
}

// MarshalText writes the severity as String does, so a JSON report reads
// like the text one.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity written by MarshalText.
func (s *Severity) UnmarshalText(text []byte) error {
	for _, v := range []Severity{NonBreaking, MayBreak, Breaking} {
		if string(text) == v.String() {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("severity: %q is not breaking, may break or non-breaking", text)
}

// Change is one difference between two versions of a document.
type Change struct {
	Severity Severity `json:"severity"`
	// Method and Path are the operation changed, such as POST and
	// /pets, as the newer document writes them or, for an operation it
	// no longer has, the older one. Both are empty for a change outside
	// the operations.
	Method string `json:"method,omitempty"`
	Path   string `json:"path,omitempty"`
	// Section is the part of the document changed: "paths" for an
	// operation, else "components", "security", "info" or "webhooks".
	Section string `json:"section"`
	// Text says what changed and, below the operation, where: "removed
	// the request property 'name'", "the 'status' query request
	// parameter became required".
	Text string `json:"text"`
	// Rule names the rule of oasdiff that found the change, such as
	// request-property-removed, for its documentation.
	Rule string `json:"rule"`
}

// Where names the place of the change a reader looks for first: the
// operation, such as "POST /pets", or else the section.
func (c Change) Where() string {
	if c.Method == "" && c.Path == "" {
		return c.Section
	}
	if c.Method == "" {
		return c.Path
	}
	return c.Method + " " + c.Path
}

// String returns the change on one line, without its severity:
// "POST /pets: removed the request property 'name'".
func (c Change) String() string { return c.Where() + ": " + c.Text }
