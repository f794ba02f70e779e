package journal

import (
	"net"
	"net/http"
)

// Some answer headers repeat what a request sent: Location and Link name
// the host of Host or of a proxy's Forwarded and X-Forwarded-Host (see
// origin.go), Access-Control-Allow-Origin repeats Origin, and a preflight
// allows the headers Access-Control-Request-Headers names. A key sent in
// one of them, by mistake or to make a log or a cache hold it, would come
// back in an answer header, where petmock hides it nowhere else. So a
// request that holds a key in one of them is answered as if it had not
// sent that header: a forwarded host is not believed, the Host becomes
// the address the connection reached, and Origin and the preflight's
// headers are left out.

// echoedHeaders are the request headers an answer header may repeat.
var echoedHeaders = []string{"Forwarded", "X-Forwarded-Host", "X-Forwarded-Proto", "Origin", "Access-Control-Request-Headers"}

// WithoutEchoedKeys returns r, or a copy of it without the headers that
// hold a key and that an answer header would repeat.
func (rd *Redactor) WithoutEchoedKeys(r *http.Request) *http.Request {
	holds := rd.Hides
	var drop []string
	for _, name := range echoedHeaders {
		for _, v := range r.Header[name] {
			if holds(v) {
				drop = append(drop, name)
				break
			}
		}
	}
	hostHolds := holds(r.Host)
	if drop == nil && !hostHolds {
		return r
	}
	c := r.Clone(r.Context())
	for _, name := range drop {
		delete(c.Header, name)
	}
	if hostHolds {
		c.Host = "localhost"
		if addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			c.Host = addr.String()
		}
	}
	return c
}
