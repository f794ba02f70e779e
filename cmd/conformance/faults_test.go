package main

import (
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
)

// ruleFamily is the part of a rule's id before its first dot, such as
// "auth" of "auth.required".
func ruleFamily(rule string) string {
	family, _, _ := strings.Cut(rule, ".")
	return family
}

// TestBrokenServersFail judges the first broken server of each family of
// rules with a full run, and expects the run to fail on the rule the
// server breaks, in the output and in the report. Package conformance
// judges every broken server in-process, each with the check it must
// fail; this shows that the command turns such a verdict into a failed
// run, a report that names the rule, and exit status 1.
func TestBrokenServersFail(t *testing.T) {
	t.Parallel()
	judged := map[string]bool{}
	for _, tc := range ct.BrokenServers {
		if judged[ruleFamily(tc.Rule)] {
			continue
		}
		judged[ruleFamily(tc.Rule)] = true
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			url := serve(t, tc.Fault(t, ct.Petmock(t)))
			// A broken server fails however long the suite waits for a
			// write to show; a short window keeps the run quick.
			r := judge(t, url, append([]string{"--settle", "200ms"}, tc.Args...)...)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1\n%s", r.code, r)
			}
			if !strings.Contains(r.stdout, "broken rule "+tc.Rule+":") {
				t.Errorf("the output does not name rule %s\n%s", tc.Rule, r)
			}
			var named bool
			for _, c := range failures(parseJUnit(t, r.junit)) {
				if strings.Contains(c.Name, tc.Check) && strings.Contains(c.Failure.Text+c.Failure.Message, "broken rule "+tc.Rule+":") {
					named = true
				}
			}
			if !named {
				var failed []string
				for _, c := range failures(parseJUnit(t, r.junit)) {
					failed = append(failed, c.Name)
				}
				t.Errorf("no failed check named %q breaks rule %s in the JUnit report; failed:\n  %s", tc.Check, tc.Rule, strings.Join(failed, "\n  "))
			}
			assertNoKey(t, r)
		})
	}
}
