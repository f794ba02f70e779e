package catalogue

import (
	"strings"
)

// idUUIDs write the ids of a resource whose ids are UUIDs: each id is
// the UUID (version 4) of its int64, drawn from the seed and back again.
// The int64 goes through a keyed permutation into 64 of the UUID's bits,
// and a check made from them fills the others that are not fixed, so
// that the UUIDs of ids in order look as random as any, a run repeats
// for a seed, and a UUID is read back to its id with no index: petmock
// makes a million of them for a catalogue. A UUID petmock did not make
// fails the check, but for one in 2^58.
type idUUIDs struct {
	rounds [4]uint64 // the keys of the permutation's rounds
	check  uint64    // the key of the check
}

func newIDUUIDs(seed uint64, resource string) idUUIDs {
	k := seed ^ hashString(resource)
	var u idUUIDs
	for i := range u.rounds {
		k = splitmix(k)
		u.rounds[i] = k
	}
	u.check = splitmix(k)
	return u
}

// text returns the UUID of id, in lower case.
func (u idUUIDs) text(id int64) string {
	var b [16]byte
	c := u.permute(uint64(id))
	tag := splitmix(c ^ u.check)
	// The 64 bits of c go where a UUID fixes nothing: bytes 0-5, 7 and 9.
	for i := range 6 {
		b[i] = byte(c >> (56 - 8*i))
	}
	b[7], b[9] = byte(c>>8), byte(c)
	// The 58 bits of the check fill the rest, around the version (4)
	// and the variant (10).
	b[6] = 0x40 | byte(tag>>54)&0x0f
	b[8] = 0x80 | byte(tag>>48)&0x3f
	for i := range 6 {
		b[10+i] = byte(tag >> (40 - 8*i))
	}
	out := make([]byte, 0, 36)
	for i, v := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hexDigits[v>>4], hexDigits[v&0x0f])
	}
	return string(out)
}

// parse returns the id whose UUID s is, in either case, or false for a
// UUID petmock did not make.
func (u idUUIDs) parse(s string) (int64, bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return 0, false
	}
	var b [16]byte
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '-' {
			continue
		}
		v := strings.IndexByte("0123456789abcdef", s[i]|0x20)
		if v < 0 || n == 32 {
			return 0, false
		}
		b[n/2] |= byte(v) << (4 * (1 - n%2))
		n++
	}
	if n != 32 {
		return 0, false
	}
	var c uint64
	for i := range 6 {
		c |= uint64(b[i]) << (56 - 8*i)
	}
	c |= uint64(b[7])<<8 | uint64(b[9])
	id := int64(u.unpermute(c))
	if !strings.EqualFold(u.text(id), s) {
		return 0, false
	}
	return id, true
}

// permute is a four-round Feistel network on the halves of x: a
// permutation of the uint64s, keyed by the rounds.
func (u idUUIDs) permute(x uint64) uint64 {
	l, r := uint32(x>>32), uint32(x)
	for _, k := range u.rounds {
		l, r = r, l^uint32(splitmix(uint64(r)^k))
	}
	return uint64(l)<<32 | uint64(r)
}

// unpermute undoes permute.
func (u idUUIDs) unpermute(x uint64) uint64 {
	l, r := uint32(x>>32), uint32(x)
	for i := len(u.rounds) - 1; i >= 0; i-- {
		l, r = r^uint32(splitmix(uint64(l)^u.rounds[i])), l
	}
	return uint64(l)<<32 | uint64(r)
}

// splitmix is SplitMix64's mix of x: every bit of the result depends on
// every bit of x.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// hashString is FNV-1a of s.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(s) {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

const hexDigits = "0123456789abcdef"
