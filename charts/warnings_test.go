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
		case analyze.WarnBadTime, analyze.WarnNoTime, analyze.WarnUnknownLink, analyze.WarnFragIncomplete, analyze.WarnDatagramIncomplete:
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
