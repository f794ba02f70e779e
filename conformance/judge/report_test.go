package judge

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"
)

// TestShellQuoteRoundTrip hands each quoted string to a real shell and
// expects it back as it was, with only $PETSTORE_API_KEY expanded.
func TestShellQuoteRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, s := range []string{
		"plain",
		"Authorization: Bearer " + KeyVar,
		"Authorization: " + KeyVar,
		`{"name":"it's \"quoted\" $HOME ` + "`id`" + ` !x \\"}`,
		"Basic " + KeyVar + " and $HOME and \"" + KeyVar + "\"",
		"",
	} {
		cmd := exec.Command("sh", "-c", "printf %s "+shellQuote(s))
		cmd.Env = []string{"PETSTORE_API_KEY=the-key", "HOME=/home/nobody"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("sh -c printf %%s %s: %v", shellQuote(s), err)
		}
		if want := strings.ReplaceAll(s, KeyVar, "the-key"); string(out) != want {
			t.Errorf("shellQuote(%q) = %s; the shell reads %q, want %q", s, shellQuote(s), out, want)
		}
	}
}

func TestCurl(t *testing.T) {
	tests := []struct {
		name string
		x    Exchange
		want string
	}{
		{
			"GET with the key",
			Exchange{method: "GET", URL: "http://h/v1/pets?limit=1", RequestHeader: http.Header{"Authorization": {"Bearer " + KeyVar}}},
			`curl -sS -i -H "Authorization: Bearer $PETSTORE_API_KEY" 'http://h/v1/pets?limit=1'`,
		},
		{
			"POST with a body",
			Exchange{method: "POST", URL: "http://h/v1/pets", reqBody: []byte(`{"name":"O'Neil"}`), RequestHeader: http.Header{"Content-Type": {"application/json"}}},
			`curl -sS -i -X POST -H 'Content-Type: application/json' --data-raw '{"name":"O'\''Neil"}' 'http://h/v1/pets'`,
		},
		{
			"POST with an empty body",
			Exchange{method: "POST", URL: "http://h/v1/pets", reqBody: []byte{}, RequestHeader: http.Header{}},
			`curl -sS -i -X POST --data-raw '' 'http://h/v1/pets'`,
		},
	}
	for _, tc := range tests {
		if got := tc.x.curl(); got != tc.want {
			t.Errorf("%s: curl() =\n  %s\nwant\n  %s", tc.name, got, tc.want)
		}
	}
}

// TestReportRedactsKey: a server that echoes the key in a header or body
// gets it shown as $PETSTORE_API_KEY, and only relevant headers are shown.
func TestReportRedactsKey(t *testing.T) {
	x := &Exchange{
		method: "GET", URL: "http://h/v1/pets", key: "s3cret",
		RequestHeader: http.Header{"Authorization": {"Bearer " + KeyVar}},
		Status:        401,
		Header: http.Header{
			"Www-Authenticate": {`Bearer error="s3cret"`},
			"Set-Cookie":       {"session=abc"},
		},
		body: []byte(`{"message":"bad key s3cret"}`),
	}
	got := x.report(RuleAuth, "detail")
	for _, want := range []string{
		"broken rule auth.required: ",
		"  detail\n",
		`curl -sS -i -H "Authorization: Bearer $PETSTORE_API_KEY" 'http://h/v1/pets'`,
		"HTTP 401 Unauthorized",
		`WWW-Authenticate: Bearer error="$PETSTORE_API_KEY"`,
		`{"message":"bad key $PETSTORE_API_KEY"}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	for _, leak := range []string{"s3cret", "session=abc"} {
		if strings.Contains(got, leak) {
			t.Errorf("report shows %q:\n%s", leak, got)
		}
	}
}

func TestReportTruncatesBody(t *testing.T) {
	x := &Exchange{method: "GET", URL: "http://h/v1/pets", Status: 200, Header: http.Header{}, body: []byte(strings.Repeat("x", bodyShown+100))}
	got := x.report(RuleContract, "")
	if strings.Contains(got, strings.Repeat("x", bodyShown+1)) || !strings.Contains(got, "truncated; 2148 bytes read") {
		t.Errorf("the body is not truncated to %d bytes:\n%.200s…", bodyShown, got)
	}
}

// TestReportRedactsKeyAcrossTheCut: a key that a server placed across the
// point where the shown body is cut is redacted whole, so that no part of
// it is shown.
func TestReportRedactsKeyAcrossTheCut(t *testing.T) {
	const key = "s3cret-key-0123456789"
	body := strings.Repeat("x", bodyShown-5) + key + strings.Repeat("y", 100)
	x := &Exchange{method: "GET", URL: "http://h/v1/pets", key: key, Status: 200, Header: http.Header{}, body: []byte(body)}
	got := x.report(RuleContract, "")
	if strings.Contains(got, key[:5]) {
		t.Errorf("the report shows the start of the key, %q:\n…%s", key[:5], got[strings.Index(got, "xxxxx"+key[:5]):])
	}
	if !strings.Contains(got, "xxxxx"+KeyVar[:5]+" … (truncated;") {
		t.Errorf("the report does not cut the redacted body:\n%.300s…", got[strings.LastIndex(got, "xxxxx"):])
	}
}
