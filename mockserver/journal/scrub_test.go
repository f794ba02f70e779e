package journal_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/journal"
)

// TestScrub hides a key in a body relayed in every form the journal finds
// it in, with as many bytes, and leaves the rest as it was.
func TestScrub(t *testing.T) {
	r := journal.NewRedactor([]string{"petmock-dev-key"})
	for _, body := range []string{
		`{"seen":"Bearer petmock-dev-key"}`,
		`{"seen":"Bearer %70etmock-dev-key"}`,
		`{"seen":"Bearer %2570etmock-dev-key"}`,
		`{"seen":"Bearer \u0070etmock-dev-key"}`,
		`{"seen":"Bearer pe\u0074mock%2Ddev-key","and":"petmock-dev-key"}`,
	} {
		b := []byte(body)
		r.Scrub(b)
		got := string(b)
		if len(got) != len(body) || strings.Contains(got, "mock") || !strings.HasPrefix(got, `{"seen":"Bearer *`) {
			t.Errorf("Scrub(%s) = %s, want the key hidden with as many bytes", body, got)
		}
	}
	b := []byte(`{"name":"petmock","key":"dev"}`)
	if r.Scrub(b); string(b) != `{"name":"petmock","key":"dev"}` {
		t.Errorf("Scrub changed a body without the key: %s", b)
	}
	if r.Reach() < len("petmock-dev-key")*3 {
		t.Errorf("Reach %d is shorter than the key percent-encoded", r.Reach())
	}
}

// TestHidesAnyCase: a header's name holds a key in whatever case Go
// writes it.
func TestHidesAnyCase(t *testing.T) {
	r := journal.NewRedactor([]string{"petmock-dev-key"})
	for v, want := range map[string]bool{"X-Seen-Petmock-Dev-Key": true, "X-PETMOCK-DEV-KEY": true, "X-Seen": false, "petmock-dev": false} {
		if got := r.HidesAnyCase(v); got != want {
			t.Errorf("HidesAnyCase(%q) = %v, want %v", v, got, want)
		}
	}
}
