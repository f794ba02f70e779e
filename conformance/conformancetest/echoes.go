package conformancetest

import (
	"net/http"
	"net/http/httptest"
	"strings"
)

// KeyEcho puts the key a request carries where a check reads a value from
// the answer, and may quote it when it fails.
type KeyEcho struct {
	Name string
	// Edit puts key into the answer of petmock to r.
	Edit func(key string, r *http.Request, rec *httptest.ResponseRecorder)
	// Shows is what a report of the answer shows, the key redacted.
	Shows string
}

// KeyEchoes echo the key in the headers of getPet's deprecation, in a next
// link, in a Location and in an Error: values that strict checks compare.
var KeyEchoes = []KeyEcho{
	{
		Name: "in Sunset",
		Edit: func(key string, r *http.Request, rec *httptest.ResponseRecorder) {
			if IsGetPet(r) {
				rec.Header().Set("Sunset", key)
			}
		},
		Shows: "Sunset: $PETSTORE_API_KEY",
	},
	{
		Name: "in Deprecation",
		Edit: func(key string, r *http.Request, rec *httptest.ResponseRecorder) {
			if IsGetPet(r) {
				rec.Header().Set("Deprecation", key)
			}
		},
		Shows: "Deprecation: $PETSTORE_API_KEY",
	},
	{
		Name: "in the path of a next link",
		Edit: func(key string, r *http.Request, rec *httptest.ResponseRecorder) {
			if IsList(r) && rec.Code == http.StatusOK {
				rec.Header().Set("Link", `</v1/pets/`+key+`?cursor=AQ>; rel="next"`)
			}
		},
		Shows: "Link: </v1/pets/$PETSTORE_API_KEY?cursor=AQ>",
	},
	{
		Name: "in Location",
		Edit: func(key string, r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code == http.StatusCreated {
				rec.Header().Set("Location", "/v1/pets/"+key)
			}
		},
		Shows: "Location: /v1/pets/$PETSTORE_API_KEY",
	},
	{
		Name: "in an Error's code and message",
		Edit: func(key string, r *http.Request, rec *httptest.ResponseRecorder) {
			if rec.Code >= 400 {
				EditJSON(rec, func(v any) any {
					m := v.(map[string]any)
					m["code"], m["message"] = key, "refused "+key
					return m
				})
			}
		},
		Shows: `"code":"$PETSTORE_API_KEY"`,
	},
}

// Echoing returns a Fault that applies echoes to each answer to a request
// that carries Key.
func Echoing(echoes ...KeyEcho) Fault {
	return RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
		if auth := r.Header.Get("Authorization"); strings.Contains(auth, Key) {
			for _, e := range echoes {
				e.Edit(strings.TrimPrefix(auth, "Bearer "), r, rec)
			}
		}
	})
}
