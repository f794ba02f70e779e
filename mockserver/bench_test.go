package mockserver

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// The benchmarks measure the hot paths without a network: a request goes
// straight to ServeHTTP, and the answer to a writer that keeps nothing.
// Run them with:
//
//	go test ./mockserver -run '^$' -bench . -benchmem

// discardWriter is an http.ResponseWriter that throws the answer away but
// keeps its status, and can be reused.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(status int)      { w.status = status }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }

func (w *discardWriter) reset() {
	clear(w.h)
	w.status = 0
}

func benchServer(b *testing.B, items catalogue.Items) *Server {
	b.Helper()
	s, err := New(Config{Items: items, JournalSize: -1})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// benchRequest serves req b.N times and checks the status.
func benchRequest(b *testing.B, s *Server, newReq func() *http.Request, want int) {
	b.Helper()
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w.reset()
		s.ServeHTTP(w, newReq())
		if w.status != want {
			b.Fatalf("status = %d, want %d", w.status, want)
		}
	}
}

// get returns a request for path, the same one each time: building it is
// net/http's work, not the mock's.
func get(path string) func() *http.Request {
	r := httptest.NewRequest("GET", "http://petmock"+path, nil)
	r.Header.Set("Authorization", "Bearer "+DefaultAPIKey)
	return func() *http.Request { return r }
}

// BenchmarkServeListPets is GET /v1/pets?limit=20 through the whole
// pipeline: routing, the key, validation, the page and its encoding.
func BenchmarkServeListPets(b *testing.B) {
	s := benchServer(b, nil)
	benchRequest(b, s, get("/v1/pets?limit=20"), 200)
}

func BenchmarkServeListPetsFiltered(b *testing.B) {
	s := benchServer(b, nil)
	benchRequest(b, s, get("/v1/pets?status=sold&limit=20"), 200)
}

func BenchmarkServeGetPet(b *testing.B) {
	s := benchServer(b, nil)
	benchRequest(b, s, get("/v1/pets/7"), 200)
}

func BenchmarkServeCreatePet(b *testing.B) {
	s := benchServer(b, catalogue.Items{})
	const body = `{"name":"Benchmark","categoryId":3,"status":"pending"}`
	r := httptest.NewRequest("POST", "http://petmock/v1/pets", nil)
	r.Header.Set("Authorization", "Bearer "+DefaultAPIKey)
	r.Header.Set("Content-Type", "application/json")
	r.ContentLength = int64(len(body))
	rd := strings.NewReader(body)
	benchRequest(b, s, func() *http.Request {
		rd.Reset(body)
		r.Body = io.NopCloser(rd)
		return r
	}, 201)
}

func BenchmarkServeUnauthorized(b *testing.B) {
	s := benchServer(b, nil)
	r := httptest.NewRequest("GET", "http://petmock/v1/pets", nil)
	benchRequest(b, s, func() *http.Request { return r }, 401)
}

// BenchmarkSeedMillion generates and stores a catalogue of a million
// pets, as petmock --pets 1000000 does at start.
func BenchmarkSeedMillion(b *testing.B) {
	b.ReportAllocs()
	c, err := spec.Default()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := New(Config{Contract: c, Catalogue: &catalogue.Seeded{Seed: 3, Count: 1_000_000}, JournalSize: -1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkItemJSON writes a pet as petmock answers with it.
func BenchmarkItemJSON(b *testing.B) {
	c, err := spec.Default()
	if err != nil {
		b.Fatal(err)
	}
	sh := shape.NewBuilder(c).Item(c.Resources[0])
	item := map[string]any{"id": json.Number("123456"), "name": "Fyodor Dogstoevsky", "categoryId": json.Number("3"), "status": "available"}
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		buf = sh.AppendJSON(buf[:0], item)
	}
}

// BenchmarkServeListPetsJournal is BenchmarkServeListPets with the request
// journal and a request log, as petmock runs by default.
func BenchmarkServeListPetsJournal(b *testing.B) {
	s, err := New(Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	benchRequest(b, s, get("/v1/pets?limit=20"), 200)
}

// BenchmarkProxyListPets serves listPets through the proxy: the backend,
// another Server, answers over a loopback connection, and its answer is
// checked and relayed. It counts the backend's work too.
func BenchmarkProxyListPets(b *testing.B) {
	backend, err := New(Config{JournalSize: -1})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(backend)
	defer hs.Close()
	// The client's key is petmock's, and goes no further: the backend is
	// sent the same one as the proxy's key.
	s, err := New(Config{Proxy: Proxy{URL: hs.URL + "/v1", Key: DefaultAPIKey}, JournalSize: -1})
	if err != nil {
		b.Fatal(err)
	}
	benchRequest(b, s, func() *http.Request {
		r := httptest.NewRequest("GET", "http://petmock/v1/pets?limit=20", nil)
		r.Header.Set("Authorization", "Bearer "+DefaultAPIKey)
		return r
	}, http.StatusOK)
}

// BenchmarkServeGetPetExpectations is GET /v1/pets/1 with expectations
// set: none, as many as may be that match another path and are looked
// through in vain, and one that answers.
func BenchmarkServeGetPetExpectations(b *testing.B) {
	for _, tt := range []struct {
		name  string
		set   int  // expectations of other paths
		match bool // and one of this one, last
		made  bool // whose answer is made of the request
	}{
		{"none", 0, false, false},
		{"100 others", steer.MaxExpectations, false, false},
		{"matched", 0, true, false},
		{"matched, made of the request", 0, true, true},
	} {
		b.Run(tt.name, func(b *testing.B) {
			s := benchServer(b, nil)
			pet := `{"id":1,"name":"Rex","categoryId":1}`
			for i := range tt.set {
				e := steer.Expectation{When: steer.RequestMatch{Method: "GET", Path: "/v1/pets/" + strings.Repeat("9", 1+i%9) + "0" + string(rune('0'+i/10))},
					Answer: steer.CannedAnswer{Status: 200, Body: json.RawMessage(pet)}}
				if _, err := s.Steering().Expect(e); err != nil {
					b.Fatal(err)
				}
			}
			if tt.match {
				e := steer.Expectation{When: steer.RequestMatch{Method: "GET", Path: "/v1/pets/1"}, Answer: steer.CannedAnswer{Status: 200, Body: json.RawMessage(pet)}}
				if tt.made {
					e.When.Path = "/pets/{petId}"
					e.Answer.Body = json.RawMessage(`{"id":"{{path.petId}}","name":"Pet {{path.petId}}","categoryId":1}`)
				}
				if _, err := s.Steering().Expect(e); err != nil {
					b.Fatal(err)
				}
			}
			benchRequest(b, s, get("/v1/pets/1"), 200)
		})
	}
}

// BenchmarkServeMadeAnswer is a GET of an operation of no resource whose
// answer, an array of objects, is made from the schema: the same request
// again, whose answer is kept (answer/made.go).
func BenchmarkServeMadeAnswer(b *testing.B) {
	c, err := spec.ReadFile("answer/testdata/made.yaml")
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(Config{Contract: c, JournalSize: -1})
	if err != nil {
		b.Fatal(err)
	}
	benchRequest(b, s, get("/v1/pets/findByStatus?status=sold"), 200)
}

// BenchmarkTakeOver is a reload of the document under petmock --watch:
// a server of a later version, with a new field, takes over 100,000 pets
// from one of the version before, each made to fit the new item schema.
// The server's own start, its catalogue included, is not counted.
func BenchmarkTakeOver(b *testing.B) {
	evolved, err := spec.ReadFile("../testdata/evolved-field.yaml")
	if err != nil {
		b.Fatal(err)
	}
	old, err := New(Config{Catalogue: &catalogue.Seeded{Count: 100_000}, JournalSize: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		next, err := New(Config{Contract: evolved, Items: catalogue.Items{}, JournalSize: -1})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := next.TakeOver(old, nil); err != nil {
			b.Fatal(err)
		}
		old = next
	}
}
