package persist

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/steer"
	"github.com/petstore/contract/spec"
)

// hangDetector bounds what a test waits for: a server that has not
// answered by then never will.
const hangDetector = 10 * time.Second

// asRoot reports whether the tests run as root, for whom permissions do
// not bite: a directory of mode 0555 is writable all the same.
func asRoot() bool { return os.Geteuid() == 0 }

// source is a server as a Saver sees it, wired as petmock wires it: the
// one that serves now.
type source struct{ srv *mockserver.Server }

// Serving returns the items and the steering of the server that serves
// now.
func (s source) Serving() (*catalogue.Resources, *steer.Steering) {
	latest := s.srv.Latest()
	return latest.Items(), latest.Steering()
}

// Subscribe returns a subscription to the changes of srv, and of those
// that take over from it.
func (s source) Subscribe() Subscription { return s.srv.Subscribe() }

// durabilities are the ways of keeping the items a test runs in: every
// write saved before it is answered, and saves at an interval (an hour,
// so that the test's ticks are the saves).
var durabilities = []struct {
	name     string
	interval time.Duration
}{{"each write saved", 0}, {"saved at an interval", time.Hour}}

// seeded returns the catalogue of petmock --pets n.
func seeded(n int) *catalogue.Seeded {
	return &catalogue.Seeded{Seed: catalogue.DefaultSeed, Count: n}
}

// savedServer is a server with a state file, served as petmock serves
// it: the API and the admin API over HTTP, writes that wait for their
// saves, or are answered at once with an interval, and a saver that runs
// until the server stops, and ticks besides when the test says.
type savedServer struct {
	*httptest.Server
	url   string // of the API, ending in /v1
	srv   *mockserver.Server
	saver *Saver
	log   *syncWriter // the saver's

	cancel  context.CancelFunc // stops Run
	running chan struct{}      // closed once Run has returned
	stopped bool
}

// newSavedServer serves a server of server's settings with the state file
// at path, kept as cfg says, until the test ends or stop is called.
func newSavedServer(t testing.TB, path string, cfg Config, server mockserver.Config) *savedServer {
	t.Helper()
	srv, err := mockserver.New(server)
	if err != nil {
		t.Fatal(err)
	}
	log := &syncWriter{}
	saver, err := Open(path, source{srv}, slog.New(slog.NewTextHandler(log, nil)), cfg)
	if err != nil {
		t.Fatal(err)
	}
	commitBy(srv, saver, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	s := &savedServer{srv: srv, saver: saver, log: log, cancel: cancel, running: make(chan struct{})}
	go func() { defer close(s.running); saver.Run(ctx) }()
	handler, err := admin.New(srv, admin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	s.Server = httptest.NewServer(handler)
	s.url = s.URL + srv.Contract().Base
	t.Cleanup(func() { s.stop() })
	return s
}

// commitBy makes the writes of srv wait for their saves, or, with an
// interval, answers them at once, as petmock does.
func commitBy(srv *mockserver.Server, saver *Saver, cfg Config) {
	if cfg.Interval > 0 {
		srv.Items().SetCommit(saver.Acknowledge)
	} else {
		srv.Items().SetCommit(saver.Commit)
	}
}

// stop stops the server as petmock stops: the requests end, then the
// saver, which makes its last save. It returns the last save's error;
// once stopped, it returns nil.
func (s *savedServer) stop() error {
	if s.stopped {
		return nil
	}
	s.stopped = true
	s.srv.Close()
	s.Server.Close()
	s.cancel()
	<-s.running
	return s.saver.Close()
}

// get sends a request with the default key and returns its status and
// body.
func get(t testing.TB, method, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// post sends a POST creating a pet named name, or, with no name, a GET.
func post(t testing.TB, url, name string) (int, string) {
	t.Helper()
	if name == "" {
		return get(t, "GET", url, "")
	}
	return get(t, "POST", url, `{"name":"`+name+`","categoryId":1}`)
}

// pet is a pet of the Petstore, as the tests read them.
type pet struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CategoryID int64  `json:"categoryId"`
	Status     string `json:"status,omitempty"`
}

// readPetsFile reads the pets of a fixture file, such as a state file,
// checked against the embedded document.
func readPetsFile(path string) ([]pet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := spec.Default()
	if err != nil {
		return nil, err
	}
	items, err := catalogue.ReadFixture(c, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	pets := make([]pet, len(items["pets"]))
	for i, item := range items["pets"] {
		if err := json.Unmarshal(item, &pets[i]); err != nil {
			return nil, err
		}
	}
	return pets, nil
}

// syncWriter keeps what is written to it, for one writer at a time.
type syncWriter struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
