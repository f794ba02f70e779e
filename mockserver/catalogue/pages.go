package catalogue

import (
	"net/http"
	"sync"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
)

// A list asked again and again, as a page a client polls, is answered with
// the same bytes as long as the store holds the same state: the page is
// kept, with its Link, for the state of the store it was made of, and
// answered again only to a request of the same operation, path and query,
// sent to the same origin (which the Link names), while the store's state
// is that very one. Every write makes a new state, so that a page kept is
// never stale: a write, a reset, a save undone or a reload each make the
// next request build its page anew. The kept bytes are never written to
// again, so that the journal keeps them rather than a copy.

// maxKeptPages and maxKeptBytes bound the pages kept of a resource, and
// their bytes: past either, they are let go and kept anew, so that a
// document of a hundred resources listed in every way keeps a few MiB.
const (
	maxKeptPages = 64
	maxKeptBytes = 256 << 10
)

// pageKey names the requests that are answered the same page of one state
// of a store.
type pageKey struct {
	op                        *spec.Operation
	path, query, scheme, host string
}

// keptPage is a page answered, and the state of the store it was made of.
type keptPage struct {
	state  store.State
	body   []byte
	length []string // its Content-Length
	link   []string // the Link header's value; nil for none
}

// pages are the pages kept of a resource.
type pages struct {
	mu    sync.Mutex
	kept  map[pageKey]*keptPage
	bytes int // of the pages kept
}

// keyOf returns the key of the page r asks for.
func keyOf(r *http.Request, op *spec.Operation) pageKey {
	scheme, host := edge.Origin(r)
	return pageKey{op: op, path: r.URL.Path, query: r.URL.RawQuery, scheme: scheme, host: host}
}

// find returns the page kept for k that v reads, or nil.
func (p *pages) find(k pageKey, v store.PageView) *keptPage {
	p.mu.Lock()
	kp := p.kept[k]
	p.mu.Unlock()
	if kp == nil || !v.Reads(kp.state) {
		return nil
	}
	return kp
}

// keep keeps kp for k.
func (p *pages) keep(k pageKey, kp *keptPage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.kept == nil || len(p.kept) >= maxKeptPages || p.bytes+len(kp.body) > maxKeptBytes {
		p.kept, p.bytes = make(map[pageKey]*keptPage), 0
	}
	if old := p.kept[k]; old != nil {
		p.bytes -= len(old.body)
	}
	p.kept[k] = kp
	p.bytes += len(kp.body)
}
