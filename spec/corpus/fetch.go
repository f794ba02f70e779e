package corpus

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// MaxTarball bounds the bytes of a package that Fetch downloads, and
// MaxFile those of one file it unpacks, so that a registry that answers
// something else cannot fill the disk.
const (
	MaxTarball = 64 << 20
	MaxFile    = 32 << 20
)

// File is a document of the corpus in the cache.
type File struct {
	// Name names it: a Document's name, or the package's short name and
	// the file's path for a file of a sweep.
	Name string
	// Source is where it is published, for a Document.
	Source string
	// Path is the file in the cache.
	Path string
}

// Cache holds the packages and documents of a manifest on disk.
type Cache struct {
	// Dir is where they are kept.
	Dir string
	// Client downloads the packages; nil means http.DefaultClient.
	Client *http.Client
}

// Documents returns the manifest's documents in the cache, fetching the
// packages it lacks.
func (c *Cache) Documents(ctx context.Context, m *Manifest) ([]File, error) {
	return c.files(ctx, m, m.Documents)
}

// Trial returns the manifest's trial documents in the cache, fetching the
// packages it lacks.
func (c *Cache) Trial(ctx context.Context, m *Manifest) ([]File, error) {
	return c.files(ctx, m, m.Trial)
}

// files returns docs, documents of m, in the cache, fetching the packages
// they come from where the cache lacks them.
func (c *Cache) files(ctx context.Context, m *Manifest, docs []Document) ([]File, error) {
	var files []File
	for _, d := range docs {
		pkg := m.Packages[d.Package]
		dir, err := c.unpacked(ctx, m, d.Package)
		if err != nil {
			return nil, fmt.Errorf("document %s: %w", d.Name, err)
		}
		p := filepath.Join(dir, filepath.FromSlash(d.Path))
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("document %s: %s is not in %s", d.Name, d.Path, pkg.Name)
		}
		switch {
		case d.Literal != "":
			if p, err = literalFile(dir, d); err != nil {
				return nil, fmt.Errorf("document %s: %w", d.Name, err)
			}
		case strings.HasSuffix(d.Path, ".gz"):
			if p, err = gunzipFile(dir, d); err != nil {
				return nil, fmt.Errorf("document %s: %w", d.Name, err)
			}
		}
		files = append(files, File{Name: d.Name, Source: d.Source, Path: p})
	}
	return files, nil
}

// Sweep returns the files of every package whose Sweep pattern they
// match, fetching the packages it lacks.
func (c *Cache) Sweep(ctx context.Context, m *Manifest) ([]File, error) {
	var files []File
	for name, pkg := range m.Packages {
		if pkg.Sweep == "" {
			continue
		}
		dir, err := c.unpacked(ctx, m, name)
		if err != nil {
			return nil, err
		}
		matches, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pkg.Sweep)))
		if err != nil {
			return nil, fmt.Errorf("package %s: sweep: %w", pkg.Name, err)
		}
		for _, p := range matches {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, File{Name: name + "/" + filepath.ToSlash(rel), Path: p})
		}
	}
	return files, nil
}

// unpacked returns the folder that holds the package of m of that short
// name unpacked, downloading and unpacking it first where the cache does
// not have it. The folder is named by the package's integrity, and, for a
// package of which only the files the manifest names are unpacked, by
// those names too, and appears whole or not at all, so that test
// processes running at once share it.
func (c *Cache) unpacked(ctx context.Context, m *Manifest, short string) (string, error) {
	pkg := m.Packages[short]
	sum, err := integrity(pkg.Integrity)
	if err != nil {
		return "", fmt.Errorf("package %s: %w", pkg.Name, err)
	}
	keep := func(string) bool { return true }
	dir := filepath.Join(c.Dir, hex.EncodeToString(sum[:12]))
	if pkg.Unpack == UnpackNamed {
		names := m.named(short)
		keep = func(name string) bool {
			if names[name] {
				return true
			}
			ok, _ := path.Match(pkg.Sweep, name)
			return pkg.Sweep != "" && ok
		}
		dir += "-" + namesKey(names, pkg.Sweep)
	}
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	data, err := c.download(ctx, pkg.Tarball)
	if err != nil {
		return "", fmt.Errorf("package %s: %w", pkg.Name, err)
	}
	if got := sha512.Sum512(data); !bytes.Equal(got[:], sum) {
		return "", fmt.Errorf("package %s: %s is not the package pinned: its sha512 is %s", pkg.Name, pkg.Tarball, base64.StdEncoding.EncodeToString(got[:]))
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(c.Dir, ".unpacking-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := untar(data, tmp, keep); err != nil {
		return "", fmt.Errorf("package %s: %w", pkg.Name, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(dir); statErr == nil {
			return dir, nil // another process unpacked it first
		}
		return "", err
	}
	return dir, nil
}

// named returns the paths of the files that the documents and the trial
// documents of m take from the package of that short name.
func (m *Manifest) named(short string) map[string]bool {
	names := map[string]bool{}
	for _, list := range [][]Document{m.Documents, m.Trial} {
		for _, d := range list {
			if d.Package == short {
				names[path.Clean(d.Path)] = true
			}
		}
	}
	return names
}

// namesKey is a short hex digest of the names a package's files are
// unpacked by, so that another manifest's choice of files is kept in a
// folder of its own.
func namesKey(names map[string]bool, sweep string) string {
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	slices.Sort(sorted)
	sum := sha512.Sum512([]byte(strings.Join(sorted, "\n") + "\n" + sweep))
	return hex.EncodeToString(sum[:6])
}

// integrity decodes an npm integrity string of sha512.
func integrity(s string) ([]byte, error) {
	b64, ok := strings.CutPrefix(s, "sha512-")
	if !ok {
		return nil, fmt.Errorf("integrity %q: want sha512-<base64>", s)
	}
	sum, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(sum) != sha512.Size {
		return nil, fmt.Errorf("integrity %q: not a sha512 in base64", s)
	}
	return sum, nil
}

func (c *Cache) download(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	client := c.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxTarball+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	if len(data) > MaxTarball {
		return nil, fmt.Errorf("GET %s: more than %d bytes", url, MaxTarball)
	}
	return data, nil
}

// untar writes the regular files of a gzipped tarball that keep takes
// under dir, refusing a name that would leave it.
func untar(data []byte, dir string, keep func(name string) bool) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name := path.Clean(h.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("%s: a name outside the package", h.Name)
		}
		if !keep(name) {
			continue
		}
		if h.Size > MaxFile {
			return fmt.Errorf("%s: more than %d bytes", h.Name, MaxFile)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		body, err := io.ReadAll(io.LimitReader(tr, MaxFile))
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			return err
		}
	}
}
