package admin

import (
	"net/http"
	"time"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
)

// GET /__petmock/events streams Server-Sent Events to the console: a
// named event, with an empty JSON object as its data, whenever what an
// admin endpoint shows has changed, so that the page asks for it again.
// It takes the key in a header like every admin endpoint; a browser's
// EventSource cannot send one, so the console reads the stream with fetch.
//
//	event: journal    a request the journal keeps was answered
//	event: store      the items of a resource changed
//	event: settings   a setting changed
//	event: forced     the answers forced from the admin API changed
//	event: violations a backend's answer broke the document, or the view was emptied
//	event: expectations  an expectation was set, answered or dropped
//	event: document   petmock serves a new version of the document, or could not
//
// Events of one kind that come in a burst are sent once: a stream sends at
// most one batch every eventGap. A comment line every heartbeat keeps
// proxies from closing a quiet stream. The streams open at once are
// capped (streams.go).

// eventNames are the names of the kinds of change, in the order a batch
// sends them.
var eventNames = []struct {
	kind journal.Change
	name string
}{
	{journal.ChangeDocument, "document"},
	{journal.ChangeSettings, "settings"},
	{journal.ChangeForced, "forced"},
	{journal.ChangeExpectations, "expectations"},
	{journal.ChangeStore, "store"},
	{journal.ChangeJournal, "journal"},
	{journal.ChangeViolations, "violations"},
}

const (
	eventGap  = 200 * time.Millisecond
	heartbeat = 15 * time.Second
	// eventWriteTimeout bounds each write of a stream, in place of the
	// HTTP server's WriteTimeout, which a long stream would outlive.
	eventWriteTimeout = 30 * time.Second
)

// events answers GET /__petmock/events with a stream that lasts until the
// client goes away or the server closes (mockserver.Server.Close).
func (h *handler) events(w http.ResponseWriter, r *http.Request, _ *mockserver.Call) error {
	release, err := h.streams.take(r)
	if err != nil {
		return err
	}
	defer release()
	rc := http.NewResponseController(w)
	// The stream outlives the HTTP server's WriteTimeout, which is meant
	// for answers: each write has a deadline of its own instead. (Its
	// ReadTimeout ends once the request is read.)
	rc.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
	header := w.Header()
	header.Set("Content-Type", "text/event-stream")
	header.Set("Cache-Control", "no-store")
	header.Set("X-Accel-Buffering", "no") // tells a proxy such as nginx not to buffer it
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	sub := h.srv.Subscribe()
	defer sub.Close()
	if _, err := w.Write([]byte("retry: 2000\n\n")); err != nil {
		return nil
	}
	if rc.Flush() != nil {
		return nil
	}
	// A write of the API announces nothing: Take finds it, once a
	// stream looks.
	check := time.NewTicker(h.storeCheck)
	defer check.Stop()
	quiet := time.Now()
	for {
		select {
		case <-r.Context().Done():
			return nil
		case <-sub.Done():
			return nil
		case <-sub.Changed():
		case <-check.C:
		}
		kinds := sub.Take()
		var batch []byte
		for _, ev := range eventNames {
			if kinds&ev.kind != 0 {
				batch = append(batch, "event: "+ev.name+"\ndata: {}\n\n"...)
			}
		}
		if batch == nil {
			if time.Since(quiet) < heartbeat {
				continue
			}
			batch = []byte(": still here\n\n")
		}
		quiet = time.Now()
		rc.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
		if _, err := w.Write(batch); err != nil {
			return nil
		}
		if rc.Flush() != nil {
			return nil
		}
		// What changes during the gap goes out in the next batch.
		gap := time.NewTimer(eventGap)
		select {
		case <-r.Context().Done():
			gap.Stop()
			return nil
		case <-sub.Done():
			gap.Stop()
			return nil
		case <-gap.C:
		}
	}
}
