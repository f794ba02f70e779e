package judge

import (
	"os/exec"
	"testing"
)

// TestKeyFormsInAShell: a header a report shows with a form of the key,
// pasted into a POSIX shell that has $PETSTORE_API_KEY set, becomes what
// was sent on the wire.
func TestKeyFormsInAShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	const key = "Ab3-$x'y\"z`!"
	for _, f := range wireForms {
		header := `Authorization: Bearer ` + f.Shown + ` and "quotes" $HOME`
		cmd := exec.Command(sh, "-c", "printf %s "+shellQuote(header))
		cmd.Env = []string{"PETSTORE_API_KEY=" + key, "HOME=/home"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", f.Shown, err)
		}
		if want := onTheWire(header, key); string(out) != want {
			t.Errorf("%s: the shell gives %q, the wire %q", f.Shown, out, want)
		}
	}
}
