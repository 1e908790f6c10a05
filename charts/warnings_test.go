package charts

import (
	"errors"
	"strings"
	"testing"

	"tcpviz/analyze"
)

// TestWarningText: every kind of scan warning is said in words of its
// own, with its count, its first packet where it has one and its error.
func TestWarningText(t *testing.T) {
	other := WarningText(analyze.Warning{Kind: analyze.WarnOther, Count: 7})
	if other != "7 packets of other problems" {
		t.Errorf("other: %q", other)
	}
	seen := map[string]analyze.WarningKind{}
	for k := analyze.WarnContinued; k < analyze.WarnOther; k++ {
		w := analyze.Warning{Kind: k, Count: 3, Packet: 41, LinkType: 999, Err: errors.New("bad header")}
		s := WarningText(w)
		if strings.HasSuffix(s, "of other problems") || !strings.Contains(s, "3 ") {
			t.Errorf("kind %d: %q", k, s)
		}
		if prev, dup := seen[s]; dup {
			t.Errorf("kinds %d and %d say the same: %q", prev, k, s)
		}
		seen[s] = k
		switch k {
		case analyze.WarnBadTime, analyze.WarnNoTime, analyze.WarnUnknownLink, analyze.WarnFragIncomplete, analyze.WarnDatagramIncomplete, analyze.WarnClockBack:
			if !strings.Contains(s, "packet 41") {
				t.Errorf("kind %d does not name its first packet: %q", k, s)
			}
		case analyze.WarnMalformed, analyze.WarnDatagramMalformed:
			if !strings.Contains(s, "bad header") {
				t.Errorf("kind %d does not give its error: %q", k, s)
			}
		}
	}
}

// TestGraphWarningWords: every kind a graph says (Graph.Warnings and
// Graph.Notes, typed in analyze) has words of its own here, with its
// numbers; none falls through to the scan's "other problems".
func TestGraphWarningWords(t *testing.T) {
	for _, tt := range []struct {
		w    analyze.Warning
		want []string
	}{
		{analyze.Warning{Kind: analyze.WarnNoRTTWindow}, []string{"no RTT samples", "1 s"}},
		{analyze.Warning{Kind: analyze.WarnShortWindow, Window: 1e9, RTT: 602_400_000}, []string{"(1 s)", "4 × 602.4 ms", "--window 4rtt"}},
		{analyze.Warning{Kind: analyze.WarnFarEndEstimated}, []string{"far end's times are estimated"}},
		{analyze.Warning{Kind: analyze.WarnLogXNames, Label: "proto", Values: "tcp, udp"}, []string{"proto's values", "(tcp, udp)", "linear axis"}},
		{analyze.Warning{Kind: analyze.WarnLogXNonPositive, Label: "loss", Values: "0"}, []string{"loss=0 at or below zero"}},
		{analyze.Warning{Kind: analyze.NoteProxyACKs, Label: "near"}, []string{"near: ACKs from a proxy"}},
		{analyze.Warning{Kind: analyze.NoteProxyACKs}, []string{"ACKs from a proxy beside the capture (the receiver answers"}},
		{analyze.Warning{Kind: analyze.NoteReceiverFlight}, []string{"receiver-side capture"}},
		{analyze.Warning{Kind: analyze.NoteBBRCap}, []string{"BBR sender"}},
		{analyze.Warning{Kind: analyze.NoteNoHandshake}, []string{"handshake was not captured", "scale is not known"}},
		{analyze.Warning{Kind: analyze.NoteWindowMisread}, []string{"ran past the receive window", "not drawn"}},
	} {
		got := WarningText(tt.w)
		for _, s := range tt.want {
			if !strings.Contains(got, s) {
				t.Errorf("kind %d: %q, want %q in it", tt.w.Kind, got, s)
			}
		}
		if strings.Contains(got, "other problems") {
			t.Errorf("kind %d: %q has no words of its own", tt.w.Kind, got)
		}
	}
}

// TestClockBackWords: a step back of the capture's clock is said with its
// size in units that read (years for a wild timestamp), and several with
// how many and the largest.
func TestClockBackWords(t *testing.T) {
	for _, tt := range []struct {
		w    analyze.Warning
		want string
	}{
		{analyze.Warning{Kind: analyze.WarnClockBack, Packet: 2, Count: 1, Step: 3009104378e9}, "packet 2: the capture's clock goes back 95.4 years: what spans it"},
		{analyze.Warning{Kind: analyze.WarnClockBack, Packet: 9, Count: 1, Step: 90e9}, "goes back 90 s: "},
		{analyze.Warning{Kind: analyze.WarnClockBack, Packet: 9, Count: 4, Step: 3 * 86400e9}, "packet 9: the capture's clock goes back, the first of 4 steps back of more than a minute (the largest 3.0 days): what spans one"},
	} {
		if got := WarningText(tt.w); !strings.Contains(got, tt.want) {
			t.Errorf("%+v: %q, want it to hold %q", tt.w, got, tt.want)
		}
	}
}
