package check

import (
	"context"
	"errors"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
)

// TestKeyEchoedInValues: a server that echoes the key into a value that a
// strict check compares breaks the check, and the verdict shows the value
// with $PETSTORE_API_KEY in place of the key.
func TestKeyEchoedInValues(t *testing.T) {
	t.Parallel()
	listed, refused := DeprecatedAnswers[0].Get, RefusedRequests[1].Send
	checks := map[string]check{
		"in Sunset":                      func(h *Harness, ctx context.Context) error { return h.CheckStrictDeprecation(ctx, listed) },
		"in Deprecation":                 func(h *Harness, ctx context.Context) error { return h.CheckStrictDeprecation(ctx, listed) },
		"in the path of a next link":     func(h *Harness, ctx context.Context) error { return h.CheckStrictPages(ctx, "") },
		"in Location":                    (*Harness).CheckStrictLocation,
		"in an Error's code and message": func(h *Harness, ctx context.Context) error { return h.CheckStrictErrorCode(ctx, refused) },
	}
	for _, tc := range ct.KeyEchoes {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			check, ok := checks[tc.Name]
			if !ok {
				t.Fatalf("no check to judge an echo %s by", tc.Name)
			}
			h := judgeOver(t, ct.Echoing(tc)(t, ct.Petmock(t)), Settings{Strict: true})
			err := check(h, checkContext(t))
			if !errors.As(err, new(*judge.Broken)) || !strings.Contains(err.Error(), tc.Shows) {
				t.Errorf("verdict %v, want a *Broken that shows %q", err, tc.Shows)
			}
			noKey(t, tc.Name, err)
		})
	}
}
