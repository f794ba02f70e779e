package corpus

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// tarball is a gzipped tarball of files, by name, as npm packs one.
func tarball(tb testing.TB, files map[string]string) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			tb.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			tb.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func sri(data []byte) string {
	sum := sha512.Sum512(data)
	return "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
}

// registry serves one tarball and counts the downloads.
func registry(tb testing.TB, data []byte) (string, *atomic.Int32) {
	tb.Helper()
	var n atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Write(data)
	}))
	tb.Cleanup(hs.Close)
	return hs.URL + "/pkg.tgz", &n
}

const petsJS = `S(this,"updateSpec",(()=>{this.props.updateSpec("openapi: 3.0.0\ninfo:\n  title: \"Pets\" \u00e9 \ud83d\udc3e\n  version: 1.0.0\npaths: {}\n")}));`

func TestDocumentsAreFetchedOnceAndChecked(t *testing.T) {
	data := tarball(t, map[string]string{
		"package/3.0/a.yaml": "openapi: 3.0.0\n",
		"package/3.0/b.yaml": "openapi: 3.0.1\n",
		"package/2.0/c.json": "{}",
		"package/bundle.js":  petsJS,
	})
	url, downloads := registry(t, data)
	m := &Manifest{
		Packages: map[string]Package{"p": {Name: "p@1.0.0", Tarball: url, Integrity: sri(data), Sweep: "package/3.0/*.yaml"}},
		Documents: []Document{
			{Name: "a", Source: "example.com a", Package: "p", Path: "package/3.0/a.yaml"},
			{Name: "pets", Package: "p", Path: "package/bundle.js", Literal: "updateSpec"},
		},
	}
	c := &Cache{Dir: t.TempDir()}
	for range 2 {
		files, err := c.Documents(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 2 || files[0].Name != "a" || files[0].Source != "example.com a" {
			t.Fatalf("documents = %+v", files)
		}
		if got, _ := os.ReadFile(files[0].Path); string(got) != "openapi: 3.0.0\n" {
			t.Errorf("a = %q", got)
		}
		want := "openapi: 3.0.0\ninfo:\n  title: \"Pets\" é 🐾\n  version: 1.0.0\npaths: {}\n"
		if got, _ := os.ReadFile(files[1].Path); string(got) != want {
			t.Errorf("the literal document = %q, want %q", got, want)
		}
	}
	sweep, err := c.Sweep(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range sweep {
		names = append(names, f.Name)
	}
	if strings.Join(names, " ") != "p/package/3.0/a.yaml p/package/3.0/b.yaml" {
		t.Errorf("sweep = %v", names)
	}
	if n := downloads.Load(); n != 1 {
		t.Errorf("downloads = %d, want 1: the cache keeps the package", n)
	}
}

func TestAnotherTarballIsRefused(t *testing.T) {
	pinned := tarball(t, map[string]string{"package/a.yaml": "openapi: 3.0.0\n"})
	served := tarball(t, map[string]string{"package/a.yaml": "openapi: 3.0.0\nx-changed: true\n"})
	url, _ := registry(t, served)
	m := &Manifest{
		Packages:  map[string]Package{"p": {Name: "p@1.0.0", Tarball: url, Integrity: sri(pinned)}},
		Documents: []Document{{Name: "a", Package: "p", Path: "package/a.yaml"}},
	}
	dir := t.TempDir()
	_, err := (&Cache{Dir: dir}).Documents(context.Background(), m)
	if err == nil || !strings.Contains(err.Error(), "is not the package pinned") {
		t.Fatalf("err = %v, want the package refused for its sha512", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the cache kept %d entries of a package it refused", len(entries))
	}
}

func TestNamesOutsideThePackageAreRefused(t *testing.T) {
	data := tarball(t, map[string]string{"package/../../escape.yaml": "x"})
	url, _ := registry(t, data)
	m := &Manifest{
		Packages:  map[string]Package{"p": {Name: "p@1.0.0", Tarball: url, Integrity: sri(data)}},
		Documents: []Document{{Name: "a", Package: "p", Path: "escape.yaml"}},
	}
	dir := filepath.Join(t.TempDir(), "cache")
	_, err := (&Cache{Dir: dir}).Documents(context.Background(), m)
	if err == nil || !strings.Contains(err.Error(), "outside the package") {
		t.Fatalf("err = %v, want a name outside the package refused", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape.yaml")); err == nil {
		t.Error("a file was written outside the cache")
	}
}

func TestADocumentThePackageLacksIsNamed(t *testing.T) {
	data := tarball(t, map[string]string{"package/a.yaml": "openapi: 3.0.0\n"})
	url, _ := registry(t, data)
	m := &Manifest{
		Packages:  map[string]Package{"p": {Name: "p@1.0.0", Tarball: url, Integrity: sri(data)}},
		Documents: []Document{{Name: "gone", Package: "p", Path: "package/gone.yaml"}},
	}
	_, err := (&Cache{Dir: t.TempDir()}).Documents(context.Background(), m)
	if err == nil || !strings.Contains(err.Error(), "document gone: package/gone.yaml is not in p@1.0.0") {
		t.Fatalf("err = %v", err)
	}
}

// TestProcessesShareTheCache: caches of one folder fetching at once each
// get the whole package.
func TestProcessesShareTheCache(t *testing.T) {
	data := tarball(t, map[string]string{"package/a.yaml": "openapi: 3.0.0\n"})
	url, _ := registry(t, data)
	m := &Manifest{
		Packages:  map[string]Package{"p": {Name: "p@1.0.0", Tarball: url, Integrity: sri(data)}},
		Documents: []Document{{Name: "a", Package: "p", Path: "package/a.yaml"}},
	}
	dir := t.TempDir()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			files, err := (&Cache{Dir: dir}).Documents(context.Background(), m)
			if err != nil {
				t.Error(err)
				return
			}
			if got, _ := os.ReadFile(files[0].Path); string(got) != "openapi: 3.0.0\n" {
				t.Errorf("a = %q", got)
			}
		})
	}
	wg.Wait()
}

func TestLiteral(t *testing.T) {
	for _, tc := range []struct{ js, want, err string }{
		{`f("a\nb\t\"c\" \\ \x41 \u0042 \' \/")`, "a\nb\t\"c\" \\ A B ' /", ""},
		{`f ( "line \
on")`, "line on", ""},
		{`g("x")`, "", "no f"},
		{`f("never ends`, "", "does not end"},
		{`f("bad \u12zz")`, "", `bad \u escape`},
	} {
		got, err := Literal([]byte(tc.js), "f")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Literal(%q): err = %v, want %q", tc.js, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Literal(%q) = %q, %v; want %q", tc.js, got, err, tc.want)
		}
	}
}

// TestTheManifest: the project's manifest names a pinned package for each
// document, with where the document is published.
func TestTheManifest(t *testing.T) {
	path, err := FindManifest()
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Documents) == 0 {
		t.Fatal("the manifest has no documents")
	}
	for _, d := range m.Documents {
		if d.Source == "" {
			t.Errorf("document %s does not say where it is published", d.Name)
		}
	}
	for name, p := range m.Packages {
		if _, err := integrity(p.Integrity); err != nil {
			t.Errorf("package %s: %v", name, err)
		}
	}
}

func gzipped(tb testing.TB, s string) string {
	tb.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(s)); err != nil {
		tb.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.String()
}

// TestTrialDocumentsAreFetchedApart: the trial list is fetched only when
// asked for, so the documents' tests do not wait for its packages, and a
// gzipped document is gunzipped.
func TestTrialDocumentsAreFetchedApart(t *testing.T) {
	docs := tarball(t, map[string]string{"package/a.yaml": "openapi: 3.0.0\n"})
	docsURL, docsDownloads := registry(t, docs)
	trialPkg := tarball(t, map[string]string{
		"package/b.yaml":          "openapi: 3.1.0\n",
		"package/specs/k.json.gz": gzipped(t, `{"swagger":"2.0"}`),
	})
	trialURL, trialDownloads := registry(t, trialPkg)
	m := &Manifest{
		Packages: map[string]Package{
			"p": {Name: "p@1.0.0", Tarball: docsURL, Integrity: sri(docs)},
			"q": {Name: "q@2.0.0", Tarball: trialURL, Integrity: sri(trialPkg)},
		},
		Documents: []Document{{Name: "a", Source: "example.com a", Package: "p", Path: "package/a.yaml"}},
		Trial: []Document{
			{Name: "b", Source: "example.com b", Package: "q", Path: "package/b.yaml"},
			{Name: "k", Source: "example.com k", Package: "q", Path: "package/specs/k.json.gz"},
			{Name: "a-again", Source: "example.com a", Package: "p", Path: "package/a.yaml"},
		},
	}
	c := &Cache{Dir: t.TempDir()}
	files, err := c.Documents(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Name != "a" {
		t.Fatalf("documents = %+v, want a alone", files)
	}
	if n := trialDownloads.Load(); n != 0 {
		t.Errorf("the documents downloaded the trial's package %d times", n)
	}
	for range 2 {
		trial, err := c.Trial(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		if len(trial) != 3 || trial[0].Name != "b" || trial[1].Name != "k" || trial[2].Name != "a-again" || trial[1].Source != "example.com k" {
			t.Fatalf("trial = %+v", trial)
		}
		if got, _ := os.ReadFile(trial[0].Path); string(got) != "openapi: 3.1.0\n" {
			t.Errorf("b = %q", got)
		}
		if got, _ := os.ReadFile(trial[1].Path); string(got) != `{"swagger":"2.0"}` || filepath.Ext(trial[1].Path) != ".json" {
			t.Errorf("k at %s = %q, want the document gunzipped into a .json file", trial[1].Path, got)
		}
	}
	if d, tr := docsDownloads.Load(), trialDownloads.Load(); d != 1 || tr != 1 {
		t.Errorf("downloads = %d and %d, want 1 each: the cache keeps the packages", d, tr)
	}
}

// TestOnlyTheNamedFilesAreUnpacked: a package of Unpack "named" has only
// the files the manifest names in the cache, so that a file past MaxFile
// that no document names does not refuse the package.
func TestOnlyTheNamedFilesAreUnpacked(t *testing.T) {
	data := tarball(t, map[string]string{
		"package/api/a.json":  `{"openapi":"3.0.0"}`,
		"package/api/b.json":  `{"openapi":"3.1.0"}`,
		"package/api/c.json":  `{"openapi":"3.0.3"}`,
		"package/sweep/d.yml": "openapi: 3.0.0\n",
		"package/huge.json":   strings.Repeat(" ", MaxFile+1),
	})
	url, _ := registry(t, data)
	m := &Manifest{
		Packages:  map[string]Package{"dir": {Name: "dir@1.0.0", Tarball: url, Integrity: sri(data), Unpack: UnpackNamed, Sweep: "package/sweep/*.yml"}},
		Documents: []Document{{Name: "a", Package: "dir", Path: "package/api/a.json"}},
		Trial:     []Document{{Name: "b", Package: "dir", Path: "package/api/b.json"}},
	}
	c := &Cache{Dir: t.TempDir()}
	files, err := c.Documents(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	trial, err := c.Trial(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	sweep, err := c.Sweep(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || len(trial) != 1 || len(sweep) != 1 || sweep[0].Name != "dir/package/sweep/d.yml" {
		t.Fatalf("documents %+v, trial %+v, sweep %+v", files, trial, sweep)
	}
	dir := filepath.Dir(filepath.Dir(filepath.Dir(files[0].Path)))
	if filepath.Dir(filepath.Dir(filepath.Dir(trial[0].Path))) != dir {
		t.Errorf("the documents and the trial unpacked the package into two folders: %s, %s", files[0].Path, trial[0].Path)
	}
	for _, name := range []string{"package/api/c.json", "package/huge.json"} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
			t.Errorf("%s, which no document names, was unpacked", name)
		}
	}

	// Another choice of files is another folder, which has them all.
	m.Trial = append(m.Trial, Document{Name: "c", Package: "dir", Path: "package/api/c.json"})
	trial, err = c.Trial(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if len(trial) != 2 || filepath.Dir(filepath.Dir(filepath.Dir(trial[1].Path))) == dir {
		t.Errorf("trial = %+v, want c unpacked into a folder of its own", trial)
	}
}

func TestTheManifestIsChecked(t *testing.T) {
	for _, tc := range []struct{ manifest, err string }{
		{`{"packages":{"p":{"name":"p@1"}},"documents":[{"name":"a","package":"p"}],"trial":[{"name":"b","package":"q"}]}`,
			`trial document b: package "q" is not among the packages`},
		{`{"packages":{"p":{"name":"p@1"}},"documents":[{"name":"a","package":"p"}],"trial":[{"name":"a","package":"p"}]}`,
			"trial document a: another document has that name"},
		{`{"packages":{"p":{"name":"p@1","unpack":"some"}},"documents":[{"name":"a","package":"p"}]}`,
			`package p: unpack "some"`},
	} {
		path := filepath.Join(t.TempDir(), "documents.json")
		if err := os.WriteFile(path, []byte(tc.manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadManifest(path); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ReadManifest(%s): err = %v, want %q", tc.manifest, err, tc.err)
		}
	}
}

// TestTheTrialList: each trial document of the project's manifest says
// where it is published and which file of a package holds it.
func TestTheTrialList(t *testing.T) {
	path, err := FindManifest()
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range m.Trial {
		if d.Source == "" || d.Path == "" {
			t.Errorf("trial document %s does not say where it is published and which file holds it", d.Name)
		}
	}
}
