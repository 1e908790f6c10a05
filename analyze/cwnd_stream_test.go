package analyze

import (
	"path/filepath"
	"reflect"
	"testing"

	"tcpviz/internal/capturetest"
)

// TestCwndDrawnWhileReadEqualsAfter: the cwnd graph drawn while the
// capture is read (LoadOptions.Graphs, what the CLI draws) is the one
// drawn from the records after it (what the kernel truth tests score):
// a builder reads of its connection nothing the tracker has yet to learn
// (k24_reno_ipv6_l1: the SYN/ACK's SACK-permitted option, read from the
// connection before the tracker had it, left SACK off in the CLI only).
func TestCwndDrawnWhileReadEqualsAfter(t *testing.T) {
	spec, _ := lookupGraph(GraphCwnd)
	var captures []string
	for _, d := range []string{"kernel", "kernel-heldout", "labelled"} {
		m, _ := filepath.Glob(filepath.Join("..", "testdata", d, "*.tx.pcap*"))
		captures = append(captures, m...)
	}
	captures = append(captures, filepath.Join("..", "testdata", "lossy_sll2.pcap"), filepath.Join("..", "testdata", "truth-extra", "gt_v6_any_loss.tx.pcap"))
	if len(captures) < 20 {
		t.Fatalf("%d captures: the bundled kernel runs are missing", len(captures))
	}
	for _, c := range captures {
		t.Run(filepath.Base(c), func(t *testing.T) {
			after, err := Load(capturetest.Opener(t, c), LoadOptions{Stream: -1, Dir: -1})
			if err != nil {
				t.Fatal(err)
			}
			want := spec.Draw(after.Records, SeriesOptions{Conn: after.Conn, Dir: after.Dir}, GraphParams{})
			during, err := Load(capturetest.Opener(t, c), LoadOptions{Stream: -1, Dir: int(after.Dir), Graphs: []GraphRequest{{Spec: spec}}})
			if err != nil {
				t.Fatal(err)
			}
			got := during.Graphs[0]
			for _, name := range []string{SeriesCwnd, SeriesSsthresh} {
				g, w := got.lookup(name), want.lookup(name)
				if g == nil || w == nil {
					if g != w {
						t.Errorf("%s: drawn while read %v, after %v", name, g != nil, w != nil)
					}
					continue
				}
				g.unpack()
				w.unpack()
				if !reflect.DeepEqual(g.Points, w.Points) {
					t.Errorf("%s: %d points drawn while read, %d after; they differ", name, len(g.Points), len(w.Points))
				}
			}
		})
	}
}
