package corpus

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// gunzipFile writes the document d holds gzipped to a file of its own
// beside the package, once, and returns its path: the name of d with the
// extension the path has before ".gz", such as ".json".
func gunzipFile(dir string, d Document) (string, error) {
	ext := filepath.Ext(strings.TrimSuffix(d.Path, ".gz"))
	p := filepath.Join(dir, "gunzipped", d.Name+ext)
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(d.Path)))
	if err != nil {
		return "", err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", d.Path, err)
	}
	doc, err := io.ReadAll(io.LimitReader(zr, MaxFile+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", d.Path, err)
	}
	if len(doc) > MaxFile {
		return "", fmt.Errorf("%s: more than %d bytes gunzipped", d.Path, MaxFile)
	}
	return p, writeNew(p, doc)
}

// writeNew writes data to the file p, making its folder, so that the
// file appears whole or not at all to processes reading it at once.
func writeNew(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".writing-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}
