package request

import (
	"net/http"
	"net/url"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// The near misses of the run's key: a deployment that compares keys
// loosely (ignoring case, by prefix, taking an empty one) or looks for
// them in more places than its document gives must still refuse them.
// Each security scheme the document uses is tried on one operation
// (SchemeTrials).

// NearMiss is a credential close to the run's key, sent in place of one
// scheme's: a form of the key where the scheme puts it, or the key where
// the document puts none.
type NearMiss struct {
	// Name says what is sent, such as "the key in another case".
	Name    string
	present func(r *judge.Request)
}

// documentedPlaces returns the places of every scheme of every security
// requirement of op: the key is rightly taken in any of them.
func documentedPlaces(op *spec.Operation) []spec.Place {
	var out []spec.Place
	for _, req := range op.Requirements {
		for _, s := range req {
			out = append(out, s.Place())
		}
	}
	return out
}

// NearMisses returns the near misses of the run's key for scheme s of
// op: the key in another case (where that is another key), with a
// character added or its last one left out, an empty key, and the key in
// the places next to s's that the document does not give op.
func NearMisses(key string, op *spec.Operation, s *spec.Scheme) []NearMiss {
	var out []NearMiss
	for _, f := range []struct {
		name    string
		form    judge.KeyForm
		applies bool
	}{
		{"the key in another case", judge.FormOtherCase, judge.SwapCase(key) != key},
		{"the key with a character added", judge.FormLonger, true},
		{"the key without its last character", judge.FormShorter, len(key) > 1},
		{"an empty key", judge.KeyForm{Shown: ""}, true},
	} {
		if !f.applies {
			continue
		}
		out = append(out, NearMiss{f.name, func(r *judge.Request) { presentAs(r, s, f.form.Shown) }})
	}
	documented := documentedPlaces(op)
	for _, w := range s.WrongPlaces() {
		if !slices.ContainsFunc(documented, w.Same) && !declares(op, w.Place) {
			out = append(out, NearMiss{w.Name, func(r *judge.Request) { presentAt(r, w.Place, judge.KeyVar) }})
		}
	}
	return out
}

// declares reports whether op declares a parameter of its own where p
// puts a key, such as an access_token in its query: what is sent there is
// the operation's to read, not a key it may be told to refuse.
func declares(op *spec.Operation, p spec.Place) bool {
	for _, param := range op.Parameters {
		if param.In == p.In && (param.Name == p.Name || p.In == spec.InHeader && http.CanonicalHeaderKey(param.Name) == http.CanonicalHeaderKey(p.Name)) {
			return true
		}
	}
	return false
}

// presentAt sends the credential of form, a form of the run's key or ""
// for an empty one, at place p. Basic credentials of a form of the key
// are encoded on the wire only, where the form is replaced.
func presentAt(r *judge.Request, p spec.Place, form string) {
	if p.As == spec.AsBasic {
		r.Basic, r.BasicKey = &p, form
		return
	}
	in, name, value := p.Credential(form)
	sendCredential(r, in, name, value)
}

// presentAs sends the credential of scheme s with form, a form of the
// run's key or "" for an empty one, where s puts the key.
func presentAs(r *judge.Request, s *spec.Scheme, form string) {
	if s.Place().As == spec.AsBasic {
		presentAt(r, s.Place(), form)
		return
	}
	in, name, value := s.Credential(form)
	sendCredential(r, in, name, value)
}

// sendCredential sets the credential called name, sent in the header,
// the query or a cookie, to value, even an empty one.
func sendCredential(r *judge.Request, in, name, value string) {
	switch in {
	case spec.InQuery:
		q, _ := url.ParseQuery(r.Query)
		q.Set(name, value)
		r.Query = q.Encode()
	case spec.InCookie:
		r.Header.Set("Cookie", name+"="+value)
	default:
		r.Header.Set(name, value)
	}
}

// WithNearMiss returns the option that sends the credentials of req, a
// security requirement of op, with miss in place of scheme s's, and those of
// its other schemes as they should be: nothing else of the run's key. An
// other scheme whose key goes where s's does is s's credential too, and is
// left to the miss: Google's operations ask for two OAuth 2 schemes at
// once, both a bearer token, so that the key in the query in place of one
// went with the right token of the other.
func (m *Maker) WithNearMiss(op *spec.Operation, req spec.Requirement, s *spec.Scheme, miss NearMiss) judge.Option {
	return func(r *judge.Request) {
		m.Credentials(op, "")(r)
		for _, other := range req {
			if other != s && !other.Place().Same(s.Place()) {
				presentAs(r, other, judge.KeyVar)
			}
		}
		miss.present(r)
	}
}

// SchemeTrial is a security scheme and the operation its near misses are
// tried on, with the requirement of it that names the scheme.
type SchemeTrial struct {
	Scheme      *spec.Scheme     // the scheme whose key is missed
	Op          *spec.Operation  // the operation it is tried on
	Requirement spec.Requirement // the alternative of Op's security that names Scheme
}

// SchemeTrials returns, for each security scheme the operations of c use
// to require a key, the operation to try its near misses on: a GET that
// needs no parameter if there is one, as it costs a single request, and
// otherwise the first that requires it. Operations whose key is optional
// are left out: a near miss may rightly pass there as no key at all.
func SchemeTrials(c *spec.Contract) []SchemeTrial {
	var out []SchemeTrial
	seen := map[string]int{} // scheme name, to its index in out
	for _, op := range c.Operations {
		if !RequiresKey(op) {
			continue
		}
		cheap := op.Method == http.MethodGet && !NeedsParameters(op)
		for _, req := range op.Requirements {
			for _, s := range req {
				if s.Unsupported != "" || metWithout(op, req, s) {
					continue
				}
				i, ok := seen[s.Name]
				switch {
				case !ok:
					seen[s.Name] = len(out)
					out = append(out, SchemeTrial{s, op, req})
				case cheap && !(out[i].Op.Method == http.MethodGet && !NeedsParameters(out[i].Op)):
					out[i] = SchemeTrial{s, op, req}
				}
			}
		}
	}
	return out
}

// metWithout reports whether another alternative of op's security is met
// by the schemes of req but s: a key near the run's for s, the others
// presented right, is then a request a correct server serves. Stream's
// operations take a JWT, an api_key and a Stream-Auth-Type, or the last
// two alone.
func metWithout(op *spec.Operation, req spec.Requirement, s *spec.Scheme) bool {
	for _, alt := range op.Requirements {
		if len(alt) == 0 || slices.Equal(alt, req) {
			continue
		}
		if !slices.ContainsFunc(alt, func(a *spec.Scheme) bool {
			return a.Name == s.Name || !slices.ContainsFunc(req, func(r *spec.Scheme) bool { return r.Name == a.Name })
		}) {
			return true
		}
	}
	return false
}

// RequiresKey reports whether op requires a key: it has security, and no
// alternative of it is empty.
func RequiresKey(op *spec.Operation) bool {
	if len(op.Requirements) == 0 {
		return false
	}
	for _, req := range op.Requirements {
		if len(req) == 0 {
			return false
		}
	}
	return true
}

// KeyOptional reports whether op takes a key but does not require one:
// one alternative of its security is empty.
func KeyOptional(op *spec.Operation) bool {
	return len(op.Requirements) > 0 && !RequiresKey(op)
}

// NeedsParameters reports whether op has a path parameter or another
// required one.
func NeedsParameters(op *spec.Operation) bool {
	for _, p := range op.Parameters {
		if p.In == openapi3.ParameterInPath || p.Required {
			return true
		}
	}
	return false
}
