package admin

import (
	"embed"
	"net/http"
	"path"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
)

// The console is a web page petmock serves at / and /__petmock/: the
// catalogue, the live request journal, the settings, the scenarios and the
// operations of the document. It is plain HTML, CSS and JavaScript,
// embedded in the binary: no build step, nothing fetched from elsewhere, so
// it works offline. The page holds no key; it asks for one and keeps it in
// the tab's sessionStorage, and sends it in a header, as the served
// document asks for it (see consoleKey), to petmock's own origin only,
// which its Content-Security-Policy enforces.

//go:embed console
var consoleFiles embed.FS

// consoleTypes are the media types of the console's files, by extension.
var consoleTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
}

// consoleCSP allows the page its own scripts, styles and requests, and
// nothing else: no inline script, no other origin.
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// consolePage answers GET /__petmock/, and GET / (see handler.ServeHTTP),
// with the page.
func (h *handler) consolePage(w http.ResponseWriter, r *http.Request, _ *mockserver.Call) error {
	return serveConsoleFile(w, r, "index.html")
}

// consoleFile answers GET /__petmock/console/{file} with a file of the
// page, or a 404 for a name that is none of them.
func (h *handler) consoleFile(w http.ResponseWriter, r *http.Request, _ *mockserver.Call) error {
	// The document allows names of letters with .css or .js: no path.
	return serveConsoleFile(w, r, r.PathValue("file"))
}

func serveConsoleFile(w http.ResponseWriter, r *http.Request, name string) error {
	contentType, known := consoleTypes[path.Ext(name)]
	body, err := consoleFiles.ReadFile("console/" + name)
	if !known || err != nil {
		return notConsoleFile(r)
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(body)
	}
	return nil
}

// notConsoleFile is the 404 of a file the console does not have.
func notConsoleFile(r *http.Request) *edge.Error {
	return edge.NewError(http.StatusNotFound, "file", "%s is no file of the console", r.URL.Path)
}
