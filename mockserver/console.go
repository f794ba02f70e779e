package mockserver

import (
	"embed"
	"net/http"
	"strings"
)

// The console is a web page petmock serves at / and /__petmock/: the
// catalogue, the live request journal, the settings, the scenarios and the
// operations of the document. It is plain HTML, CSS and JavaScript,
// embedded in the binary: no build step, nothing fetched from elsewhere, so
// it works offline. The page holds no key; it asks for one and keeps it in
// the tab's sessionStorage, and sends it in Authorization to petmock's own
// origin only, which its Content-Security-Policy enforces.

//go:embed console/index.html console/console.css console/console.js
var consoleFiles embed.FS

// consoleAssets are the files of the console, by admin endpoint name, with
// their media types.
var consoleAssets = map[string]struct{ file, contentType string }{
	"":            {"console/index.html", "text/html; charset=utf-8"},
	"console.css": {"console/console.css", "text/css; charset=utf-8"},
	"console.js":  {"console/console.js", "text/javascript; charset=utf-8"},
}

// consoleCSP allows the page its own scripts, styles and requests, and
// nothing else: no inline script, no other origin.
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// serveConsole answers GET / and GET /__petmock/ with the page, and its
// files below /__petmock/.
func (s *Server) serveConsole(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return methodNotAllowed(r.Method, r.URL.Path, s.methodsFor(r))
	}
	asset, ok := consoleAssets[strings.TrimPrefix(r.URL.Path, AdminPrefix)]
	if r.URL.Path == "/" {
		asset, ok = consoleAssets[""], true
	}
	if !ok {
		return notAdminEndpoint(r.URL.Path)
	}
	body, err := consoleFiles.ReadFile(asset.file)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", asset.contentType)
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
