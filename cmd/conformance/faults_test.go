package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// A fault turns a correct server into one that breaks one rule.
type fault func(tb testing.TB, next http.Handler) http.Handler

// rewriteRequest changes each request before petmock sees it.
func rewriteRequest(edit func(r *http.Request)) fault {
	return func(_ testing.TB, next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r = r.Clone(r.Context())
			edit(r)
			next.ServeHTTP(w, r)
		})
	}
}

// rewriteResponse changes each answer of petmock before it is sent.
func rewriteResponse(edit func(r *http.Request, rec *httptest.ResponseRecorder)) fault {
	return func(_ testing.TB, next http.Handler) http.Handler {
		return intercept(next, edit)
	}
}

// intercept serves r with next into a recorder, lets edit change the
// recorded answer, then sends it.
func intercept(next http.Handler, edit func(r *http.Request, rec *httptest.ResponseRecorder)) http.Handler {
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

// setQuery rewrites the query of a listPets request.
func setQuery(edit func(q url.Values)) func(r *http.Request) {
	return func(r *http.Request) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/pets") {
			return
		}
		q := r.URL.Query()
		edit(q)
		r.URL.RawQuery = q.Encode()
	}
}

// editJSON decodes the recorded body, lets edit change it, and encodes it
// again. Numbers are kept as sent.
func editJSON(rec *httptest.ResponseRecorder, edit func(v any) any) {
	dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return
	}
	b, _ := json.Marshal(edit(v))
	rec.Body = bytes.NewBuffer(b)
}

// forEachPet applies edit to the pet or every pet of a pet list body.
func forEachPet(edit func(p map[string]any)) func(v any) any {
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

func isList(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/pets")
}

func isGetPet(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/pets/")
}

var statuses = []string{"available", "pending", "sold"}

// brokenServers are servers that each break one rule of the interface,
// with the check that must fail and the rule it must name.
var brokenServers = []struct {
	name  string
	fault fault
	args  []string // of the run, beside the defaults
	check string   // part of the name of a check that must fail
	rule  string   // id of the rule its failure must name
}{
	{
		name: "accepts any bearer key",
		fault: rewriteRequest(func(r *http.Request) {
			if strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
				r.Header.Set("Authorization", "Bearer "+testKey)
			}
		}),
		check: "with an invalid key", rule: "auth.required",
	},
	{
		name: "serves requests without a key",
		fault: rewriteRequest(func(r *http.Request) {
			if r.Header.Get("Authorization") == "" {
				r.Header.Set("Authorization", "Bearer "+testKey)
			}
		}),
		check: "with no Authorization header", rule: "auth.required",
	},
	{
		name: "accepts the key under the Basic scheme",
		fault: rewriteRequest(func(r *http.Request) {
			if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Basic "); ok {
				r.Header.Set("Authorization", "Bearer "+v)
			}
		}),
		check: "under the Basic scheme", rule: "auth.required",
	},
	{
		name: "accepts the bare key",
		fault: rewriteRequest(func(r *http.Request) {
			if v := r.Header.Get("Authorization"); v != "" && !strings.Contains(v, " ") {
				r.Header.Set("Authorization", "Bearer "+v)
			}
		}),
		check: "bare key", rule: "auth.required",
	},
	{
		name:  "ignores limit",
		fault: rewriteRequest(setQuery(func(q url.Values) { q.Del("limit") })),
		check: "honours limit", rule: "limit.honoured",
	},
	{
		name: "returns one pet more than limit",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if isList(r) && rec.Code == http.StatusOK {
				editJSON(rec, func(v any) any {
					extra := map[string]any{"id": json.Number("900000001"), "name": "Extra", "categoryId": json.Number("1"), "status": "available"}
					return append(v.([]any), extra)
				})
			}
		}),
		check: "honours limit", rule: "limit.honoured",
	},
	{
		name: "returns 50 pets without limit",
		fault: rewriteRequest(setQuery(func(q url.Values) {
			if !q.Has("limit") {
				q.Set("limit", "50")
			}
		})),
		check: "without limit", rule: "limit.default",
	},
	{
		name: "answers 500 to limit=0",
		fault: func(_ testing.TB, next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if isList(r) && r.URL.Query().Get("limit") == "0" {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusInternalServerError)
					w.Write([]byte(`{"code":"internal","message":"division by zero","status":500}`))
					return
				}
				next.ServeHTTP(w, r)
			})
		},
		check: "limit=0", rule: "contract.response",
	},
	{
		// A catalogue of 150 pets, all of them sent for limit=1000.
		name: "answers limit=1000 with more than 100 pets",
		fault: func(tb testing.TB, _ http.Handler) http.Handler {
			srv, err := mockserver.New(mockserver.Config{APIKeys: []string{testKey}, Catalogue: &mockserver.Catalogue{Seed: 1, Count: 150}})
			if err != nil {
				tb.Fatal(err)
			}
			return intercept(srv, func(r *http.Request, rec *httptest.ResponseRecorder) {
				if isList(r) && r.URL.Query().Get("limit") == "1000" {
					var all bytes.Buffer
					srv.Export(&all)
					rec.Body = &all
					rec.Code = http.StatusOK
				}
			})
		},
		check: "limit=1000", rule: "limit.invalid",
	},
	{
		// About 120 pets of each status, all in one page of limit=100.
		name:  "ignores limit when a status filter is given",
		fault: alt(altConfig{pets: 400, statusIgnoresLimit: true}),
		check: "returns only pets of the status asked for", rule: "limit.honoured",
	},
	{
		// The unfiltered page of limit=100 is the limit checks' census,
		// and it is capped too.
		name:  "caps every page at 50 pets, whatever limit asks",
		fault: alt(altConfig{pets: 150, capLimit: 50}),
		check: "returns a full page when more pets exist", rule: "limit.honoured",
	},
	{
		name:  "ignores the status filter",
		fault: rewriteRequest(setQuery(func(q url.Values) { q.Del("status") })),
		check: "returns only pets of the status asked for", rule: "status.filter",
	},
	{
		name: "ignores a status outside PetStatus",
		fault: rewriteRequest(setQuery(func(q url.Values) {
			if q.Has("status") && !slices.Contains(statuses, q.Get("status")) {
				q.Del("status")
			}
		})),
		check: "status outside PetStatus", rule: "status.unknown",
	},
	{
		name: "does not keep created pets",
		fault: func(tb testing.TB, next http.Handler) http.Handler {
			scratch := newPetmock(tb) // created pets go here, and are lost
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost {
					scratch.ServeHTTP(w, r)
					return
				}
				next.ServeHTTP(w, r)
			})
		},
		check: "getPet then returns unchanged", rule: "create.read-back",
	},
	{
		// Each create overwrites the pet before, which reads back as the
		// last one created.
		name:  "gives every created pet the same id",
		fault: alt(altConfig{sameID: true}),
		check: "different ids", rule: "create.unique-id",
	},
	{
		// A fault of one status is caught whatever the seed: with seed 2,
		// a check of one random status would look at another.
		name:  "keeps a pet created as sold as available",
		fault: alt(altConfig{loseStatus: "sold"}),
		args:  []string{"--seed", "2"},
		check: "getPet then returns unchanged status sold", rule: "create.read-back",
	},
	{
		// Read-only, so that no created pet is needed to see it.
		name:  "lists no pet for status=sold",
		fault: alt(altConfig{dropStatus: "sold"}),
		args:  []string{"--read-only"},
		check: "when the unfiltered list shows some status=sold", rule: "status.found",
	},
	{
		name: "reads back another pet",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if isGetPet(r) && rec.Code == http.StatusOK {
				editJSON(rec, forEachPet(func(p map[string]any) {
					id, _ := p["id"].(json.Number).Int64()
					p["id"] = json.Number(strconv.FormatInt(id+1, 10))
				}))
			}
		}),
		check: "getPet then returns unchanged", rule: "create.read-back",
	},
	{
		name: "creates a pet without a name",
		fault: func(_ testing.TB, next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost {
					var body bytes.Buffer
					body.ReadFrom(r.Body)
					b := body.Bytes()
					if !bytes.Contains(b, []byte(`"name"`)) && bytes.HasPrefix(b, []byte(`{"categoryId"`)) {
						b = append([]byte(`{"name":"",`), b[1:]...)
					}
					r = r.Clone(r.Context())
					r.Body = io.NopCloser(bytes.NewReader(b))
					r.ContentLength = int64(len(b))
				}
				next.ServeHTTP(w, r)
			})
		},
		check: "name missing", rule: "create.invalid-body",
	},
	{
		// Unknown categories are refused too, so a body with one fault
		// gets its 400 for that fault only if its category is known.
		name:  "ignores a status outside PetStatus, and knows only its own categories",
		fault: alt(altConfig{categories: []int64{100, 101, 102}, ignoreBadStatus: true}),
		check: "status outside PetStatus", rule: "create.invalid-body",
	},
	{
		name: "rounds categoryId through a float64",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code < 300 {
				editJSON(rec, forEachPet(func(p map[string]any) {
					f, _ := p["categoryId"].(json.Number).Float64()
					p["categoryId"] = f
				}))
			}
		}),
		check: "the largest int64 categoryId", rule: "create.echo",
	},
	{
		name: "answers 404 with a body that is not an Error",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code == http.StatusNotFound {
				rec.Body = bytes.NewBufferString(`{"error":"not found"}`)
			}
		}),
		check: "404", rule: "contract.response",
	},
	{
		name: "sends an Error whose status differs from the HTTP status",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code == http.StatusUnauthorized {
				editJSON(rec, func(v any) any {
					v.(map[string]any)["status"] = 403
					return v
				})
			}
		}),
		check: "answers 401", rule: "errors.shape",
	},
	{
		name: "sends an Error with an empty code",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code == http.StatusNotFound {
				editJSON(rec, func(v any) any {
					v.(map[string]any)["code"] = ""
					return v
				})
			}
		}),
		check: "404", rule: "errors.shape",
	},
	{
		name: "names the wrong day in Sunset",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Header().Get("Sunset") != "" {
				rec.Header().Set("Sunset", "Fri, 06 Dec 2030 00:00:00 GMT")
			}
		}),
		check: "Sunset header, where present", rule: "deprecation.sunset",
	},
	{
		name: "deprecates after the Sunset",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Header().Get("Deprecation") != "" {
				rec.Header().Set("Deprecation", "@1922745600") // 2030-12-06, a day after the Sunset
			}
		}),
		check: "Deprecation header, where present", rule: "deprecation.deprecation",
	},
	{
		name: "retires getPet before its sunset",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if isGetPet(r) && rec.Code == http.StatusOK {
				rec.Code = http.StatusGone
				rec.Body = bytes.NewBufferString(`{"code":"gone","message":"getPet was removed","status":410}`)
			}
		}),
		// 410 is documented (for after the sunset), so the answer fits
		// the document; what breaks is that getPet must still work.
		check: "answers 200 with a listed pet", rule: "get.pet",
	},
	{
		// Not another client's change: a fresh listing disagrees too.
		name: "shows through getPet another status than listPets does",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if isGetPet(r) && rec.Code == http.StatusOK {
				editJSON(rec, forEachPet(func(p map[string]any) {
					p["status"] = statuses[(slices.Index(statuses, p["status"].(string))+1)%len(statuses)]
				}))
			}
		}),
		check: "answers 200 with a listed pet", rule: "get.pet",
	},
	{
		name: "serves lists as text/plain",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if isList(r) {
				rec.Header().Set("Content-Type", "text/plain")
			}
		}),
		check: "returns only pets of the status asked for", rule: "contract.response",
	},
	{
		name: "repeats a pet in a list",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if isList(r) && rec.Code == http.StatusOK {
				editJSON(rec, func(v any) any {
					if list := v.([]any); len(list) > 1 {
						list[len(list)-1] = list[0]
					}
					return v
				})
			}
		}),
		check: "gives each pet one id", rule: "list.unique-ids",
	},
	{
		// Read-only, so that no created pet is needed to see it.
		name: "numbers the pets of a filtered list from 1",
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if isList(r) && r.URL.Query().Has("status") && rec.Code == http.StatusOK {
				n := 0
				editJSON(rec, forEachPet(func(p map[string]any) {
					n++
					p["id"] = n
				}))
			}
		}),
		args:  []string{"--read-only"},
		check: "gives each pet one id", rule: "list.unique-ids",
	},
}

// TestBrokenServersFail judges each broken server and expects the run to
// fail on the rule the server breaks, in the output and in the report.
func TestBrokenServersFail(t *testing.T) {
	t.Parallel()
	for _, tc := range brokenServers {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := serve(t, tc.fault(t, newPetmock(t)))
			// A broken server fails however long the suite waits for a
			// write to show; a short window keeps the run quick.
			r := judge(t, url, append([]string{"--settle", "200ms"}, tc.args...)...)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1\n%s", r.code, r)
			}
			if !strings.Contains(r.stdout, "broken rule "+tc.rule+":") {
				t.Errorf("the output does not name rule %s\n%s", tc.rule, r)
			}
			var named bool
			for _, c := range failures(parseJUnit(t, r.junit)) {
				if strings.Contains(c.Name, tc.check) && strings.Contains(c.Failure.Text+c.Failure.Message, "broken rule "+tc.rule+":") {
					named = true
				}
			}
			if !named {
				var failed []string
				for _, c := range failures(parseJUnit(t, r.junit)) {
					failed = append(failed, c.Name)
				}
				t.Errorf("no failed check named %q breaks rule %s in the JUnit report; failed:\n  %s", tc.check, tc.rule, strings.Join(failed, "\n  "))
			}
			assertNoKey(t, r)
		})
	}
}

// TestChoiceHeaderJudgedOnce: a Deprecation header that is not an RFC
// 9745 date breaks the interface's deprecation rule, once per answer
// judged. By default the document's header schemas that are petmock's
// choices do not apply, so nothing else fails for it; --strict holds the
// server to them as well.
func TestChoiceHeaderJudgedOnce(t *testing.T) {
	t.Parallel()
	url := serve(t, rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
		if isGetPet(r) {
			rec.Header().Set("Deprecation", "true")
		}
	})(t, newPetmock(t)))

	t.Run("default", func(t *testing.T) {
		t.Parallel()
		r := judge(t, url)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1: Deprecation: true is not an RFC 9745 date\n%s", r.code, r)
		}
		for _, c := range failures(parseJUnit(t, r.junit)) {
			if !strings.Contains(c.Failure.Text+c.Failure.Message, "broken rule deprecation.deprecation:") {
				t.Errorf("check %q failed on another rule than deprecation.deprecation", c.Name)
			}
		}
	})
	t.Run("strict", func(t *testing.T) {
		t.Parallel()
		r := judge(t, url, "--strict")
		if r.code != 1 || !strings.Contains(r.stdout, "broken rule contract.response:") {
			t.Errorf("exit %d, want 1 with contract.response: petmock's document gives Deprecation a pattern\n%s", r.code, r)
		}
	})
}
