package charts

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tcpviz/analyze"
	"tcpviz/internal/capturetest"
)

// TestCountsSingular: a count of one says its noun in the singular in
// the report's facts ("1 packet", "1 sample").
func TestCountsSingular(t *testing.T) {
	l, err := analyze.Load(capturetest.Opener(t, filepath.Join("..", "testdata", "geo_short.pcap")), analyze.LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	st := &l.Stats[l.Dir]
	st.DataBytes, st.DataPackets, st.UniqueBytes, st.RTTSamples = 1, 1, 1, 1
	st.RetransPackets, st.Path.LostDownstream = 1, 1
	st.SlowStart.Found, st.SlowStart.Rounds, st.SlowStart.Flight = true, 1, 1
	plural := regexp.MustCompile(`(^|[^0-9.])1 (bytes|packets|samples|round trips|segments|retransmissions|unique bytes)\b`)
	var text []string
	for _, f := range reportFacts(l) {
		text = append(text, f.Label+": "+f.Value)
		if m := plural.FindString(f.Value); m != "" {
			t.Errorf("%s: %q says %q", f.Label, f.Value, m)
		}
	}
	for _, want := range []string{"1 byte in 1 packet (1 unique byte)", "(1 sample)", "after 1 round trip, 1 byte in flight", "1 segment lost", "1 retransmission ("} {
		if !strings.Contains(strings.Join(text, "\n"), want) {
			t.Errorf("facts lack %q:\n%s", want, strings.Join(text, "\n"))
		}
	}
}

// TestCapturePointFact: the report says where the capture sits in words,
// for every vantage (it printed "at the unknown of this direction's path"
// and "at the middle of" before it used vantagePhrase).
func TestCapturePointFact(t *testing.T) {
	l, err := analyze.Load(capturetest.Opener(t, filepath.Join("..", "testdata", "geo_short.pcap")), analyze.LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[analyze.Vantage]string{
		analyze.VantageSender:   "at the sender of this direction's path",
		analyze.VantageReceiver: "at the receiver of this direction's path",
		analyze.VantageMiddle:   "in the middle of this direction's path",
		analyze.VantageUnknown:  "at an unknown point of this direction's path",
	} {
		l.Stats[l.Dir].Path.Vantage = v
		got := ""
		for _, f := range reportFacts(l) {
			if f.Label == "capture point" {
				got = f.Value
			}
		}
		if got != want {
			t.Errorf("vantage %q: capture point %q, want %q", v, got, want)
		}
	}
}
