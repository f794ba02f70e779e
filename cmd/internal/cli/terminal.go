package cli

import (
	"io"
	"os"
)

// IsTerminal reports whether w is a terminal, where colour codes and a
// redrawn progress bar show as intended rather than as noise in a CI log
// or a file.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
