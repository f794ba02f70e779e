package admin_test

import (
	"encoding/json"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestConsoleSpeaksInNumber: the page's sentences agree in number with
// what they name: "the violations come", "the journal comes", "1 pet",
// "2 pets".
func TestConsoleSpeaksInNumber(t *testing.T) {
	c := openConsole(t, mockserver.Config{Items: items([]Pet{{ID: 1, Name: "Rex", CategoryID: 1, Status: "available"}})})
	for _, tt := range []struct{ section, want string }{
		{"violations", "The violations come from petmock's admin API"},
		{"journal", "The journal comes from petmock's admin API"},
		{"expectations", "The expectations come from petmock's admin API"},
	} {
		c.do(t, "opening the "+tt.section, press(`.nav-item[data-section="`+tt.section+`"]`))
		c.waitUntil(t, "the page says "+tt.want, `document.getElementById("unlock-why").textContent.startsWith(`+jsString(tt.want)+`)`)
	}
	c.waitUntil(t, "the health counts 1 pet", `[...document.querySelectorAll("#health span")].some((s) => s.textContent === "1 pet")`)
	c.do(t, "opening the catalogue", press(`.nav-item[data-section="catalogue"]`))
	c.unlock(t, key)
	c.ts.do(t, "POST", "/pets", `{"name":"Toto","categoryId":2}`)
	c.waitUntil(t, "the health counts 2 pets", `[...document.querySelectorAll("#health span")].some((s) => s.textContent === "2 pets")`)
	c.noErrors(t)
}

// jsString writes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
