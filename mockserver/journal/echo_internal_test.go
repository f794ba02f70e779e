package journal

import (
	"net/http/httptest"
	"strconv"
	"testing"
)

// TestWithoutEchoedKeys sends a key in each header an answer may echo,
// among few other headers and among many: the header is left out, and the
// others are kept.
func TestWithoutEchoedKeys(t *testing.T) {
	rd := NewRedactor([]string{"s3cret"})
	for _, others := range []int{0, 1, 12} {
		for _, name := range echoedHeaders {
			r := httptest.NewRequest("GET", "http://petmock/v1/pets", nil)
			for i := range others {
				r.Header.Set("X-Other-"+strconv.Itoa(i), "value")
			}
			r.Header.Set(name, "https://s3cret.example")
			got := rd.WithoutEchoedKeys(r)
			if _, held := got.Header[name]; held || len(got.Header) != others {
				t.Errorf("%s holding a key, among %d other headers: the request kept %v", name, others, got.Header)
			}
			if r.Header.Get(name) == "" {
				t.Errorf("%s: the request sent was changed", name)
			}
		}
	}
	r := httptest.NewRequest("GET", "http://petmock/v1/pets", nil)
	r.Header.Set("Origin", "https://app.example")
	if rd.WithoutEchoedKeys(r) != r {
		t.Error("a request without a key was copied")
	}
}
