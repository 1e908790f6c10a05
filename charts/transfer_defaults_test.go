package charts

import (
	"strings"
	"testing"
)

// TestTransferDefaults: compare's help quotes the instants and amounts
// its table takes by default, each a column of that table.
func TestTransferDefaults(t *testing.T) {
	at, to := TransferDefaults()
	if at != "1s,5s,10s" || to != "1MiB" {
		t.Errorf("defaults %q %q, want 1s,5s,10s and 1MiB", at, to)
	}
	names := map[string]bool{}
	for _, c := range CompareColumns {
		names[c.Name] = true
	}
	for _, a := range strings.Split(at, ",") {
		if !names["delivered_"+a+"_bytes"] {
			t.Errorf("no column delivered_%s_bytes", a)
		}
	}
	for _, n := range strings.Split(to, ",") {
		if !names["time_to_"+n+"_within_s"] {
			t.Errorf("no column time_to_%s_within_s", n)
		}
	}
}
