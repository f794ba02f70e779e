package answer

import "sync"

// An answer made for an operation of no resource is made from the schema
// for each request: a faker seeded for the request, a value drawn from the
// schema and held to it, and its JSON. For an array of objects that is
// several times the cost of a stored page, which is a copy of bytes. The
// same request always gets the same answer, so the answers made for the
// last requests are kept, and a request made again costs a look-up.

// Bounds of the answers kept for each operation: past either, the oldest
// half is let go, until the answer to keep fits.
const (
	maxMadeAnswers = 1024
	maxMadeBytes   = 4 << 20
)

// madeAnswers keeps the bodies made for the last requests of one
// operation, by request key (see requestKey).
type madeAnswers struct {
	mu     sync.RWMutex // guards bodies, order and bytes
	bodies map[string][]byte
	order  []string // the keys, oldest first
	bytes  int
}

// get returns the body kept for key, if any. It is shared: the caller
// must not change it.
func (m *madeAnswers) get(key string) ([]byte, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	body, ok := m.bodies[key]
	return body, ok
}

// put keeps body for key, letting the oldest half go past the bounds. A
// body larger than the bound of bytes is not kept.
func (m *madeAnswers) put(key string, body []byte) {
	if len(body) > maxMadeBytes {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.bodies[key]; ok {
		return
	}
	if m.bodies == nil {
		m.bodies = map[string][]byte{}
	}
	for len(m.order) >= maxMadeAnswers || m.bytes+len(body) > maxMadeBytes {
		half := (len(m.order) + 1) / 2
		for _, k := range m.order[:half] {
			m.bytes -= len(m.bodies[k])
			delete(m.bodies, k)
		}
		m.order = append(m.order[:0:0], m.order[half:]...)
	}
	m.bodies[key] = body
	m.order = append(m.order, key)
	m.bytes += len(body)
}
