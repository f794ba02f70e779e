package conformancetest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// A Fault turns a correct server, next, into one that breaks a rule, or
// replaces it with a server of its own.
type Fault func(tb testing.TB, next http.Handler) http.Handler

// Statuses are the PetStatus values of the Petstore's document.
var Statuses = []string{"available", "pending", "sold"}

// RewriteRequest returns a Fault that changes each request before next
// sees it.
func RewriteRequest(edit func(r *http.Request)) Fault {
	return func(_ testing.TB, next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r = r.Clone(r.Context())
			edit(r)
			next.ServeHTTP(w, r)
		})
	}
}

// RewriteResponse returns a Fault that changes each answer of next before
// it is sent.
func RewriteResponse(edit func(r *http.Request, rec *httptest.ResponseRecorder)) Fault {
	return func(_ testing.TB, next http.Handler) http.Handler {
		return Intercept(next, edit)
	}
}

// Intercept serves r with next into a recorder, lets edit change the
// recorded answer, then sends it.
func Intercept(next http.Handler, edit func(r *http.Request, rec *httptest.ResponseRecorder)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		edit(r, rec)
		for name, values := range rec.Header() {
			w.Header()[name] = values
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	})
}

// SetQuery returns an edit that rewrites the query of a listPets request.
func SetQuery(edit func(q url.Values)) func(r *http.Request) {
	return func(r *http.Request) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/pets") {
			return
		}
		q := r.URL.Query()
		edit(q)
		r.URL.RawQuery = q.Encode()
	}
}

// EditJSON decodes the recorded body, lets edit change it, and encodes it
// again. Numbers are kept as sent.
func EditJSON(rec *httptest.ResponseRecorder, edit func(v any) any) {
	dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return
	}
	b, _ := json.Marshal(edit(v))
	rec.Body = bytes.NewBuffer(b)
}

// ForEachPet returns an edit of EditJSON that applies edit to the pet, or
// to every pet of a list.
func ForEachPet(edit func(p map[string]any)) func(v any) any {
	return func(v any) any {
		switch v := v.(type) {
		case []any:
			for _, p := range v {
				if p, ok := p.(map[string]any); ok {
					edit(p)
				}
			}
		case map[string]any:
			if _, isPet := v["categoryId"]; isPet {
				edit(v)
			}
		}
		return v
	}
}

// IsList reports whether r is a request of listPets.
func IsList(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/pets")
}

// IsGetPet reports whether r is a request of getPet.
func IsGetPet(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/pets/")
}

// DropMember returns an edit that removes a member from JSON request
// bodies.
func DropMember(name string) func(r *http.Request) {
	return func(r *http.Request) {
		if r.Body == nil || r.Method == http.MethodGet {
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) == nil {
			delete(m, name)
			body, _ = json.Marshal(m)
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
}

// DefaultsOnReplace returns an edit that gives a replace's body (PUT) the
// values of defaults it leaves out: a deployment that fills in defaults of
// its own on a replace, where the document names none or leaves them
// open.
func DefaultsOnReplace(defaults map[string]any) func(r *http.Request) {
	return func(r *http.Request) {
		if r.Method != http.MethodPut || r.Body == nil {
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			for k, v := range defaults {
				if _, ok := m[k]; !ok {
					m[k] = v
				}
			}
			body, _ = json.Marshal(m)
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
}

// ReplaceBody returns an edit that replaces the body of requests of a
// method.
func ReplaceBody(method, body string) func(r *http.Request) {
	return func(r *http.Request) {
		if r.Method == method {
			r.Body, r.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
		}
	}
}

// Lagging keeps each item created out of the reads of it for lag: a
// deployment whose reads catch up with its writes a little later, as the
// interface allows. A read it would refuse, such as one without a key, is
// refused all the same.
func Lagging(next http.Handler, lag time.Duration) http.Handler {
	var mu sync.Mutex                 // guards created
	created := map[string]time.Time{} // path of an item, to when it was created
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		at, ok := created[r.URL.Path]
		mu.Unlock()
		Intercept(next, func(r *http.Request, rec *httptest.ResponseRecorder) {
			if ok && r.Method == http.MethodGet && rec.Code == http.StatusOK && time.Since(at) < lag {
				rec.Header().Set("Content-Type", "application/json")
				rec.Header().Del("Location")
				rec.Code = http.StatusNotFound
				rec.Body = bytes.NewBufferString(`{"code":"E404","message":"not yet","status":404}`)
				return
			}
			if r.Method == http.MethodPost && rec.Code == http.StatusCreated {
				if loc := rec.Header().Get("Location"); loc != "" {
					if i := strings.Index(loc, "/v1/"); i >= 0 {
						mu.Lock()
						created[loc[i:]] = time.Now()
						mu.Unlock()
					}
				}
			}
		}).ServeHTTP(w, r)
	})
}

// Forgetting loses each item created after, reading it 404 from then on:
// a deployment whose store drops a write a moment after taking it. Only
// reads that would succeed are answered 404.
func Forgetting(next http.Handler, after time.Duration) http.Handler {
	var mu sync.Mutex                 // guards created
	created := map[string]time.Time{} // path of an item, to when it was created
	return Intercept(next, func(r *http.Request, rec *httptest.ResponseRecorder) {
		mu.Lock()
		defer mu.Unlock()
		if at, ok := created[r.URL.Path]; ok && r.Method == http.MethodGet && rec.Code == http.StatusOK && time.Since(at) > after {
			rec.Header().Set("Content-Type", "application/json")
			rec.Code = http.StatusNotFound
			rec.Body = bytes.NewBufferString(`{"code":"E404","message":"no such item","status":404}`)
			return
		}
		if loc := rec.Header().Get("Location"); r.Method == http.MethodPost && rec.Code == http.StatusCreated && loc != "" {
			if i := strings.Index(loc, "/v1/"); i >= 0 {
				created[loc[i:]] = time.Now()
			}
		}
	})
}
