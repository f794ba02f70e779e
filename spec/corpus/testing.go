package corpus

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Required is the value of the environment variable PETMOCK_CORPUS that
// makes a corpus that cannot be had fail a test instead of skipping it,
// as CI sets it.
const Required = "required"

// fetched is the corpus of this test process, fetched once.
var fetched struct {
	once      sync.Once
	documents []File
	sweep     []File
	err       error
}

// trial is the trial list of this test process, fetched once, apart from
// the documents, so that a test that does not ask for it does not wait
// for its packages.
var trial struct {
	once  sync.Once
	files []File
	err   error
}

// Dir is the cache of the corpus: PETMOCK_CORPUS_DIR, or a folder of the
// user's cache.
func Dir() string {
	if dir := os.Getenv("PETMOCK_CORPUS_DIR"); dir != "" {
		return dir
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "petstore-contract", "corpus")
}

func fetch() {
	fetched.err = func() error {
		path, err := FindManifest()
		if err != nil {
			return err
		}
		m, err := ReadManifest(path)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		c := &Cache{Dir: Dir()}
		if fetched.documents, err = c.Documents(ctx, m); err != nil {
			return err
		}
		fetched.sweep, err = c.Sweep(ctx, m)
		return err
	}()
}

func fetchTrial() {
	trial.err = func() error {
		path, err := FindManifest()
		if err != nil {
			return err
		}
		m, err := ReadManifest(path)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		trial.files, err = (&Cache{Dir: Dir()}).Trial(ctx, m)
		return err
	}()
}

// Documents returns the documents of the manifest for a test: they are
// fetched once per process, and where they cannot be the test is skipped,
// or failed when PETMOCK_CORPUS is Required.
func Documents(tb testing.TB) []File {
	tb.Helper()
	fetched.once.Do(fetch)
	unavailable(tb)
	return fetched.documents
}

// SweepFiles returns the files of the packages' sweeps, as Documents does.
func SweepFiles(tb testing.TB) []File {
	tb.Helper()
	fetched.once.Do(fetch)
	unavailable(tb)
	return fetched.sweep
}

// TrialDocuments returns the trial documents of the manifest for a test,
// as Documents does: fetched once per process, when a test first asks.
func TrialDocuments(tb testing.TB) []File {
	tb.Helper()
	trial.once.Do(fetchTrial)
	unavailableErr(tb, trial.err)
	return trial.files
}

// Trial returns the trial document of that name for a test, as
// TrialDocuments does, or the document of that name once it has been
// promoted from the trial list to the documents, so that a test held to
// it before keeps it; it fails the test where neither list has one.
func Trial(tb testing.TB, name string) File {
	tb.Helper()
	for _, f := range TrialDocuments(tb) {
		if f.Name == name {
			return f
		}
	}
	for _, f := range Documents(tb) {
		if f.Name == name {
			return f
		}
	}
	tb.Fatalf("corpus: no trial document or document %s in %s", name, ManifestFile)
	return File{}
}

func unavailable(tb testing.TB) {
	tb.Helper()
	unavailableErr(tb, fetched.err)
}

// unavailableErr skips the test for err, the reason the corpus could not
// be had, or fails it when PETMOCK_CORPUS is Required.
func unavailableErr(tb testing.TB, err error) {
	tb.Helper()
	if err == nil {
		return
	}
	if os.Getenv("PETMOCK_CORPUS") == Required {
		tb.Fatalf("corpus: %v", err)
	}
	tb.Skipf("corpus: %v (PETMOCK_CORPUS=%s fails instead)", err, Required)
}
