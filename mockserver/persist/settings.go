package persist

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver/steer"
)

// The settings a developer changes while petmock runs (the latency, the
// fail rate, the faults, the clock, the size of the journal and whether it
// shows secrets), the forced answers that wait and the expectations are
// kept with --state too: in the log, as a record written when they change,
// and, for people to read, in a file of their own beside the state file,
// so that the state file stays a fixture that --fixtures and PUT
// /__petmock/fixture read. They are restored at start, but for the
// settings whose flags are given, which win.

// settingsPath returns the settings file of the state file at path:
// state.settings.json beside state.json.
func settingsPath(path string) string {
	return strings.TrimSuffix(path, ".json") + ".settings.json"
}

// savedSettings are the settings, forced answers and expectations as the
// settings file holds them.
type savedSettings struct {
	// SavedAt is when they were saved, so that a clock that was set runs
	// on, at the next start, from where it was.
	SavedAt  time.Time `json:"savedAt"`
	Latency  string    `json:"latency"`
	FailRate float64   `json:"failRate"`
	// Now is the time the clock showed at SavedAt, when it was set; nil
	// when it showed the real time.
	Now     *time.Time `json:"now,omitempty"`
	Journal int        `json:"journal"`
	// JournalSecrets is hidden or shown; "" in a file of an earlier
	// petmock, which hid none, restores the default.
	JournalSecrets string `json:"journalSecrets,omitempty"`
	// Fault, FaultRate and SlowBytesPerSecond are absent from a file of an
	// earlier petmock, which put no faults: the defaults are restored.
	Fault              steer.Fault          `json:"fault,omitempty"`
	FaultRate          float64              `json:"faultRate,omitempty"`
	SlowBytesPerSecond int                  `json:"slowBytesPerSecond,omitempty"`
	Forced             []steer.ForcedAnswer `json:"forced"`
	// Expectations are in the order a request looks at them, as they
	// were set, keys and all.
	Expectations []steer.Expectation `json:"expectations,omitempty"`
}

// settingsJSON returns the settings, forced answers and expectations of
// steering, as the settings file holds them.
func settingsJSON(steering *steer.Steering) []byte {
	v := steering.Settings()
	saved := savedSettings{
		SavedAt:  time.Now().UTC(),
		Latency:  v.Latency,
		FailRate: v.FailRate,
		Journal:  v.Journal,
		Forced:   steering.Forced(),

		JournalSecrets:     v.JournalSecrets,
		Fault:              v.Fault,
		FaultRate:          v.FaultRate,
		SlowBytesPerSecond: v.SlowBytesPerSecond,
		Expectations:       steering.ExpectationsAsSet(),
	}
	if v.Clock == "set" {
		saved.Now = &v.Now
	}
	data, _ := json.MarshalIndent(saved, "", "  ")
	return append(data, '\n')
}

// sameSettings reports whether two texts of settingsJSON hold the same
// settings, whenever they were saved.
func sameSettings(a, b []byte) bool {
	var x, y savedSettings
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	x.SavedAt, y.SavedAt = time.Time{}, time.Time{}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// settingFlags are the settings, by name, with the flag of each.
var settingFlags = []struct{ name, flag string }{
	{"latency", "latency"}, {"failRate", "fail-rate"}, {"now", "now"}, {"journal", "journal"},
	{"journalSecrets", "journal-secrets"},
	{"fault", "fault"}, {"faultRate", "fault-rate"}, {"slowBytesPerSecond", "slow-bytes-per-second"},
}

// readSettings reads the settings file at path; a missing file gives nil
// and no error.
func readSettings(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("settings file %s cannot be read: %w", path, reason(err))
	}
	return data, nil
}

// restoreSettings gives steering the settings, the forced answers and the
// expectations of data, as the settings file at path or the log holds
// them, but for the settings whose flags given names, which win. nil
// restores nothing; settings that are not valid are refused, and the file
// left as it is. A forced answer or an expectation the document no longer
// allows, for an operation it dropped, say, is logged and left out. It
// returns what it restored, as attributes for the log.
func restoreSettings(path string, data []byte, steering *steer.Steering, given map[string]bool, log *slog.Logger) ([]any, error) {
	if data == nil {
		return nil, nil
	}
	corrupt := func(err error) error {
		return fmt.Errorf("settings file %s is corrupt, so petmock leaves it as it is; repair or remove it: %v", path, err)
	}
	var saved savedSettings
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&saved); err != nil {
		return nil, corrupt(err)
	}
	changes := map[string]any{"latency": saved.Latency, "failRate": saved.FailRate, "journal": saved.Journal}
	if saved.JournalSecrets != "" {
		changes["journalSecrets"] = saved.JournalSecrets
	}
	if saved.Fault != "" {
		changes["fault"] = string(saved.Fault)
	}
	if saved.FaultRate != 0 {
		changes["faultRate"] = saved.FaultRate
	}
	if saved.SlowBytesPerSecond != 0 {
		changes["slowBytesPerSecond"] = saved.SlowBytesPerSecond
	}
	if saved.Now != nil {
		changes["now"] = saved.Now.Add(time.Since(saved.SavedAt)).Format(time.RFC3339Nano)
	}
	var restored []any
	for _, f := range settingFlags {
		if given[f.flag] {
			delete(changes, f.name)
		} else if v, ok := changes[f.name]; ok {
			restored = append(restored, f.name, v)
		}
	}
	if err := steering.ChangeSettings(changes); err != nil {
		return nil, corrupt(err)
	}
	forced := 0
	for _, f := range saved.Forced {
		if err := steering.ForceAnswer(f); err != nil {
			log.Warn("a forced answer of the settings file is left out", "path", path, "err", err)
			continue
		}
		forced++
	}
	expectations := 0
	for _, e := range saved.Expectations {
		if _, err := steering.Expect(e); err != nil {
			log.Warn("an expectation of the settings file is left out", "path", path, "id", e.ID, "err", err)
			continue
		}
		expectations++
	}
	return append(restored, "forced", forced, "expectations", expectations), nil
}
