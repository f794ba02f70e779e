package admin_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/petstore/contract/conformance/replay"
	"github.com/petstore/contract/mockserver"
)

// TestConsoleSavesTheJournal: the journal's Save button saves the journal
// as GET /__petmock/requests answers it, the key hidden, in a file that
// conformance replay reads.
func TestConsoleSavesTheJournal(t *testing.T) {
	const secret = "journal-secret-4c2a9e"
	c := openConsole(t, mockserver.Config{APIKeys: []string{secret}})
	dir := t.TempDir()
	c.do(t, "letting the page download", func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir})
		return chromedp.Void{}, err
	})
	c.unlock(t, secret)
	c.ts.do(t, "POST", "/pets", `{"name":"Saved","categoryId":1}`, "Authorization", "Bearer "+secret)
	c.ts.do(t, "GET", "/pets/51", "", "Authorization", "Bearer "+secret)
	c.do(t, "opening the journal", chromedp.KeyEvent("2"))
	c.waitUntil(t, "the requests are shown", `document.querySelectorAll("#log-list li").length === 2`)
	c.do(t, "saving it", press("#log-save"))
	var file string
	for deadline := time.Now().Add(20 * time.Second); file == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		found, _ := filepath.Glob(filepath.Join(dir, "petmock-journal-*.json"))
		if len(found) == 1 {
			file = found[0]
		}
	}
	if file == "" {
		t.Fatal("no journal was saved")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) || !strings.Contains(string(data), "[redacted]") {
		t.Errorf("the journal saved shows the key, or hides nothing:\n%s", data)
	}
	reqs, err := replay.Read(strings.NewReader(string(data)))
	if err != nil || len(reqs) != 2 || reqs[0].Method != "POST" || reqs[1].Path != "/v1/pets/51" {
		t.Errorf("conformance replay reads the journal saved as %+v, %v; want the create, then the read", reqs, err)
	}
	c.noErrors(t)
}
