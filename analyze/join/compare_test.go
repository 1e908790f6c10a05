package join

import (
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/analyze"
	"tcpviz/internal/golden"
)

// TestCompareOWD: each input's captures are joined and its connection's
// one-way delays overlaid as one series named by its label (the same
// pair twice: the same points), only those within the window; a
// connection a proxy splits has no delay to compare, and the error names
// its input.
func TestCompareOWD(t *testing.T) {
	td := golden.Testdata()
	pair := func(dir, name, ext string) []*Capture {
		return []*Capture{readCapture(t, filepath.Join(td, dir, name+".tx"+ext)), readCapture(t, filepath.Join(td, dir, name+".rx"+ext))}
	}
	ins := []OWDInput{
		{Label: "a", Name: "A", Captures: pair("truth-extra", "gt_nosack_loss", ".pcap"), Stream: -1, Dir: -1},
		{Label: "b", Name: "B", Captures: pair("truth-extra", "gt_nosack_loss", ".pcap"), Stream: -1, Dir: -1},
	}
	g, err := CompareOWD(ins, true, analyze.Range{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Series) != 2 || g.Series[0].Name != "a" || g.Series[1].Name != "b" || len(g.Series[0].Points) == 0 || len(g.Series[0].Points) != len(g.Series[1].Points) {
		t.Fatalf("series %d, want a and b with the same points", len(g.Series))
	}
	first := g.Series[0].Points[0].Time
	w := analyze.Range{Max: first, HasMax: true}
	if g, err := CompareOWD(ins[:1], true, w); err != nil || len(g.Series[0].Points) == 0 || g.Series[0].Points[len(g.Series[0].Points)-1].Time > first {
		t.Errorf("window to the first point: %v", err)
	}
	split := OWDInput{Label: "pep", Name: "P", Captures: pair("labelled", "pp_100ms_20m_q30k", ".pcap.gz"), Stream: -1, Dir: -1}
	if _, err := CompareOWD([]OWDInput{ins[0], split}, false, analyze.Range{}); err == nil || !strings.HasPrefix(err.Error(), "P: stream -1 is not in both captures packet by packet") {
		t.Errorf("a split connection: %v", err)
	}
}
