package main

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

// altConfig chooses how an altServer fills the interface's gaps, and
// which rule, if any, it breaks. The zero value is a correct server with
// 50 pets that differs from petmock in every gap it can: ids from 1000,
// other error codes, a charset in Content-Type, pets without a status, no
// default status, a clamped limit, an empty list for an unknown status,
// 404 for a petId that is not an integer, no Location, no challenge, no
// deprecation headers and no pagination links (pages by ?offset=N).
type altConfig struct {
	pets int // seeded pets; 0 means 50

	// categories are the only categoryIds createPet accepts; others get
	// 400. Seeded pets use them. Nil accepts any int64, and seeded pets
	// use category 7.
	categories []int64
	// paging is where a page's rel="next" link leads, when more pets
	// follow, with ?offset=N: another path of the deployment, which then
	// serves pages too (such as /v1/pages/pets), or another origin (such
	// as https://pages.example/v1/pets). "" sends no link.
	paging string
	// pagingGone makes the paging path answer 404, as a link to a path
	// that was never served.
	pagingGone bool
	// lag keeps a created pet out of every answer for this long.
	lag time.Duration
	// rateLimit answers every rateLimit-th request 429 with Retry-After:
	// 1, and every request that comes before that second has passed.
	rateLimit int
	// churn plays another client: the first time each seeded pet is read
	// through getPet, it has just been changed (another status) or
	// removed, one after the other.
	churn bool
	// deprecation sends Deprecation and Sunset on getPet answers, RFC
	// 9745 and RFC 8594, with a deprecation date other than petmock's.
	deprecation bool

	// Faults: each breaks one rule of the interface.

	ignoreBadStatus    bool   // createPet ignores a status string outside PetStatus
	sameID             bool   // every created pet gets the same id
	loseStatus         string // a pet created with this status is kept as available
	dropStatus         string // status=dropStatus lists no pet
	statusIgnoresLimit bool   // a list with a status filter holds every pet of it
	capLimit           int    // a page holds at most capLimit pets, whatever limit asks
}

// altPet is a pet as an altServer keeps it.
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

// altServer is a Petstore written apart from petmock, to show that the
// suite judges a deployment by the interface and not by petmock's
// choices.
type altServer struct {
	cfg altConfig

	mu       sync.Mutex // guards pets, nextID, read, touched, requests and retryAt
	pets     map[int64]altPet
	nextID   int64
	read     int            // seeded pets read so far, for churn
	touched  map[int64]bool // seeded pets churn has played with
	requests int
	retryAt  time.Time // a request before it gets 429
}

// newAltServer returns an altServer with its seeded pets: ids from 1000,
// every tenth without a status.
func newAltServer(cfg altConfig) *altServer {
	if cfg.pets == 0 {
		cfg.pets = 50
	}
	s := &altServer{cfg: cfg, pets: map[int64]altPet{}, touched: map[int64]bool{}, nextID: 1000}
	for i := range cfg.pets {
		p := altPet{id: s.nextID, name: fmt.Sprintf("alt-%d", i), categoryID: 7, seeded: true}
		if len(cfg.categories) > 0 {
			p.categoryID = cfg.categories[i%len(cfg.categories)]
		}
		if i%10 != 9 {
			p.status = statuses[i%len(statuses)]
		}
		s.pets[p.id] = p
		s.nextID++
	}
	return s
}

// alt returns a fault that replaces petmock with an altServer.
func alt(cfg altConfig) fault {
	return func(testing.TB, http.Handler) http.Handler { return newAltServer(cfg) }
}

func (s *altServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.rateLimited(w) {
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+testKey {
		altError(w, http.StatusUnauthorized, "E_AUTH", "a valid bearer key is required")
		return
	}
	path := r.URL.Path
	switch {
	case path == "/v1/pets" && r.Method == http.MethodGet,
		path == s.cfg.paging && r.Method == http.MethodGet && !s.cfg.pagingGone:
		s.list(w, r)
	case path == "/v1/pets" && r.Method == http.MethodPost:
		s.create(w, r)
	case strings.HasPrefix(path, "/v1/pets/") && r.Method == http.MethodGet:
		s.get(w, r, strings.TrimPrefix(path, "/v1/pets/"))
	default:
		altError(w, http.StatusNotFound, "E_NO_ROUTE", "no such operation")
	}
}

// rateLimited answers 429 when the request comes too soon.
func (s *altServer) rateLimited(w http.ResponseWriter) bool {
	if s.cfg.rateLimit == 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	now := time.Now()
	if s.requests%s.cfg.rateLimit == 0 {
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
func (s *altServer) list(w http.ResponseWriter, r *http.Request) {
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
	if s.cfg.statusIgnoresLimit && status != "" {
		limit = len(s.pets)
	}
	if s.cfg.capLimit > 0 {
		limit = min(limit, s.cfg.capLimit)
	}

	s.mu.Lock()
	var all []altPet
	now := time.Now()
	for _, p := range s.pets {
		if now.Before(p.visible) || (q.Has("status") && p.status != status) || (status != "" && status == s.cfg.dropStatus) {
			continue
		}
		all = append(all, p)
	}
	s.mu.Unlock()
	slices.SortFunc(all, func(a, b altPet) int { return int(a.id - b.id) })

	page := all[min(offset, len(all)):min(offset+limit, len(all))]
	if more := offset+limit < len(all); more && s.cfg.paging != "" {
		next := url.Values{"offset": {strconv.Itoa(offset + limit)}, "limit": {strconv.Itoa(limit)}}
		if q.Has("status") {
			next.Set("status", status)
		}
		w.Header().Set("Link", "<"+s.cfg.paging+"?"+next.Encode()+`>; rel="next"`)
	}
	altJSON(w, http.StatusOK, page)
}

// create serves createPet: no default status, no Location.
func (s *altServer) create(w http.ResponseWriter, r *http.Request) {
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
	if s.cfg.categories != nil && !slices.Contains(s.cfg.categories, id) {
		altError(w, http.StatusBadRequest, "E_CATEGORY", fmt.Sprintf("no category %d", id))
		return
	}
	p.categoryID = id
	if raw, ok := body["status"]; ok {
		err := json.Unmarshal(raw, &p.status)
		if err == nil && s.cfg.ignoreBadStatus && !slices.Contains(statuses, p.status) {
			p.status = ""
		} else if err != nil || !slices.Contains(statuses, p.status) {
			altError(w, http.StatusBadRequest, "E_STATUS", "status must be available, pending or sold")
			return
		}
	}
	p.visible = time.Now().Add(s.cfg.lag)

	s.mu.Lock()
	p.id = s.nextID
	s.nextID++
	if s.cfg.sameID {
		p.id = 4242
	}
	kept := p
	if p.status != "" && p.status == s.cfg.loseStatus {
		kept.status = "available"
	}
	s.pets[p.id] = kept
	s.mu.Unlock()
	altJSON(w, http.StatusCreated, p)
}

// get serves getPet: 404 for a petId that is not an integer too.
func (s *altServer) get(w http.ResponseWriter, r *http.Request, rawID string) {
	if s.cfg.deprecation {
		w.Header().Set("Deprecation", "@1704067200") // 1 January 2024
		w.Header().Set("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT")
	}
	id, err := strconv.ParseInt(rawID, 10, 64)
	s.mu.Lock()
	p, ok := s.pets[id]
	if ok && p.seeded && s.cfg.churn && !s.touched[id] {
		s.touched[id] = true
		s.read++
		if s.read%2 == 1 {
			p.status = statuses[(slices.Index(statuses, p.status)+1)%len(statuses)]
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

// altError writes an Error body with codes of altServer's own.
func altError(w http.ResponseWriter, status int, code, message string) {
	altJSON(w, status, map[string]any{"code": code, "message": message, "status": status})
}
