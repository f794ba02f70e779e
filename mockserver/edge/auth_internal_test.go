package edge

import (
	"hash/maphash"
	"testing"
)

func TestKeyringAccepts(t *testing.T) {
	ring, err := NewKeyring([]string{"petmock-dev-key", "second"})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"petmock-dev-key", "second"} {
		if !ring.Accepts(key) {
			t.Errorf("Accepts(%q) = false, want true", key)
		}
	}
	for _, key := range []string{"", "petmock-dev-ke", "petmock-dev-key ", "petmock-dev-kez", "Second", "secondpetmock-dev-key"} {
		if ring.Accepts(key) {
			t.Errorf("Accepts(%q) = true, want false", key)
		}
	}
}

// TestKeyringAcceptsTheTextNotTheSum gives a key another key's sum, as a
// collision of the two would: the text decides.
func TestKeyringAcceptsTheTextNotTheSum(t *testing.T) {
	ring := Keyring{{sum: maphash.String(keySeed, "forged"), text: "petmock-dev-key"}}
	if ring.Accepts("forged") {
		t.Error(`Accepts("forged") = true for a key of its sum and another text`)
	}
	if ring.Accepts("petmock-dev-key") {
		t.Error("Accepts took a key whose sum is not the ring's")
	}
}

func TestSameSum(t *testing.T) {
	for _, c := range []struct {
		a, b uint64
		want int
	}{{0, 0, 1}, {1, 1, 1}, {^uint64(0), ^uint64(0), 1}, {0, 1, 0}, {1 << 63, 0, 0}, {0, 1 << 63, 0}, {^uint64(0), 0, 0}} {
		if got := sameSum(c.a, c.b); got != c.want {
			t.Errorf("sameSum(%#x, %#x) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
