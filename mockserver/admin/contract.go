package admin

import (
	"net/http"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// GET /__petmock/contract describes what petmock serves, as the console
// shows it: the document's operations with their statuses and
// deprecation, its resources with their properties and filters, and the
// time petmock acts at, by which a sunset is counted down, and what became
// of the versions of the document petmock was given while it ran. It
// needs no key: it says nothing the document, served at /openapi.json,
// does not, but for why a version of it could not be served.

// contractView is the body of GET /__petmock/contract.
type contractView struct {
	Title      string          `json:"title"`
	Version    string          `json:"version"`
	Base       string          `json:"base"`
	Now        time.Time       `json:"now"`
	Operations []operationView `json:"operations"`
	Resources  []resourceView  `json:"resources"`
	// PublishedKey says that the admin API takes the key petmock's
	// README publishes, so that the console warns of it.
	PublishedKey bool `json:"publishedKey"`
	// Key says how the console sends the key.
	Key keyView `json:"key"`
	// Document says what became of the versions of the document, as
	// petmock --watch reloads it: the last reload, and a version that
	// could not be served, which the console shows in a banner.
	Document mockserver.DocumentStatus `json:"document"`
	// Notes are petmock's start-up notes, one line each: what it made of
	// the document beyond what the document says, and why paths that look
	// like a resource are served as plain operations, so that a console of
	// a document whose resources were not found says why it holds none.
	Notes []string `json:"notes"`
}

// keyView is how the console sends the key: in Header, after Scheme.
type keyView struct {
	Header string `json:"header"`
	Scheme string `json:"scheme"` // Bearer, Basic, or "" for the key as it is
}

// consoleKey returns how the console sends the key: as the served
// document's first scheme asks, where that is a header; else as a bearer
// token, which the admin API always takes. A key in a URL would stay in
// the browser's history and in logs, and a page cannot set a cookie on
// its fetch.
func consoleKey(c *spec.Contract) keyView {
	if s := c.FirstScheme(); s != nil {
		if header, scheme, ok := s.HeaderForm(); ok {
			return keyView{Header: header, Scheme: scheme}
		}
	}
	return keyView{Header: "Authorization", Scheme: "Bearer"}
}

type operationView struct {
	ID       string `json:"id"`
	Method   string `json:"method"`
	Path     string `json:"path"` // with the base path, as a client sends it
	Summary  string `json:"summary,omitempty"`
	Statuses []int  `json:"statuses"`
	Resource string `json:"resource,omitempty"`
	// Note says why the operation is part of no resource, where a start-up
	// note says so of its path.
	Note string `json:"note,omitempty"`
	// Deprecated is set for a deprecated operation, with what the
	// document says of its retirement.
	Deprecated *deprecationView `json:"deprecated,omitempty"`
}

type deprecationView struct {
	Since      *time.Time `json:"since,omitempty"`
	Sunset     *time.Time `json:"sunset,omitempty"`
	ReplacedBy string     `json:"replacedBy,omitempty"`
	// Removed says that the sunset has come at the time petmock acts
	// at: the operation answers 410.
	Removed bool `json:"removed"`
}

type resourceView struct {
	Name string `json:"name"`
	// Singular names one item, as the console counts "1 pet".
	Singular   string       `json:"singular"`
	IDProperty string       `json:"idProperty"`
	Properties []string     `json:"properties"`
	Filters    []filterView `json:"filters"`
}

type filterView struct {
	Name   string   `json:"name"`
	Values []string `json:"values,omitempty"` // the enumeration, if any
}

// contractView returns the body of GET /__petmock/contract.
func (h *handler) contractView() contractView {
	now := h.srv.Steering().Clock()
	c := h.srv.Contract()
	info := c.Doc.Info
	v := contractView{
		Base:         c.Base,
		Now:          now.UTC().Truncate(time.Millisecond),
		Operations:   []operationView{},
		Resources:    []resourceView{},
		PublishedKey: h.srv.PublishedKey(),
		Key:          consoleKey(c),
		Document:     h.srv.DocumentStatus(),
		Notes:        append(append([]string{}, c.Notes...), h.srv.Notes()...),
	}
	if info != nil {
		v.Title, v.Version = info.Title, info.Version
	}
	for _, op := range c.Operations {
		ov := operationView{
			ID:       op.ID,
			Method:   op.Method,
			Path:     op.Base + op.Path,
			Summary:  op.Op.Summary,
			Statuses: append([]int{}, op.Statuses...), // [] rather than null for default-only operations
		}
		if op.Resource != nil {
			ov.Resource = op.Resource.Name
		} else {
			ov.Note = pathNote(c.Notes, op.Path)
		}
		if op.Op.Deprecated {
			dv := &deprecationView{}
			if d := op.Deprecation; d != nil {
				dv.ReplacedBy = d.ReplacedBy
				if !d.Since.IsZero() {
					dv.Since = &d.Since
				}
				if !d.Sunset.IsZero() {
					dv.Sunset = &d.Sunset
					dv.Removed = !now.Before(d.Sunset)
				}
			}
			ov.Deprecated = dv
		}
		v.Operations = append(v.Operations, ov)
	}
	for _, r := range c.Resources {
		rv := resourceView{Name: r.Name, Singular: spec.Singular(r.Name), IDProperty: r.IDProperty, Properties: []string{}, Filters: []filterView{}}
		for _, p := range r.Properties {
			rv.Properties = append(rv.Properties, p.Name)
		}
		for _, f := range r.Filters {
			rv.Filters = append(rv.Filters, filterView{Name: f.Name(), Values: f.Enum()})
		}
		v.Resources = append(v.Resources, rv)
	}
	return v
}

// pathNote returns the note of spec's reading of resources that names
// path, as "paths./pets: ..." does: the one that says why it is served as
// plain operations. A note of another path that names path too, as its
// item path ("so /configs and /configs/{id} are served as plain
// operations"), counts, as it says why path is plain as well.
func pathNote(notes []string, path string) string {
	for _, n := range notes {
		if strings.HasPrefix(n, "paths."+path+":") {
			return n
		}
	}
	for _, n := range notes {
		if strings.HasPrefix(n, "paths.") && strings.Contains(n, "plain operations") && strings.Contains(n, " "+path+" ") {
			return n
		}
	}
	return ""
}

// contract answers GET /__petmock/contract.
func (h *handler) contract(w http.ResponseWriter, _ *http.Request, _ *mockserver.Call) error {
	return writeValue(w, http.StatusOK, h.contractView())
}
