package edge

import "testing"

// TestWirePassesOtherAnswers holds the recognition of the server's own
// answers to what only they look like: an answer of a handler, whatever
// its status and type, and whatever its body holds, passes as it is.
func TestWirePassesOtherAnswers(t *testing.T) {
	c := &wireConn{}
	for _, p := range []string{
		"HTTP/1.1 417 Expectation Failed\r\nAccess-Control-Allow-Origin: *\r\nContent-Type: application/json\r\n\r\n{}",
		"HTTP/1.1 400 Bad Request\r\nDate: Mon, 23 Nov 2026 00:53:02 GMT\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nno",
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
		`{"name":"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"}`,
		"HTTP/1.1 4",
		"",
	} {
		if e := c.serversOwn([]byte(p)); e != nil {
			t.Errorf("%q taken for the server's own answer: %v", p, e)
		}
	}
	if e := c.serversOwn([]byte("HTTP/1.1 400 Bad Request" + serverPlain + "400 Bad Request")); e == nil || e.Status != 400 {
		t.Errorf("the server's own 400 not recognised: %v", e)
	}
}
