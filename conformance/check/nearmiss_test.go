package check

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
)

// TestNearMissesNeverShown: a deployment that takes a key near the run's,
// and echoes the Authorization it got into a header the report shows,
// breaks operation.auth; the report shows the near miss as an expression
// of $PETSTORE_API_KEY, in the curl line and in the echo, never the key,
// in another case or short of a character.
func TestNearMissesNeverShown(t *testing.T) {
	t.Parallel()
	echo := ct.RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
		rec.Header().Set("Link", "<"+r.Header.Get("Authorization")+">; rel=\"echo\"")
	})
	loose := ct.RewriteRequest(func(r *http.Request) {
		if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && len(token) >= len(ct.Key)-1 && strings.EqualFold(token[:len(ct.Key)-1], ct.Key[:len(ct.Key)-1]) {
			r.Header.Set("Authorization", "Bearer "+ct.Key)
		}
	})
	h := judgeOver(t, echo(t, loose(t, ct.Petmock(t))), Settings{})
	ctx := checkContext(t)
	for _, tc := range []struct {
		name string
		form judge.KeyForm
	}{
		{"the key in another case", judge.FormOtherCase},
		{"the key with a character added", judge.FormLonger},
		{"the key without its last character", judge.FormShorter},
	} {
		err := nearMissCheck(t, tc.name)(h, ctx)
		if wantBroken(t, tc.name, err, "operation.auth") == nil {
			continue
		}
		report := err.Error()
		for _, secret := range []string{judge.SwapCase(ct.Key), ct.Key[:len(ct.Key)-1]} {
			if strings.Contains(report, secret) {
				t.Errorf("%s: the report shows %q, most of the key:\n%s", tc.name, secret, report)
			}
		}
		if n := strings.Count(report, tc.form.Shown); n < 2 {
			t.Errorf("%s: the report shows %s %d times, want in the curl line and the echo:\n%s", tc.name, tc.form.Shown, n, report)
		}
	}
}

// TestNearMissesOfTheDocument: the near misses of a scheme leave out the
// places the operation's document gives, a key or a parameter of its
// own, and the key in another case where that is the same key.
func TestNearMissesOfTheDocument(t *testing.T) {
	c := schemesContract(t)
	names := func(key, op, scheme string) []string {
		var out []string
		for _, m := range request.NearMisses(key, c.Operation(op), c.Scheme(scheme)) {
			out = append(out, m.Name)
		}
		return out
	}
	tests := []struct {
		key, op, scheme string
		want            []string
	}{
		{"Key-1", "header", "headerKey", []string{"the key in another case", "the key with a character added", "the key without its last character", "an empty key", "the key as a bearer token", "the key in the query as X-API-Key"}},
		{"20260101-42", "header", "headerKey", []string{"the key with a character added", "the key without its last character", "an empty key", "the key as a bearer token", "the key in the query as X-API-Key"}},
		{"k", "query", "queryKey", []string{"the key in another case", "the key with a character added", "an empty key", "the key as a bearer token", "the key in the header as api_key"}},
		{"Key-1", "cookie", "cookieKey", []string{"the key in another case", "the key with a character added", "the key without its last character", "an empty key", "the key in the header as session", "the key in the query as session"}},
		{"Key-1", "basic", "basicAuth", []string{"the key in another case", "the key with a character added", "the key without its last character", "an empty key", "the key as a bearer token", "the bare key in Authorization"}},
		// both takes the key in the query as api_key and the header
		// X-API-Key, or as basic credentials: none of those is a wrong
		// place for it, but X-API-Key in the query is.
		{"Key-1", "both", "headerKey", []string{"the key in another case", "the key with a character added", "the key without its last character", "an empty key", "the key as a bearer token", "the key in the query as X-API-Key"}},
		{"Key-1", "both", "basicAuth", []string{"the key in another case", "the key with a character added", "the key without its last character", "an empty key", "the key as a bearer token", "the bare key in Authorization"}},
		{"Key-1", "listPets", "bearerAuth", []string{"the key in another case", "the key with a character added", "the key without its last character", "an empty key", "the key as HTTP basic credentials", "the bare key in Authorization", "the key in the query as access_token"}},
		// tokened declares access_token as a query parameter of its own:
		// a value sent there is no key.
		{"Key-1", "tokened", "bearerAuth", []string{"the key in another case", "the key with a character added", "the key without its last character", "an empty key", "the key as HTTP basic credentials", "the bare key in Authorization"}},
	}
	for _, tc := range tests {
		if got := names(tc.key, tc.op, tc.scheme); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s of %s with key %q: near misses\n  %q\nwant\n  %q", tc.scheme, tc.op, tc.key, got, tc.want)
		}
	}
}

// TestOptionalKey: an operation whose security has an empty alternative
// takes requests without a key: no check expects a 401 of it, and one
// that refuses a request without a key breaks operation.optional-key.
func TestOptionalKey(t *testing.T) {
	t.Parallel()
	c := schemesContract(t)
	op := c.Operation("maybe")
	if request.RequiresKey(op) || !request.KeyOptional(op) {
		t.Fatalf("maybe: requires a key %v, optional %v; want optional", request.RequiresKey(op), request.KeyOptional(op))
	}
	for _, tr := range request.SchemeTrials(c) {
		if tr.Op == op {
			t.Errorf("the near misses of %s are tried on maybe, whose key is optional", tr.Scheme.Name)
		}
	}
	serve := func(needKey bool) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if needKey && r.Header.Get("X-API-Key") != ct.Key {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				w.Write([]byte(`{"code":"E401","message":"a key is required","status":401}`))
				return
			}
			w.WriteHeader(http.StatusNoContent)
		})
	}
	if err := judgeOver(t, serve(false), Settings{Contract: c}).CheckWithoutKey(context.Background(), op); err != nil {
		t.Errorf("a server that takes requests without a key: %v", err)
	}
	wantBroken(t, "a server that requires the optional key", judgeOver(t, serve(true), Settings{Contract: c}).CheckWithoutKey(context.Background(), op), "operation.optional-key")
}
