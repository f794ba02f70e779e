package judge

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// seen is what a server saw of a request: what the curl line of a report
// must repeat.
type seen struct {
	method, uri, authorization, cookie, apiKey, acceptEncoding, contentType, body string
}

// TestCurlRunsAsPrinted: the curl line of a report, run as printed by a
// POSIX shell with $PETSTORE_API_KEY set, sends the request the client
// sent: the key and the forms of it in a header, the query, a cookie or
// HTTP basic credentials, the body, a path whose values are escaped once,
// and no Accept-Encoding, which the client does not send either.
func TestCurlRunsAsPrinted(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl")
	}
	const key = "Key-abc_123"
	var mu sync.Mutex
	var got []seen
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, seen{r.Method, r.RequestURI, r.Header.Get("Authorization"), r.Header.Get("Cookie"), r.Header.Get("X-Api-Key"),
			r.Header.Get("Accept-Encoding"), r.Header.Get("Content-Type"), string(body)})
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer hs.Close()
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	k, err := answercheck.New(c, false)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := url.Parse(hs.URL + "/v1")
	client := NewClient(Config{Base: base, APIKey: key, MaxCreates: 10, Timeout: 5 * time.Second, Contract: c, Checker: k})
	basic := spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsBasic}
	inQuery := func(form KeyForm) Option {
		return func(r *Request) {
			r.Header.Del("Authorization")
			r.Query = url.Values{"api_key": {form.Shown}, "limit": {"2"}}.Encode()
		}
	}
	asBasic := func(form KeyForm) Option {
		return func(r *Request) {
			r.Header.Del("Authorization")
			r.Basic, r.BasicKey = &basic, form.Shown
		}
	}
	for _, tc := range []struct {
		name string
		r    *Request
	}{
		{"a bearer key", NewRequest(spec.ListPets, "GET", "/pets", "limit=1", nil)},
		{"the key in the query", NewRequest(spec.ListPets, "GET", "/pets", "", nil, inQuery(formKey))},
		{"the key with a character added in the query", NewRequest(spec.ListPets, "GET", "/pets", "", nil, inQuery(FormLonger))},
		{"the key in another case in the query", NewRequest(spec.ListPets, "GET", "/pets", "", nil, inQuery(FormOtherCase))},
		{"the key as HTTP basic credentials", NewRequest(spec.ListPets, "GET", "/pets", "", nil, asBasic(formKey))},
		{"the key short of a character as HTTP basic credentials", NewRequest(spec.ListPets, "GET", "/pets", "", nil, asBasic(FormShorter))},
		{"the key in a cookie and a header", NewRequest(spec.ListPets, "GET", "/pets", "", nil, func(r *Request) {
			r.Header.Set("Cookie", "session="+KeyVar)
			r.Header.Set("X-API-Key", FormLonger.Shown)
		})},
		{"a body", NewRequest(spec.CreatePet, "POST", "/pets", "", []byte(`{"name":"it's $HOME"}`))},
		{"an id with a space, escaped once", NewRequest(spec.GetPet, "GET", "/pets/Chad%20Malone", "", nil)},
	} {
		mu.Lock()
		got = nil
		mu.Unlock()
		x, _ := client.Send(context.Background(), tc.r)
		line := x.curl()
		cmd := exec.Command("sh", "-c", line+" -o /dev/null")
		cmd.Env = []string{"PETSTORE_API_KEY=" + key, "HOME=/home/nobody", "PATH=/usr/bin:/bin"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %s: %v\n%s", tc.name, line, err, out)
			continue
		}
		mu.Lock()
		if len(got) != 2 {
			t.Errorf("%s: the server saw %d requests, want the client's and curl's", tc.name, len(got))
		} else if got[0] != got[1] {
			t.Errorf("%s: %s\nsent  %+v\ncurl  %+v", tc.name, line, got[0], got[1])
		} else if strings.Contains(line, key) {
			t.Errorf("%s: the curl line shows the key: %s", tc.name, line)
		} else if strings.Contains(got[0].uri, "%25") {
			t.Errorf("%s: the path went escaped twice: %s", tc.name, got[0].uri)
		}
		mu.Unlock()
	}
}
