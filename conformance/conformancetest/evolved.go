package conformancetest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BrokenEvolvedServer is a server of an evolved document that breaks one
// rule of it, with the check that must fail, the rule it must name, and
// words its message must hold, such as the operation at fault.
type BrokenEvolvedServer struct {
	Name string
	// Doc is the document, EvolvedField or EvolvedOps; Testdata finds it.
	Doc   string
	Fault Fault
	Check string
	Rule  string
	Words string
}

// BrokenEvolvedServers each break one rule that the judge makes of an
// evolved document, for an operation or a resource the Petstore's does
// not have.
var BrokenEvolvedServers = []BrokenEvolvedServer{
	{
		Name: "has no store orders",
		Doc:  EvolvedOps,
		Fault: func(_ testing.TB, next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/v1/store/orders" && r.Method == http.MethodGet {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusNotFound)
					w.Write([]byte(`{"code":"not_found","message":"no such path","status":404}`))
					return
				}
				next.ServeHTTP(w, r)
			})
		},
		Check: "operation listOrders", Rule: "operation.exists", Words: "the operation listOrders, which the document describes, is missing",
	},
	{
		Name:  "drops the new tag of a pet",
		Doc:   EvolvedField,
		Fault: RewriteRequest(DropMember("tag")),
		Check: "resource pets", Rule: "resource.create", Words: "tag is missing",
	},
	{
		Name: "cancels no order",
		Doc:  EvolvedOps,
		Fault: func(_ testing.TB, next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodDelete && r.Header.Get("Authorization") == "Bearer "+Key {
					w.WriteHeader(http.StatusNoContent)
					return
				}
				next.ServeHTTP(w, r)
			})
		},
		Check: "resource orders deletes an item", Rule: "resource.delete", Words: "getOrder of the item deleted: status 200, want 404",
	},
	{
		Name: "answers a replace with the order as it was",
		Doc:  EvolvedOps,
		Fault: RewriteRequest(func(r *http.Request) {
			if r.Method == http.MethodPut {
				r.Method = http.MethodGet
				r.Body, r.ContentLength = http.NoBody, 0
			}
		}),
		Check: "resource orders replaces an item", Rule: "resource.replace", Words: "differs from what was sent",
	},
	{
		// A replace taken as an update: what the body leaves out stays.
		Name: "merges a replace into the order",
		Doc:  EvolvedOps,
		Fault: RewriteRequest(func(r *http.Request) {
			if r.Method == http.MethodPut {
				r.Method = http.MethodPatch
			}
		}),
		Check: "resource orders replaces an item", Rule: "resource.replace", Words: "the replace merged the body into the item",
	},
	{
		Name: "keeps cancelled orders in the list",
		Doc:  EvolvedOps,
		Fault: func(_ testing.TB, next http.Handler) http.Handler {
			var mu sync.Mutex              // guards cancelled
			cancelled := map[string]bool{} // paths of orders cancelled
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				gone := cancelled[r.URL.Path]
				if r.Method == http.MethodDelete && r.Header.Get("Authorization") == "Bearer "+Key {
					cancelled[r.URL.Path] = true
					gone = true
				}
				mu.Unlock()
				if gone && r.Header.Get("Authorization") == "Bearer "+Key {
					if r.Method == http.MethodDelete {
						w.WriteHeader(http.StatusNoContent)
						return
					}
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusNotFound)
					w.Write([]byte(`{"code":"not_found","message":"no such order","status":404}`))
					return
				}
				next.ServeHTTP(w, r)
			})
		},
		Check: "resource orders deletes an item", Rule: "resource.delete", Words: "is still listed by listOrders",
	},
	{
		Name: "names another order in Location",
		Doc:  EvolvedOps,
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if loc := rec.Header().Get("Location"); rec.Code == http.StatusCreated && strings.Contains(loc, "/store/orders/") {
				rec.Header().Set("Location", loc+"0")
			}
		}),
		Check: "resource orders creates an item", Rule: "resource.location", Words: "names no URL of the order created",
	},
	{
		Name: "reads an order otherwise than it lists it",
		Doc:  EvolvedOps,
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/store/orders/") && rec.Code == http.StatusOK {
				EditJSON(rec, func(v any) any {
					m := v.(map[string]any)
					quantity, _ := m["quantity"].(json.Number).Int64()
					m["quantity"] = quantity%10 + 1 // another quantity the schema allows
					return m
				})
			}
		}),
		Check: "list listOrders of orders lists each item as getOrder reads it", Rule: "resource.consistent", Words: "reads otherwise through getOrder",
	},
	{
		Name: "dates getPet's deprecation a year ahead",
		Doc:  EvolvedField,
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Header().Get("Deprecation") != "" {
				rec.Header().Set("Deprecation", "@"+strconv.FormatInt(time.Now().AddDate(1, 0, 0).Unix(), 10))
			}
		}),
		Check: "operation getPet", Rule: "operation.deprecation", Words: "is in the future",
	},
	{
		Name:  "changes nothing on an update",
		Doc:   EvolvedOps,
		Fault: RewriteRequest(ReplaceBody(http.MethodPatch, `{}`)),
		Check: "resource orders updates an item", Rule: "resource.update", Words: "differs from what was written",
	},
	{
		Name: "takes any quantity of an order",
		Doc:  EvolvedOps,
		Fault: RewriteRequest(func(r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/store/orders") {
				body, _ := io.ReadAll(r.Body)
				body = bytes.ReplaceAll(body, []byte(`"quantity":11`), []byte(`"quantity":10`))
				r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
			}
		}),
		Check: "operation placeOrder", Rule: "operation.invalid-request", Words: "placeOrder with body: quantity above its maximum: status 201, want 400",
	},
	{
		Name: "tells the inventory to anyone",
		Doc:  EvolvedOps,
		Fault: RewriteRequest(func(r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/store/inventory") {
				r.Header.Set("Authorization", "Bearer "+Key)
			}
		}),
		Check: "operation getInventory", Rule: "operation.auth", Words: "getInventory with no key: status 200, want 401",
	},
	{
		Name: "ignores the limit of orders",
		Doc:  EvolvedOps,
		Fault: RewriteRequest(func(r *http.Request) {
			if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/store/orders") {
				q := r.URL.Query()
				q.Del("limit")
				r.URL.RawQuery = q.Encode()
			}
		}),
		Check: "list listOrders of orders returns as many items as its limit asks", Rule: "list.limit", Words: "limit=",
	},
	{
		Name: "ignores the status filter of orders",
		Doc:  EvolvedOps,
		Fault: RewriteRequest(func(r *http.Request) {
			if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/store/orders") {
				q := r.URL.Query()
				q.Del("status")
				r.URL.RawQuery = q.Encode()
			}
		}),
		Check: "list listOrders of orders returns only items of the value a filter asks for", Rule: "list.filter", Words: "asked for status=",
	},
	{
		Name: "counts the inventory in words",
		Doc:  EvolvedOps,
		Fault: RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if strings.HasSuffix(r.URL.Path, "/store/inventory") && rec.Code == http.StatusOK {
				rec.Body = bytes.NewBufferString(`{"available":"many"}`)
			}
		}),
		Check: "operation getInventory", Rule: "contract.response", Words: "getInventory answered 200",
	},
	{
		// A store that answers any id with the first order it holds.
		Name: "answers an order of any id",
		Doc:  EvolvedOps,
		Fault: func(_ testing.TB, next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				if rec.Code == http.StatusNotFound && r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/store/orders/") {
					rec = httptest.NewRecorder()
					list, _ := http.NewRequest(http.MethodGet, "/v1/store/orders?limit=1", nil)
					list.Header = r.Header.Clone()
					next.ServeHTTP(rec, list)
					var orders []json.RawMessage
					if json.Unmarshal(rec.Body.Bytes(), &orders) == nil && len(orders) > 0 {
						w.Header().Set("Content-Type", "application/json")
						w.Write(orders[0])
						return
					}
				}
				for k, v := range rec.Header() {
					w.Header()[k] = v
				}
				w.WriteHeader(rec.Code)
				w.Write(rec.Body.Bytes())
			})
		},
		Check: "resource orders answers 404 to a read of an id no item has", Rule: "resource.not-found", Words: "which no order has: status 200, want 404",
	},
}
