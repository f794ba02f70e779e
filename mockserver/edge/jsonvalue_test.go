package edge

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
)

// decodeByDecoder is what DecodeJSON decoded every body with before
// decodePlain, and still decodes those it declines with.
func decodeByDecoder(body []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

// checkPlain fails when decodePlain takes body and decodes it otherwise
// than encoding/json's Decoder, or takes a body the Decoder refuses.
func checkPlain(t *testing.T, body []byte) (taken bool) {
	t.Helper()
	got, ok := decodePlain(body)
	want, valid := decodeByDecoder(body)
	if !ok {
		return false
	}
	if !valid {
		t.Fatalf("decodePlain(%q) took a body the Decoder refuses, as %#v", body, got)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decodePlain(%q) = %#v, the Decoder gives %#v", body, got, want)
	}
	return true
}

func TestDecodePlainIsTheDecoders(t *testing.T) {
	for _, tt := range []struct {
		body  string
		taken bool // by decodePlain, not declined
	}{
		{`{"name":"Rex","categoryId":3,"status":"pending"}`, true},
		{` { "name" : "Rex" , "tags" : [ "a" , "b" ] } ` + "\n", true},
		{`{"a":{},"b":[],"c":[{}],"d":null,"e":true,"f":false}`, true},
		{`{"n":-0.5e+10,"m":12345678901234567890123,"k":1E3,"z":0}`, true},
		{`{"a":1,"a":2}`, true},
		{`{"ünï":"cödé ✓"}`, true},
		{`[1,[2,[3,{"x":[]}]]]`, true},
		{`"text"`, true},
		{`42`, true},
		{` 42 `, true},
		{`null`, true},
		{`{"a":"quote \" inside"}`, false},
		{`{"a":"\u00e9"}`, false},
		{`{"k\n":1}`, false},
		{"{\"a\":\"\xff\"}", false},
		{`{"a":1} {"b":2}`, false},
		{`{"a":1`, false},
		{`{"a":01}`, false},
		{``, false},
		{`nul`, false},
		{`{"a" 1}`, false},
		{`{"a":1,}`, false},
		{`{,"a":1}`, false},
		{`{"a":1 "b":2}`, false},
		{`[1 2]`, false},
		{`[1,]`, false},
		{`[,1]`, false},
		{`truex`, false},
		{`-`, false},
		{`1.`, false},
		{`1e`, false},
		{`1e+`, false},
		{`.5`, false},
		{`+1`, false},
		{`-01`, false},
		{"{\"a\":\"tab\there\"}", false},
		{`{"a":"open}`, false},
		{`{1:2}`, false},
		{strings.Repeat("[", maxPlainDepth+1) + strings.Repeat("]", maxPlainDepth+1), false},
		{strings.Repeat("[", 100) + strings.Repeat("]", 100), true},
	} {
		if got := checkPlain(t, []byte(tt.body)); got != tt.taken {
			t.Errorf("decodePlain(%q) took it: %v, want %v", tt.body, got, tt.taken)
		}
	}
}

// FuzzDecodePlain holds decodePlain to the Decoder on any body.
func FuzzDecodePlain(f *testing.F) {
	for _, s := range []string{`{"name":"Rex","categoryId":3}`, `[1,"a",{"b":null}]`, `{"a":"\u00e9"}`, `-1.5e3`, `{"a":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkPlain(t, body) })
}

// BenchmarkDecodeJSON decodes the body of a create, as every write does.
//
//	go test ./mockserver/edge -run '^$' -bench DecodeJSON -benchmem
func BenchmarkDecodeJSON(b *testing.B) {
	body := []byte(`{"name":"Load","categoryId":2,"status":"pending"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, e := DecodeJSON(body); e != nil {
			b.Fatal(e)
		}
	}
}
