package conformancetest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/spec"

	"github.com/petstore/contract/mockserver"
)

// BrokenServer is a server that breaks one rule of the interface, with
// the check that must fail on it and the rule its failure must name.
type BrokenServer struct {
	Name  string
	Fault Fault
	// Args are flags of a run of the conformance command that shows the
	// fault, beside the defaults, such as --read-only.
	Args []string
	// Check is part of the name of a check that must fail.
	Check string
	// Rule is the id of the rule its failure must name.
	Rule string
}

// BrokenServers each break one rule of the interface. Each rule the
// judge holds every Petstore to has at least one.
var BrokenServers = []BrokenServer{
	{
		Name: "accepts any bearer key",
		Fault: RewriteRequest(func(r *http.Request) {
			if strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
				r.Header.Set("Authorization", "Bearer "+Key)
			}
		}),
		Check: "with an invalid key", Rule: "auth.required",
	},
	{
		Name: "serves requests without a key",
		Fault: RewriteRequest(func(r *http.Request) {
			if r.Header.Get("Authorization") == "" {
				r.Header.Set("Authorization", "Bearer "+Key)
			}
		}),
		Check: "with no Authorization header", Rule: "auth.required",
	},
	{
		Name: "accepts the key under the Basic scheme",
		Fault: RewriteRequest(func(r *http.Request) {
			if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Basic "); ok {
				r.Header.Set("Authorization", "Bearer "+v)
			}
		}),
		Check: "under the Basic scheme", Rule: "auth.required",
	},
	{
		Name: "accepts the bare key",
		Fault: RewriteRequest(func(r *http.Request) {
			if v := r.Header.Get("Authorization"); v != "" && !strings.Contains(v, " ") {
				r.Header.Set("Authorization", "Bearer "+v)
			}
		}),
		Check: "bare key", Rule: "auth.required",
	},
	{
		Name: "accepts the key in another case",
		Fault: RewriteRequest(func(r *http.Request) {
			if strings.EqualFold(r.Header.Get("Authorization"), "Bearer "+Key) {
				r.Header.Set("Authorization", "Bearer "+Key)
			}
		}),
		Check: "for a key near the run's the key in another case", Rule: "operation.auth",
	},
	{
		// A key compared by prefix: the key and anything after it.
		Name: "accepts the key with a character added",
		Fault: RewriteRequest(func(r *http.Request) {
			if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && strings.HasPrefix(token, Key) {
				r.Header.Set("Authorization", "Bearer "+Key)
			}
		}),
		Check: "for a key near the run's the key with a character added", Rule: "operation.auth",
	},
	{
		// A key compared as far as the token sent goes.
		Name: "accepts the key without its last character",
		Fault: RewriteRequest(func(r *http.Request) {
			if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && token != "" && strings.HasPrefix(Key, token) {
				r.Header.Set("Authorization", "Bearer "+Key)
			}
		}),
		Check: "for a key near the run's the key without its last character", Rule: "operation.auth",
	},
	{
		Name: "accepts an empty bearer token",
		Fault: RewriteRequest(func(r *http.Request) {
			if strings.TrimSpace(r.Header.Get("Authorization")) == "Bearer" {
				r.Header.Set("Authorization", "Bearer "+Key)
			}
		}),
		Check: "for a key near the run's an empty key", Rule: "operation.auth",
	},
	{
		Name: "accepts the key in the query as access_token",
		Fault: RewriteRequest(func(r *http.Request) {
			if token := r.URL.Query().Get("access_token"); token != "" {
				r.Header.Set("Authorization", "Bearer "+token)
			}
		}),
		Check: "for a key near the run's the key in the query as access_token", Rule: "operation.auth",
	},
	{
		Name:  "ignores limit",
		Fault: RewriteRequest(SetQuery(func(q url.Values) { q.Del("limit") })),
		Check: "honours limit", Rule: "limit.honoured",
	},
	{
		Name: "returns one pet more than limit",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if IsList(r) && rec.Code == http.StatusOK {
				EditJSON(rec, func(v any) any {
					extra := map[string]any{"id": json.Number("900000001"), "name": "Extra", "categoryId": json.Number("1"), "status": "available"}
					return append(v.([]any), extra)
				})
			}
		}),
		Check: "honours limit", Rule: "limit.honoured",
	},
	{
		Name: "returns 50 pets without limit",
		Fault: RewriteRequest(SetQuery(func(q url.Values) {
			if !q.Has("limit") {
				q.Set("limit", "50")
			}
		})),
		Check: "without limit", Rule: "limit.default",
	},
	{
		Name: "answers 500 to limit=0",
		Fault: func(_ testing.TB, next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if IsList(r) && r.URL.Query().Get("limit") == "0" {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusInternalServerError)
					w.Write([]byte(`{"code":"internal","message":"division by zero","status":500}`))
					return
				}
				next.ServeHTTP(w, r)
			})
		},
		Check: "limit=0", Rule: "contract.response",
	},
	{
		// A catalogue of 150 pets, all of them sent for limit=1000.
		Name: "answers limit=1000 with more than 100 pets",
		Fault: func(tb testing.TB, _ http.Handler) http.Handler {
			srv, err := mockserver.New(mockserver.Config{APIKeys: []string{Key}, Catalogue: &catalogue.Seeded{Seed: 1, Count: 150}})
			if err != nil {
				tb.Fatal(err)
			}
			return Intercept(srv, func(r *http.Request, rec *httptest.ResponseRecorder) {
				if IsList(r) && r.URL.Query().Get("limit") == "1000" {
					var all bytes.Buffer
					srv.Items().Export(&all)
					rec.Body = &all
					rec.Code = http.StatusOK
				}
			})
		},
		Check: "limit=1000", Rule: "limit.invalid",
	},
	{
		// About 120 pets of each status, all in one page of limit=100.
		Name:  "ignores limit when a status filter is given",
		Fault: Alt(AltConfig{Pets: 400, StatusIgnoresLimit: true}),
		Check: "returns only pets of the status asked for", Rule: "limit.honoured",
	},
	{
		// The unfiltered page of limit=100 is the limit checks' census,
		// and it is capped too.
		Name:  "caps every page at 50 pets, whatever limit asks",
		Fault: Alt(AltConfig{Pets: 150, CapLimit: 50}),
		Check: "returns a full page when more pets exist", Rule: "limit.honoured",
	},
	{
		// Pages by offset, each next link a pet too far.
		Name:  "skips a pet between pages",
		Fault: Alt(AltConfig{Paging: "/v1/pets", PageFault: "skip"}),
		Check: "walks its pages to the end through their next links, each item once every item", Rule: "pagination.complete",
	},
	{
		// Pages by offset over 3000 pets, one link halfway down a pet
		// too far: no check of the first pages or of the pets the run
		// created meets it.
		Name:  "skips one pet at a page's end, halfway down 3000",
		Fault: Alt(AltConfig{Pets: 3000, Paging: "/v1/pets", PageFault: "skip-once"}),
		Check: "walks its pages to the end through their next links, each item once every item", Rule: "pagination.complete",
	},
	{
		Name:  "shows a pet on two pages",
		Fault: Alt(AltConfig{Paging: "/v1/pets", PageFault: "repeat"}),
		Check: "walks its pages to the end through their next links, each item once", Rule: "pagination.repeat",
	},
	{
		Name:  "links the third page back to the second",
		Fault: Alt(AltConfig{Paging: "/v1/pets", PageFault: "loop"}),
		Check: "walks its pages to the end through their next links, each item once every item", Rule: "pagination.loop",
	},
	{
		// petmock's cursors, each later page linking to itself.
		Name: "links each later page to itself",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if IsList(r) && r.URL.Query().Has("cursor") && rec.Header().Get("Link") != "" {
				rec.Header().Set("Link", "<"+r.URL.RequestURI()+`>; rel="next"`)
			}
		}),
		Check: "walks its pages to the end through their next links, each item once every item", Rule: "pagination.loop",
	},
	{
		// petmock's cursors, the filter left out of the link.
		Name: "drops the status filter from its next links",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if link := rec.Header().Get("Link"); IsList(r) && link != "" {
				rec.Header().Set("Link", statusLeftOut.ReplaceAllString(link, ""))
			}
		}),
		Check: "walks its pages to the end through their next links, each item once filtered by status", Rule: "list.filter",
	},
	{
		Name:  "links the last page to an empty one",
		Fault: Alt(AltConfig{Paging: "/v1/pets", PageFault: "link-last"}),
		Check: "walks its pages to the end through their next links, each item once", Rule: "pagination.end",
	},
	{
		Name:  "asks for more pets in each next link",
		Fault: Alt(AltConfig{Paging: "/v1/pets", PageFault: "grow-limit"}),
		Check: "walks its pages to the end through their next links, each item once", Rule: "limit.honoured",
	},
	{
		Name:  "ignores the status filter",
		Fault: RewriteRequest(SetQuery(func(q url.Values) { q.Del("status") })),
		Check: "returns only pets of the status asked for", Rule: "status.filter",
	},
	{
		// Each page of a status holds one pet of another status,
		// relabelled: the page alone shows nothing wrong.
		Name: "relabels a pet of another status into each filtered page",
		Fault: func(_ testing.TB, next http.Handler) http.Handler {
			return Intercept(next, func(r *http.Request, rec *httptest.ResponseRecorder) {
				status := r.URL.Query().Get("status")
				if !IsList(r) || status == "" || rec.Code != http.StatusOK {
					return
				}
				all := httptest.NewRecorder()
				list, _ := http.NewRequest(http.MethodGet, "/v1/pets?limit=100", nil)
				list.Header = r.Header.Clone()
				next.ServeHTTP(all, list)
				var others []map[string]any
				dec := json.NewDecoder(all.Body)
				dec.UseNumber()
				dec.Decode(&others)
				EditJSON(rec, func(v any) any {
					page, _ := v.([]any)
					for _, o := range others {
						if o["status"] == status {
							continue
						}
						o["status"] = status
						if len(page) > 0 && len(page) >= limitOf(r) {
							page = page[:len(page)-1]
						}
						return append(page, o)
					}
					return page
				})
			})
		},
		Check: "returns only pets of the status asked for", Rule: "status.filter",
	},
	{
		Name: "ignores a status outside PetStatus",
		Fault: RewriteRequest(SetQuery(func(q url.Values) {
			if q.Has("status") && !slices.Contains(Statuses, q.Get("status")) {
				q.Del("status")
			}
		})),
		Check: "status outside PetStatus", Rule: "status.unknown",
	},
	{
		Name: "does not keep created pets",
		Fault: func(tb testing.TB, next http.Handler) http.Handler {
			scratch := Petmock(tb) // created pets go here, and are lost
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost {
					scratch.ServeHTTP(w, r)
					return
				}
				next.ServeHTTP(w, r)
			})
		},
		Check: "getPet then returns unchanged", Rule: "create.read-back",
	},
	{
		// Each create overwrites the pet before, which reads back as the
		// last one created.
		Name:  "gives every created pet the same id",
		Fault: Alt(AltConfig{SameID: true}),
		Check: "different ids", Rule: "create.unique-id",
	},
	{
		// A fault of one status is caught whatever the seed: with seed 2,
		// a check of one random status would look at another.
		Name:  "keeps a pet created as sold as available",
		Fault: Alt(AltConfig{LoseStatus: "sold"}),
		Args:  []string{"--seed", "2"},
		Check: "getPet then returns unchanged status sold", Rule: "create.read-back",
	},
	{
		// Read-only, so that no created pet is needed to see it.
		Name:  "lists no pet for status=sold",
		Fault: Alt(AltConfig{DropStatus: "sold"}),
		Args:  []string{"--read-only"},
		Check: "when the unfiltered list shows some status=sold", Rule: "status.found",
	},
	{
		Name: "reads back another pet",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if IsGetPet(r) && rec.Code == http.StatusOK {
				EditJSON(rec, ForEachPet(func(p map[string]any) {
					id, _ := p["id"].(json.Number).Int64()
					p["id"] = json.Number(strconv.FormatInt(id+1, 10))
				}))
			}
		}),
		Check: "getPet then returns unchanged", Rule: "create.read-back",
	},
	{
		Name: "creates a pet without a name",
		Fault: func(_ testing.TB, next http.Handler) http.Handler {
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
		Check: "name missing", Rule: "create.invalid-body",
	},
	{
		// Unknown categories are refused too, so a body with one fault
		// gets its 400 for that fault only if its category is known.
		Name:  "ignores a status outside PetStatus, and knows only its own categories",
		Fault: Alt(AltConfig{Categories: []int64{100, 101, 102}, IgnoreBadStatus: true}),
		Check: "status outside PetStatus", Rule: "create.invalid-body",
	},
	{
		Name: "rounds categoryId through a float64",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code < 300 {
				EditJSON(rec, ForEachPet(func(p map[string]any) {
					f, _ := p["categoryId"].(json.Number).Float64()
					p["categoryId"] = f
				}))
			}
		}),
		Check: "the largest int64 categoryId", Rule: "create.echo",
	},
	{
		Name: "answers 404 with a body that is not an Error",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code == http.StatusNotFound {
				rec.Body = bytes.NewBufferString(`{"error":"not found"}`)
			}
		}),
		Check: "404", Rule: "contract.response",
	},
	{
		Name: "sends an Error whose status differs from the HTTP status",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code == http.StatusUnauthorized {
				EditJSON(rec, func(v any) any {
					v.(map[string]any)["status"] = 403
					return v
				})
			}
		}),
		Check: "answers 401", Rule: "errors.shape",
	},
	{
		Name: "sends an Error with an empty code",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code == http.StatusNotFound {
				EditJSON(rec, func(v any) any {
					v.(map[string]any)["code"] = ""
					return v
				})
			}
		}),
		Check: "404", Rule: "errors.shape",
	},
	{
		Name: "names the wrong day in Sunset",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Header().Get("Sunset") != "" {
				rec.Header().Set("Sunset", "Fri, 06 Dec 2030 00:00:00 GMT")
			}
		}),
		Check: "Sunset header, where present", Rule: "deprecation.sunset",
	},
	{
		Name: "deprecates after the Sunset",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Header().Get("Deprecation") != "" {
				rec.Header().Set("Deprecation", "@1922745600") // 2030-12-06, a day after the Sunset
			}
		}),
		Check: "Deprecation header, where present", Rule: "deprecation.deprecation",
	},
	{
		Name: "dates getPet's deprecation a year ahead",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Header().Get("Deprecation") != "" {
				rec.Header().Set("Deprecation", "@"+strconv.FormatInt(time.Now().AddDate(1, 0, 0).Unix(), 10))
			}
		}),
		Check: "Deprecation header, where present", Rule: "deprecation.deprecation",
	},
	{
		Name: "names another pet in Location",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if loc := rec.Header().Get("Location"); rec.Code == http.StatusCreated && loc != "" {
				i := strings.LastIndex(loc, "/")
				id, _ := strconv.ParseInt(loc[i+1:], 10, 64)
				rec.Header().Set("Location", loc[:i+1]+strconv.FormatInt(id+1, 10))
			}
		}),
		Check: "answers 201 with the pet that was sent", Rule: "create.location",
	},
	{
		// A cache that expires what it was given a second later: the
		// pet answers 404 and leaves the lists. The default --recheck
		// catches it; the tests' shorter one would not.
		Name: "forgets a created pet a second after its 201",
		Fault: func(tb testing.TB, next http.Handler) http.Handler {
			c, err := spec.Default()
			if err != nil {
				tb.Fatal(err)
			}
			return Forgetful(tb, c, next, time.Second)
		},
		Args:  []string{"--recheck", "2s"},
		Check: "reads the items the run created and left alone again at its end", Rule: "resource.kept",
	},
	{
		// A store that drops what it was given a moment later.
		Name:  "forgets a created pet a moment later",
		Fault: func(_ testing.TB, next http.Handler) http.Handler { return Forgetting(next, 100*time.Millisecond) },
		Check: "reads the items the run created and left alone again at its end", Rule: "resource.kept",
	},
	{
		Name: "retires getPet before its sunset",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if IsGetPet(r) && rec.Code == http.StatusOK {
				rec.Code = http.StatusGone
				rec.Body = bytes.NewBufferString(`{"code":"gone","message":"getPet was removed","status":410}`)
			}
		}),
		// 410 is documented (for after the sunset), so the answer fits
		// the document; what breaks is that getPet must still work.
		Check: "answers 200 with a listed pet", Rule: "get.pet",
	},
	{
		// Not another client's change: a fresh listing disagrees too.
		Name: "shows through getPet another status than listPets does",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if IsGetPet(r) && rec.Code == http.StatusOK {
				EditJSON(rec, ForEachPet(func(p map[string]any) {
					p["status"] = Statuses[(slices.Index(Statuses, p["status"].(string))+1)%len(Statuses)]
				}))
			}
		}),
		Check: "answers 200 with a listed pet", Rule: "get.pet",
	},
	{
		Name: "serves lists as text/plain",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if IsList(r) {
				rec.Header().Set("Content-Type", "text/plain")
			}
		}),
		Check: "returns only pets of the status asked for", Rule: "contract.response",
	},
	{
		Name: "repeats a pet in a list",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if IsList(r) && rec.Code == http.StatusOK {
				EditJSON(rec, func(v any) any {
					if list := v.([]any); len(list) > 1 {
						list[len(list)-1] = list[0]
					}
					return v
				})
			}
		}),
		Check: "gives each pet one id", Rule: "list.unique-ids",
	},
	{
		// Read-only, so that no created pet is needed to see it.
		Name: "numbers the pets of a filtered list from 1",
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if IsList(r) && r.URL.Query().Has("status") && rec.Code == http.StatusOK {
				n := 0
				EditJSON(rec, ForEachPet(func(p map[string]any) {
					n++
					p["id"] = n
				}))
			}
		}),
		Args:  []string{"--read-only"},
		Check: "gives each pet one id", Rule: "list.unique-ids",
	},
}

// statusLeftOut finds the status of a next link, to leave it out.
var statusLeftOut = regexp.MustCompile(`&status=[^&>]*`)

// limitOf returns the limit a listPets request asks for, 20 without one.
func limitOf(r *http.Request) int {
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil {
		return n
	}
	return 20
}
