package conformancetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// AltConfig chooses how an AltServer fills the interface's gaps, and
// which rule, if any, it breaks. The zero value is a correct server with
// 50 pets that differs from petmock in every gap it can: ids from 1000,
// other error codes, a charset in Content-Type, pets without a status, no
// default status, a clamped limit, an empty list for an unknown status,
// 404 for a petId that is not an integer, no Location, no challenge, no
// deprecation headers and no pagination links (pages by ?offset=N).
type AltConfig struct {
	// Pets is the number of seeded pets; 0 means 50.
	Pets int

	// Categories are the only categoryIds createPet accepts; others get
	// 400. Seeded pets use them. Nil accepts any int64, and seeded pets
	// use category 7.
	Categories []int64
	// Paging is where a page's rel="next" link leads, when more pets
	// follow, with ?offset=N: another path of the deployment, which then
	// serves pages too (such as /v1/pages/pets), or another origin (such
	// as https://pages.example/v1/pets). "" sends no link.
	Paging string
	// PagingGone makes the paging path answer 404, as a link to a path
	// that was never served.
	PagingGone bool
	// Lag keeps a created pet out of every answer for this long.
	Lag time.Duration
	// RateLimit answers every RateLimit-th request 429 with Retry-After:
	// 1, and every request that comes before that second has passed.
	RateLimit int
	// Churn plays another client: the first time each seeded pet is read
	// through getPet, it has just been changed (another status) or
	// removed, one after the other.
	Churn bool
	// Deprecation sends Deprecation and Sunset on getPet answers, RFC
	// 9745 and RFC 8594, with a deprecation date other than petmock's.
	Deprecation bool
	// Thinning plays another client that, on every Thinning-th list,
	// removes the seeded pet of the lowest id left: with pages by offset,
	// a walk meanwhile may then miss a pet.
	Thinning int

	// Faults: each breaks one rule of the interface.

	// IgnoreBadStatus makes createPet ignore a status string outside
	// PetStatus.
	IgnoreBadStatus bool
	// SameID gives every created pet the same id.
	SameID bool
	// LoseStatus keeps a pet created with this status as available.
	LoseStatus string
	// DropStatus lists no pet for status=DropStatus.
	DropStatus string
	// StatusIgnoresLimit makes a list with a status filter hold every pet
	// of it.
	StatusIgnoresLimit bool
	// CapLimit makes a page hold at most CapLimit pets, whatever limit
	// asks.
	CapLimit int
	// PageFault breaks the next links, with Paging set: "skip" leaves a
	// pet out between pages, "repeat" shows a pet again, "loop" links a
	// third page back to the second, "lose-filter" leaves the status out
	// of the link, "link-last" links the last page to an empty one,
	// "grow-limit" asks the next page for more than the first, and
	// "skip-once" leaves out the one pet at a page's end halfway down the
	// list, whose cursor skips it.
	PageFault string
}

// altPet is a pet as an AltServer keeps it.
type altPet struct {
	id         int64
	name       string
	categoryID int64
	status     string // "" for none
	seeded     bool
	visible    time.Time // when a read may first see it
}

// MarshalJSON writes p as a Pet, without a status if it has none.
func (p altPet) MarshalJSON() ([]byte, error) {
	m := map[string]any{"id": p.id, "name": p.name, "categoryId": p.categoryID}
	if p.status != "" {
		m["status"] = p.status
	}
	return json.Marshal(m)
}

// AltServer is a Petstore written apart from petmock, to show that the
// judge holds a deployment to the interface and not to petmock's choices.
// It accepts Key only.
type AltServer struct {
	cfg AltConfig

	mu       sync.Mutex // guards pets, nextID, read, touched, requests, lists and retryAt
	pets     map[int64]altPet
	nextID   int64
	read     int            // seeded pets read so far, for churn
	touched  map[int64]bool // seeded pets churn has played with
	requests int
	lists    int       // lists served, for thinning
	retryAt  time.Time // a request before it gets 429
}

// NewAltServer returns an AltServer with its seeded pets: ids from 1000,
// every tenth without a status.
func NewAltServer(cfg AltConfig) *AltServer {
	if cfg.Pets == 0 {
		cfg.Pets = 50
	}
	s := &AltServer{cfg: cfg, pets: map[int64]altPet{}, touched: map[int64]bool{}, nextID: 1000}
	for i := range cfg.Pets {
		p := altPet{id: s.nextID, name: fmt.Sprintf("alt-%d", i), categoryID: 7, seeded: true}
		if len(cfg.Categories) > 0 {
			p.categoryID = cfg.Categories[i%len(cfg.Categories)]
		}
		if i%10 != 9 {
			p.status = Statuses[i%len(Statuses)]
		}
		s.pets[p.id] = p
		s.nextID++
	}
	return s
}

// Alt returns a Fault that replaces petmock with an AltServer.
func Alt(cfg AltConfig) Fault {
	return func(testing.TB, http.Handler) http.Handler { return NewAltServer(cfg) }
}

// ServeHTTP serves listPets, createPet and getPet, as AltConfig says.
func (s *AltServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.rateLimited(w) {
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+Key {
		altError(w, http.StatusUnauthorized, "E_AUTH", "a valid bearer key is required")
		return
	}
	path := r.URL.Path
	switch {
	case path == "/v1/pets" && r.Method == http.MethodGet,
		path == s.cfg.Paging && r.Method == http.MethodGet && !s.cfg.PagingGone:
		s.list(w, r)
	case path == "/v1/pets" && r.Method == http.MethodPost:
		s.create(w, r)
	case strings.HasPrefix(path, "/v1/pets/") && r.Method == http.MethodGet:
		s.get(w, strings.TrimPrefix(path, "/v1/pets/"))
	default:
		altError(w, http.StatusNotFound, "E_NO_ROUTE", "no such operation")
	}
}

// rateLimited answers 429 when the request comes too soon.
func (s *AltServer) rateLimited(w http.ResponseWriter) bool {
	if s.cfg.RateLimit == 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	now := time.Now()
	if s.requests%s.cfg.RateLimit == 0 {
		s.retryAt = now.Add(time.Second)
	} else if !now.Before(s.retryAt) {
		return false
	}
	w.Header().Set("Retry-After", "1")
	altError(w, http.StatusTooManyRequests, "E_SLOW_DOWN", "too many requests")
	return true
}

// list serves listPets: pages by ?offset=N, a clamped limit, an empty
// list for a status outside PetStatus.
func (s *AltServer) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 20
	if v, ok := q["limit"]; ok {
		n, err := strconv.Atoi(v[0])
		if err == nil {
			limit = min(max(n, 1), 100)
		}
	}
	offset, _ := strconv.Atoi(q.Get("offset"))
	offset = max(offset, 0)
	status := q.Get("status")

	s.mu.Lock()
	s.lists++
	if s.cfg.Thinning > 0 && s.lists%s.cfg.Thinning == 0 {
		s.thin()
	}
	if s.cfg.StatusIgnoresLimit && status != "" {
		limit = len(s.pets)
	}
	if s.cfg.CapLimit > 0 {
		limit = min(limit, s.cfg.CapLimit)
	}
	var all []altPet
	now := time.Now()
	for _, p := range s.pets {
		if now.Before(p.visible) || (q.Has("status") && p.status != status) || (status != "" && status == s.cfg.DropStatus) {
			continue
		}
		all = append(all, p)
	}
	s.mu.Unlock()
	slices.SortFunc(all, func(a, b altPet) int { return int(a.id - b.id) })

	page := all[min(offset, len(all)):min(offset+limit, len(all))]
	more := offset+limit < len(all)
	if (more || s.cfg.PageFault == "link-last" && offset < len(all)) && s.cfg.Paging != "" {
		next := url.Values{"offset": {strconv.Itoa(offset + limit)}, "limit": {strconv.Itoa(limit)}}
		switch s.cfg.PageFault {
		case "skip":
			next.Set("offset", strconv.Itoa(offset+limit+1))
		case "repeat":
			next.Set("offset", strconv.Itoa(offset+limit-1))
		case "loop":
			if offset >= 2*limit {
				next.Set("offset", strconv.Itoa(offset-limit))
			}
		case "grow-limit":
			next.Set("limit", strconv.Itoa(limit*2+1))
		case "skip-once":
			if half := len(all) / 2; offset < half && half <= offset+limit {
				next.Set("offset", strconv.Itoa(offset+limit+1))
			}
		}
		if q.Has("status") && s.cfg.PageFault != "lose-filter" {
			next.Set("status", status)
		}
		w.Header().Set("Link", "<"+s.cfg.Paging+"?"+next.Encode()+`>; rel="next"`)
	}
	altJSON(w, http.StatusOK, page)
}

// thin removes the seeded pet of the lowest id left, as another client
// might. s.mu is held.
func (s *AltServer) thin() {
	var lowest int64 = -1
	for id, p := range s.pets {
		if p.seeded && (lowest < 0 || id < lowest) {
			lowest = id
		}
	}
	if lowest >= 0 {
		delete(s.pets, lowest)
	}
}

// create serves createPet: no default status, no Location.
func (s *AltServer) create(w http.ResponseWriter, r *http.Request) {
	var body map[string]json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body == nil {
		altError(w, http.StatusBadRequest, "E_BODY", "the body must be a JSON object")
		return
	}
	var p altPet
	if err := json.Unmarshal(body["name"], &p.name); err != nil || body["name"][0] != '"' {
		altError(w, http.StatusBadRequest, "E_NAME", "name must be a string")
		return
	}
	id, err := strconv.ParseInt(string(body["categoryId"]), 10, 64)
	if err != nil {
		altError(w, http.StatusBadRequest, "E_CATEGORY", "categoryId must be an int64")
		return
	}
	if s.cfg.Categories != nil && !slices.Contains(s.cfg.Categories, id) {
		altError(w, http.StatusBadRequest, "E_CATEGORY", fmt.Sprintf("no category %d", id))
		return
	}
	p.categoryID = id
	if raw, ok := body["status"]; ok {
		err := json.Unmarshal(raw, &p.status)
		if err == nil && s.cfg.IgnoreBadStatus && !slices.Contains(Statuses, p.status) {
			p.status = ""
		} else if err != nil || !slices.Contains(Statuses, p.status) {
			altError(w, http.StatusBadRequest, "E_STATUS", "status must be available, pending or sold")
			return
		}
	}
	p.visible = time.Now().Add(s.cfg.Lag)

	s.mu.Lock()
	p.id = s.nextID
	s.nextID++
	if s.cfg.SameID {
		p.id = 4242
	}
	kept := p
	if p.status != "" && p.status == s.cfg.LoseStatus {
		kept.status = "available"
	}
	s.pets[p.id] = kept
	s.mu.Unlock()
	altJSON(w, http.StatusCreated, p)
}

// get serves getPet: 404 for a petId that is not an integer too.
func (s *AltServer) get(w http.ResponseWriter, rawID string) {
	if s.cfg.Deprecation {
		w.Header().Set("Deprecation", "@1704067200") // 1 January 2024
		w.Header().Set("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT")
	}
	id, err := strconv.ParseInt(rawID, 10, 64)
	s.mu.Lock()
	p, ok := s.pets[id]
	if ok && p.seeded && s.cfg.Churn && !s.touched[id] {
		s.touched[id] = true
		s.read++
		if s.read%2 == 1 {
			p.status = Statuses[(slices.Index(Statuses, p.status)+1)%len(Statuses)]
			s.pets[id] = p
		} else {
			delete(s.pets, id)
			ok = false
		}
	}
	s.mu.Unlock()
	if err != nil || !ok || time.Now().Before(p.visible) {
		altError(w, http.StatusNotFound, "E_NO_PET", "no such pet")
		return
	}
	altJSON(w, http.StatusOK, p)
}

// altJSON writes v as JSON, with a charset; a nil list is [].
func altJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	if string(b) == "null" {
		b = []byte("[]")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b)
}

// altError writes an Error body with codes of AltServer's own.
func altError(w http.ResponseWriter, status int, code, message string) {
	altJSON(w, status, map[string]any{"code": code, "message": message, "status": status})
}
