package spec

import (
	"encoding/base64"
	"strings"
)

// How a key is written where it travels (Place.As).
const (
	// AsBearer is a bearer token: Authorization: Bearer <key>.
	AsBearer = "bearer"
	// AsBasic is HTTP basic credentials, the key as the password.
	AsBasic = "basic"
	// AsKey is the key as it is, in a header, query parameter or cookie.
	AsKey = "key"
	// AsDigest is an HTTP Digest response with the key as the password,
	// made for each request (DigestCredentials).
	AsDigest = "digest"
)

// Another http scheme, such as Negotiate, puts the key in Authorization
// after its name: its Place's As is that name, as the document writes it.

// Place is where a credential travels, and as what. A server that takes
// a key in more places than its document gives, or as something else
// there, takes keys its clients never meant to send it: the suite sends
// the key to the places next to the documented ones (WrongPlaces), and
// each must be refused.
type Place struct {
	// In is InHeader, InQuery or InCookie.
	In string
	// Name is the header, query parameter or cookie that carries the
	// key, as the document writes it.
	Name string
	// As is how the key is written there: AsBearer, AsBasic or AsKey.
	As string
}

// Place returns where the scheme's credential travels: Authorization,
// as a bearer token or HTTP basic credentials, or where an apiKey scheme
// names. An unsupported scheme's is Authorization, written as petmock
// cannot tell.
func (s *Scheme) Place() Place {
	in, name, _ := s.Credential("")
	p := Place{In: in, Name: name, As: AsKey}
	switch s.Kind {
	case SchemeBasic:
		p.As = AsBasic
	case SchemeBearer, SchemeOAuth2, SchemeOpenIDConnect:
		p.As = AsBearer
	case SchemeDigest:
		p.As = AsDigest
	case SchemeHTTP:
		p.As = s.Def.Scheme
	}
	return p
}

// Same reports whether p and q are one place: a header's name, as any
// other, compared without regard to case.
func (p Place) Same(q Place) bool {
	return p.In == q.In && p.As == q.As && strings.EqualFold(p.Name, q.Name)
}

// Credential returns how key is presented at p: where it travels, under
// which name, and the value sent, such as "header", "Authorization",
// "Bearer <key>". Digest credentials are made for each request: at a
// place of AsDigest, the value is the scheme's name alone, as
// Scheme.Credential's.
func (p Place) Credential(key string) (in, name, value string) {
	switch p.As {
	case AsBearer:
		return p.In, p.Name, "Bearer " + key
	case AsBasic:
		return p.In, p.Name, "Basic " + base64.StdEncoding.EncodeToString([]byte(":"+key))
	case AsKey:
		return p.In, p.Name, key
	case AsDigest:
		return p.In, p.Name, "Digest"
	}
	return p.In, p.Name, p.As + " " + key // another http scheme's
}

// WrongPlace is a place a key may be sent to by mistake, and how a
// message names it, such as "the key as a bearer token".
type WrongPlace struct {
	Name string // for messages, such as "the key as a bearer token"
	Place
}

// Places next to where a scheme puts its key, that a client may send it to
// by mistake.
var (
	asBearer      = WrongPlace{"the key as a bearer token", Place{InHeader, "Authorization", AsBearer}}
	asBasic       = WrongPlace{"the key as HTTP basic credentials", Place{InHeader, "Authorization", AsBasic}}
	asBare        = WrongPlace{"the bare key in Authorization", Place{InHeader, "Authorization", AsKey}}
	asAccessToken = WrongPlace{"the key in the query as access_token", Place{InQuery, "access_token", AsKey}}
)

// WrongPlaces returns the places next to where the scheme puts the key:
// for a bearer token or basic credentials, the other ways of writing a
// key in Authorization, and the access_token query parameter of RFC 6750
// for a bearer token; for Digest and another http scheme, a bearer token,
// basic credentials and the bare key in Authorization; for an apiKey, a bearer token and the header,
// query parameter or cookie of its name that it is not sent in. An
// apiKey in Authorization has the two schemes of Authorization.
func (s *Scheme) WrongPlaces() []WrongPlace {
	named := func(in string) WrongPlace {
		return WrongPlace{"the key in the " + in + " as " + s.Param, Place{in, s.Param, AsKey}}
	}
	switch own := s.Place(); {
	case own.As == AsBearer:
		return []WrongPlace{asBasic, asBare, asAccessToken}
	case own.As == AsBasic:
		return []WrongPlace{asBearer, asBare}
	case own.As == AsDigest || own.As != AsKey:
		// Digest, or another http scheme: the other ways of writing a
		// key in Authorization.
		return []WrongPlace{asBearer, asBasic, asBare}
	case strings.EqualFold(own.Name, "Authorization"):
		return []WrongPlace{asBearer, asBasic}
	case own.In == InHeader:
		return []WrongPlace{asBearer, named(InQuery)}
	case own.In == InQuery:
		return []WrongPlace{asBearer, named(InHeader)}
	default:
		return []WrongPlace{named(InHeader), named(InQuery)}
	}
}
