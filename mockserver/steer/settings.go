package steer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"
)

// The settings of a running server are what a frontend developer changes
// while working, without a restart and without losing the stores: the
// latency, the fail rate, the faults, the clock and the size of the
// request journal.
// Settings shows them, and ChangeSettings changes them, as GET and PATCH
// /__petmock/settings do.

// MaxJournalSize is the most requests the journal may be set to keep at
// run time. An entry keeps about 4 KiB of each body, and the headers of
// its request and answer, which the server bounds to 64 KiB: ten thousand
// ordinary requests take tens of MiB, and ten thousand with the largest
// headers would take 700 MiB, but that the journal's budget of bytes
// (Config.JournalBytes) drops the oldest first.
const MaxJournalSize = 10_000

// settings are one state of the settings. A published value never
// changes: a change publishes a new one, so that the request pipeline
// reads them all with one atomic load and never waits for a writer.
type settings struct {
	latency  Latency
	failRate float64
	// offset is added to the server's clock, Config.Now; set says that
	// the clock was set, rather than left on the real time.
	offset time.Duration
	set    bool
	// journal is how many requests the journal keeps; 0 keeps none.
	journal int
	// showSecrets is whether the journal shows the app's secrets.
	showSecrets bool
	// fault is put in place of answers at faultRate; "" puts none.
	fault     Fault
	faultRate float64
	// slowRate is how many bytes a second a slow body comes at.
	slowRate int
}

// chaotic reports whether the settings delay, fail or fault any answer.
func (st *settings) chaotic() bool {
	return st.latency.Max > 0 || st.failRate > 0 || st.faulty()
}

// faulty reports whether the settings put faults in place of answers.
func (st *settings) faulty() bool { return st.fault != "" && st.faultRate > 0 }

// liveSettings are the settings of a running server, and the changes made
// to them.
type liveSettings struct {
	cur atomic.Pointer[settings]

	mu      sync.Mutex      // serialises changes; guards changes
	changes []SettingChange // oldest first, at most maxChanges
}

// maxChanges is how many changes Settings lists.
const maxChanges = 20

// SettingChange is one change of a setting, as GET /__petmock/settings
// lists them and the log reports them.
type SettingChange struct {
	Time    time.Time `json:"time"`
	Setting string    `json:"setting"`
	From    string    `json:"from"`
	To      string    `json:"to"`
}

// load returns the current settings.
func (ls *liveSettings) load() *settings { return ls.cur.Load() }

// newSettings returns the settings a server starts with.
func newSettings(cfg Start, now func() time.Time) (*liveSettings, error) {
	if err := cfg.Latency.validate(); err != nil {
		return nil, err
	}
	if cfg.FailRate < 0 || cfg.FailRate > 1 {
		return nil, fmt.Errorf("fail rate %v: want a share from 0 to 1", cfg.FailRate)
	}
	if cfg.Fault != "" && !cfg.Fault.known() {
		return nil, fmt.Errorf("fault %q: want one of %s", cfg.Fault, faultList())
	}
	if cfg.FaultRate < 0 || cfg.FaultRate > 1 {
		return nil, fmt.Errorf("fault rate %v: want a share from 0 to 1", cfg.FaultRate)
	}
	slowRate := cfg.SlowBytesPerSecond
	if slowRate == 0 {
		slowRate = DefaultSlowBytesPerSecond
	}
	if e := checkSlowRate("slow bytes per second", slowRate); e != nil {
		return nil, errors.New(e.Message)
	}
	st := &settings{
		latency: cfg.Latency, failRate: cfg.FailRate, journal: cfg.JournalSize, showSecrets: cfg.ShowSecrets,
		fault: cfg.Fault, faultRate: cfg.FaultRate, slowRate: slowRate,
	}
	switch {
	case cfg.JournalSize == 0:
		st.journal = journal.DefaultJournalSize
	case cfg.JournalSize < 0:
		st.journal = 0
	}
	if !cfg.ClockAt.IsZero() {
		st.offset, st.set = cfg.ClockAt.Sub(now()), true
	}
	ls := &liveSettings{}
	ls.cur.Store(st)
	return ls, nil
}

// Clock returns the time petmock acts at: Config.Now, moved by the
// settings, by which a sunset comes.
func (s *Steering) Clock() time.Time {
	return s.now().Add(s.settings.load().offset)
}

// SettingsView is the settings as Settings returns them, and as GET and
// PATCH /__petmock/settings answer them. Its members are those
// ChangeSettings takes, in the form it takes them, with the clock's
// current time, whether it was set, and the last changes.
type SettingsView struct {
	// Latency is a duration, such as "100ms", a range, such as
	// "50ms-300ms", or "0s" for none.
	Latency string `json:"latency"`
	// FailRate is the share of requests answered 503, from 0 to 1.
	FailRate float64 `json:"failRate"`
	// Now is the time petmock acts at, and Clock says whether it is the
	// real time ("real") or one that was set ("set").
	Now   time.Time `json:"now"`
	Clock string    `json:"clock"`
	// Journal is how many requests the journal keeps.
	Journal int `json:"journal"`
	// JournalSecrets is whether the journal shows the app's secrets:
	// "hidden" or "shown" (see Server.Journal).
	JournalSecrets string `json:"journalSecrets"`
	// Fault is the fault put in place of answers at FaultRate, or ""
	// for none; SlowBytesPerSecond is how fast a slow body comes.
	Fault              Fault   `json:"fault"`
	FaultRate          float64 `json:"faultRate"`
	SlowBytesPerSecond int     `json:"slowBytesPerSecond"`
	// Changes are the last changes, newest first.
	Changes []SettingChange `json:"changes"`
}

// Settings returns the settings, and their last changes.
func (s *Steering) Settings() SettingsView {
	st := s.settings.load()
	v := SettingsView{
		Latency:  formatLatency(st.latency),
		FailRate: st.failRate,
		Now:      s.now().Add(st.offset).UTC().Truncate(time.Millisecond),
		Clock:    "real",
		Journal:  st.journal,

		JournalSecrets: secretsSetting(st.showSecrets),

		Fault:              st.fault,
		FaultRate:          st.faultRate,
		SlowBytesPerSecond: st.slowRate,
	}
	if st.set {
		v.Clock = "set"
	}
	s.settings.mu.Lock()
	v.Changes = slices.Clone(s.settings.changes)
	s.settings.mu.Unlock()
	slices.Reverse(v.Changes)
	if v.Changes == nil {
		v.Changes = []SettingChange{}
	}
	return v
}

// Values of the journalSecrets setting.
const (
	SecretsHidden = "hidden"
	SecretsShown  = "shown"
)

// secretsSetting names the journalSecrets setting of show.
func secretsSetting(show bool) string {
	if show {
		return SecretsShown
	}
	return SecretsHidden
}

// formatLatency writes a latency as ParseLatency reads it.
func formatLatency(l Latency) string {
	if l.Min == l.Max {
		return l.Min.String()
	}
	return l.Min.String() + "-" + l.Max.String()
}

// settingNames are the settings ChangeSettings takes, in the order it
// applies and reports them.
var settingNames = []string{"latency", "failRate", "now", "journal", "journalSecrets", "fault", "faultRate", "slowBytesPerSecond"}

// ChangeSettings changes the settings changes names, each to its value as
// decoded JSON gives it: latency a duration such as "100ms" or a range
// such as "50ms-300ms", failRate a share from 0 to 1, now a date or an RFC
// 3339 time, journal a number of requests from 0 to MaxJournalSize,
// journalSecrets "hidden" or "shown", fault one of Faults, faultRate a
// share from 0 to 1, slowBytesPerSecond from 1 to MaxSlowBytesPerSecond.
// A nil value sets a setting back to its default: no latency, no
// failures, the real time, journal.DefaultJournalSize, secrets hidden, no fault, a
// fault rate of 0, DefaultSlowBytesPerSecond. Every change is checked
// first: if one is wrong, nothing changes, and the *edge.Error names it.
func (s *Steering) ChangeSettings(changes map[string]any) error {
	members := make(map[string]json.RawMessage, len(changes))
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		if !slices.Contains(settingNames, name) {
			return edge.BadRequest(name, "not a setting; the settings are %s", strings.Join(settingNames, ", "))
		}
		raw, err := json.Marshal(changes[name])
		if err != nil {
			return edge.BadRequest(name, "%v", err)
		}
		members[name] = raw
	}
	if e := s.changeSettings(members); e != nil {
		return e
	}
	return nil
}

// changeSettings applies the settings in members, all of them or, if one
// is wrong, none, then logs and records each change.
func (s *Steering) changeSettings(members map[string]json.RawMessage) *edge.Error {
	s.settings.mu.Lock()
	defer s.settings.mu.Unlock()
	cur := s.settings.load()
	next := *cur
	for _, name := range settingNames {
		if raw, ok := members[name]; ok {
			if e := s.applySetting(&next, name, raw); e != nil {
				return e
			}
		}
	}
	changes := s.describeChanges(cur, &next)
	// The journal grows before the pipeline may fill it, and shrinks
	// after the pipeline stopped expecting room.
	if next.journal > cur.journal && s.resize != nil {
		s.resize(next.journal)
	}
	s.settings.cur.Store(&next)
	if next.journal < cur.journal && s.resize != nil {
		s.resize(next.journal)
	}
	s.settings.changes = append(s.settings.changes, changes...)
	if n := len(s.settings.changes); n > maxChanges {
		s.settings.changes = slices.Delete(s.settings.changes, 0, n-maxChanges)
	}
	for _, c := range changes {
		if s.log != nil {
			s.log.Info("setting changed", "setting", c.Setting, "from", c.From, "to", c.To)
		}
	}
	if len(changes) > 0 {
		s.events.Publish(journal.ChangeSettings)
	}
	return nil
}

// applySetting sets the setting name of st to the JSON value raw.
func (s *Steering) applySetting(st *settings, name string, raw json.RawMessage) *edge.Error {
	null := bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
	var text string
	isText := json.Unmarshal(raw, &text) == nil
	switch name {
	case "latency":
		if null {
			st.latency = Latency{}
			return nil
		}
		l, err := ParseLatency(text)
		if !isText || err != nil {
			return edge.BadRequest("latency", "%s: want a duration such as 100ms or a range such as 50ms-300ms, at most %s", raw, MaxDelay)
		}
		st.latency = l
	case "failRate":
		if null {
			st.failRate = 0
			return nil
		}
		var rate float64
		if json.Unmarshal(raw, &rate) != nil || rate < 0 || rate > 1 {
			return edge.BadRequest("failRate", "%s: want a share from 0 to 1, such as 0.05", raw)
		}
		st.failRate = rate
	case "now":
		if null {
			st.offset, st.set = 0, false
			return nil
		}
		t, err := ParseInstant(text)
		if !isText || err != nil {
			return edge.BadRequest("now", "%s: want a date such as 2031-01-01 or a time such as 2031-01-01T12:00:00Z, or null for the real time", raw)
		}
		st.offset, st.set = t.Sub(s.now()), true
	case "journal":
		if null {
			st.journal = journal.DefaultJournalSize
			return nil
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
		if err != nil || n < 0 || n > MaxJournalSize {
			return edge.BadRequest("journal", "%s: want a number of requests from 0 to %d", raw, MaxJournalSize)
		}
		st.journal = n
	case "journalSecrets":
		switch {
		case null || isText && text == SecretsHidden:
			st.showSecrets = false
		case isText && text == SecretsShown:
			st.showSecrets = true
		default:
			return edge.BadRequest("journalSecrets", "%s: want %q, or %q to show the app's tokens, passwords and session ids in the journal", raw, SecretsHidden, SecretsShown)
		}
	case "fault":
		if null {
			st.fault = ""
			return nil
		}
		if !isText || !Fault(text).known() {
			return edge.BadRequest("fault", "%s: want one of %s, or null for none", raw, faultList())
		}
		st.fault = Fault(text)
	case "faultRate":
		if null {
			st.faultRate = 0
			return nil
		}
		var rate float64
		if json.Unmarshal(raw, &rate) != nil || rate < 0 || rate > 1 {
			return edge.BadRequest("faultRate", "%s: want a share from 0 to 1, such as 0.05", raw)
		}
		st.faultRate = rate
	case "slowBytesPerSecond":
		if null {
			st.slowRate = DefaultSlowBytesPerSecond
			return nil
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
		if err != nil {
			return edge.BadRequest("slowBytesPerSecond", "%s: want bytes per second from 1 to %d", raw, MaxSlowBytesPerSecond)
		}
		if e := checkSlowRate("slowBytesPerSecond", n); e != nil {
			return e
		}
		st.slowRate = n
	}
	return nil
}

// describeChanges lists what differs between two settings.
func (s *Steering) describeChanges(from, to *settings) []SettingChange {
	at := time.Now().UTC().Truncate(time.Millisecond)
	var out []SettingChange
	add := func(name, a, b string) {
		if a != b {
			out = append(out, SettingChange{Time: at, Setting: name, From: a, To: b})
		}
	}
	add("latency", formatLatency(from.latency), formatLatency(to.latency))
	add("failRate", strconv.FormatFloat(from.failRate, 'g', -1, 64), strconv.FormatFloat(to.failRate, 'g', -1, 64))
	clock := func(st *settings) string {
		if !st.set {
			return "real time"
		}
		return s.now().Add(st.offset).UTC().Truncate(time.Second).Format(time.RFC3339)
	}
	// A clock set twice to the same time still moved: it had run on.
	if from.set != to.set || from.offset != to.offset {
		out = append(out, SettingChange{Time: at, Setting: "now", From: clock(from), To: clock(to)})
	}
	add("journal", strconv.Itoa(from.journal), strconv.Itoa(to.journal))
	add("journalSecrets", secretsSetting(from.showSecrets), secretsSetting(to.showSecrets))
	fault := func(f Fault) string {
		if f == "" {
			return "none"
		}
		return string(f)
	}
	add("fault", fault(from.fault), fault(to.fault))
	add("faultRate", strconv.FormatFloat(from.faultRate, 'g', -1, 64), strconv.FormatFloat(to.faultRate, 'g', -1, 64))
	add("slowBytesPerSecond", strconv.Itoa(from.slowRate), strconv.Itoa(to.slowRate))
	return out
}
