package conformancetest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
)

// GapsFilledDifferently wraps petmock into a server that conforms to the
// interface but fills each of its gaps otherwise than petmock: it clamps a
// bad limit, answers an unknown status with an empty list, sends no
// deprecation headers, no Link pagination, no Location and no challenge,
// creates pets as pending by default, uses other Error codes and a charset
// in Content-Type.
func GapsFilledDifferently(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		if IsList(r) {
			q := r.URL.Query()
			if q.Has("limit") {
				n, err := strconv.Atoi(q.Get("limit"))
				switch {
				case err != nil || len(q["limit"]) > 1:
					q.Del("limit")
				default:
					q.Set("limit", strconv.Itoa(min(max(n, 1), 100)))
				}
			}
			if q.Has("status") && !slices.Contains(Statuses, q.Get("status")) {
				if r.Header.Get("Authorization") == "Bearer "+Key {
					w.Header().Set("Content-Type", "application/json; charset=utf-8")
					w.Write([]byte("[]"))
					return
				}
				q.Del("status")
			}
			r.URL.RawQuery = q.Encode()
		}
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if bytes.HasPrefix(body, []byte("{")) && !bytes.Contains(body, []byte(`"status"`)) && bytes.Contains(body, []byte(`"name"`)) {
				body = append([]byte(`{"status":"pending",`), body[1:]...)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		Intercept(next, func(r *http.Request, rec *httptest.ResponseRecorder) {
			h := rec.Header()
			for _, name := range []string{"Deprecation", "Sunset", "Link", "Location", "WWW-Authenticate"} {
				h.Del(name)
			}
			h.Set("Content-Type", "application/json; charset=utf-8")
			if rec.Code >= 400 {
				EditJSON(rec, func(v any) any {
					v.(map[string]any)["code"] = "E" + strconv.Itoa(rec.Code)
					return v
				})
			}
		}).ServeHTTP(w, r)
	})
}
