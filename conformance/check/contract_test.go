package check

import (
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestReadContract: the facts the specs use come from the document.
func TestReadContract(t *testing.T) {
	doc, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadContract(doc)
	if err != nil {
		t.Fatal(err)
	}
	if c.LimitMin != 1 || c.LimitMax != 100 || c.LimitDefault != 20 {
		t.Errorf("limit bounds %d..%d, default %d; want 1..100, default 20", c.LimitMin, c.LimitMax, c.LimitDefault)
	}
	if c.SunsetDay != "2030-12-05" {
		t.Errorf("sunset day %s, want 2030-12-05", c.SunsetDay)
	}
	if strings.Join(c.Statuses, ",") != "available,pending,sold" {
		t.Errorf("statuses %v", c.Statuses)
	}
	if c.DefaultStatus != "available" || len(c.errorCodes) == 0 {
		t.Errorf("default status %q, error codes %v", c.DefaultStatus, c.errorCodes)
	}
}
