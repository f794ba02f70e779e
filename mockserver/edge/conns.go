package edge

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Each connection holds a file descriptor, and a process may open only so
// many: 5,000 idle connections once took every descriptor of a petmock
// limited to 4,096 for 10 s, and with them its health check. So a
// Listener with WireLimits.MaxConns holds at most that many connections,
// and with MaxIdleConns at most that many idle ones: accepted and waiting
// for a request, or for the next one. Idle connections are the ones to
// go: past MaxIdleConns, the one idle longest is closed, as the idle
// timeout would close it; a connection that comes while MaxConns are open
// takes the place of the one idle longest, so that a new client, the
// health check among them, gets in however many connections sit idle.
// Only when every connection is busy with a request is a new one refused:
// it is answered 503 at once, in the document's error body with
// Retry-After, and closed. The server tells the Listener how each
// connection is (ConnState).

// refuseDrain is how long a refused connection is read after its 503
// before it is closed, so that the client reads the answer rather than a
// reset; maxDraining bounds the refused connections drained at once.
const (
	refuseDrain = 100 * time.Millisecond
	maxDraining = 64
)

// conns counts the connections of a Listener, and keeps the idle ones in
// the order they became idle.
type conns struct {
	max, maxIdle int
	draining     chan struct{} // of capacity maxDraining

	mu   sync.Mutex // guards open, idle and each connection's place in it
	open int
	idle idleList
}

// idleList is the idle connections, the one idle longest first, linked
// through the connections themselves, so that a connection going idle,
// which it does after every request, allocates nothing.
type idleList struct {
	front, back *wireConn
	n           int
}

// pushBack puts c, which is in no list, last.
func (l *idleList) pushBack(c *wireConn) {
	c.prev, c.next, c.idle = l.back, nil, true
	if l.back != nil {
		l.back.next = c
	} else {
		l.front = c
	}
	l.back = c
	l.n++
}

// remove takes c, which is in l, out of it.
func (l *idleList) remove(c *wireConn) {
	if c.prev != nil {
		c.prev.next = c.next
	} else {
		l.front = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	} else {
		l.back = c.prev
	}
	c.prev, c.next, c.idle = nil, nil, false
	l.n--
}

// admit counts c, a connection just accepted, in, and returns the
// connections to close to make room for it, or false when every
// connection is busy and c must be refused.
func (cs *conns) admit(c *wireConn) ([]*wireConn, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	var evict []*wireConn
	if cs.max > 0 && cs.open >= cs.max {
		oldest := cs.idle.front
		if oldest == nil {
			return nil, false
		}
		evict = append(evict, cs.forget(oldest))
	}
	cs.open++
	c.counted = true
	cs.idle.pushBack(c) // a new connection waits for its request
	for cs.maxIdle > 0 && cs.idle.n > cs.maxIdle {
		evict = append(evict, cs.forget(cs.idle.front))
	}
	return evict, true
}

// forget takes c, an idle connection, out of the count, as it is to be
// closed. The caller holds mu.
func (cs *conns) forget(c *wireConn) *wireConn {
	cs.idle.remove(c)
	c.counted = false
	cs.open--
	return c
}

// state notes what the server says of c.
func (cs *conns) state(c *wireConn, s http.ConnState) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if !c.counted {
		return
	}
	switch s {
	case http.StateIdle:
		if !c.idle {
			cs.idle.pushBack(c)
		}
	case http.StateActive, http.StateHijacked, http.StateClosed:
		if c.idle {
			cs.idle.remove(c)
		}
	}
}

// closed takes c out of the count, once, as it closes.
func (cs *conns) closed(c *wireConn) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if !c.counted {
		return
	}
	if c.idle {
		cs.idle.remove(c)
	}
	c.counted = false
	cs.open--
}

// Conns returns how many connections the Listener holds open, and how
// many of them are idle.
func (l *WireListener) Conns() (open, idle int) {
	if l.conns == nil {
		return 0, 0
	}
	l.conns.mu.Lock()
	defer l.conns.mu.Unlock()
	return l.conns.open, l.conns.idle.n
}

// ConnState tells the Listener how a connection it accepted is, as
// http.Server's ConnState hook does: set that hook to it, so that the
// Listener knows which connections are idle.
func (l *WireListener) ConnState(c net.Conn, s http.ConnState) {
	if wc, ok := c.(*wireConn); ok && l.conns != nil {
		l.conns.state(wc, s)
	}
}

// refuse answers c, a connection that came while every connection is
// busy, with a 503 in plan's error body, and closes it.
func (cs *conns) refuse(c net.Conn, plan *ErrorPlan) {
	e := NewError(http.StatusServiceUnavailable, "connections",
		"petmock holds %d connections, each busy with a request, as many as it may; try again in a second", cs.max)
	contentType, body := plan.answer(e)
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 503 " + http.StatusText(http.StatusServiceUnavailable) + "\r\n")
	if len(contentType) > 0 {
		b.WriteString("Content-Type: " + contentType[0] + "\r\n")
	}
	b.WriteString("Retry-After: 1\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\nConnection: close\r\n\r\n")
	b.Write(body)
	select {
	case cs.draining <- struct{}{}:
	default:
		c.Close() // too many refused at once: no answer, but the descriptor back
		return
	}
	go func() {
		defer func() { <-cs.draining }()
		c.SetDeadline(time.Now().Add(refuseDrain))
		c.Write(b.Bytes())
		if cw, ok := c.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		io.Copy(io.Discard, c)
		c.Close()
	}()
}
