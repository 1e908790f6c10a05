package analyze

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tcpviz/internal/capturetest"
)

// TestDeliveryCountsEachByteOnce: SACK blocks count their bytes when they
// report them; the cumulative ACK that later jumps over them counts only
// the repaired hole; a D-SACK and a block reported again count nothing.
func TestDeliveryCountsEachByteOnce(t *testing.T) {
	b := &tputBuilder{}
	steps := []struct {
		prev     int64
		advanced bool
		ack      int64
		blocks   [][2]int64
		want     int64
	}{
		{0, true, 1000, nil, 1000},                                        // in order
		{1000, false, 1000, [][2]int64{{2000, 3000}}, 1000},               // 1000–2000 lost, 2000–3000 SACKed
		{1000, false, 1000, [][2]int64{{2000, 4000}}, 1000},               // the block grows by 1000
		{1000, false, 1000, [][2]int64{{2000, 4000}}, 0},                  // reported again
		{1000, true, 4000, nil, 1000},                                     // the repair: only the hole is new
		{4000, false, 4000, [][2]int64{{1000, 2000}}, 0},                  // a D-SACK below the ACK
		{4000, false, 4000, [][2]int64{{5000, 6000}, {7000, 8000}}, 2000}, // two holes
		{4000, true, 5500, nil, 1500},                                     // 4000–5000 and half a hole's block already counted: 1000 + 0
	}
	steps[len(steps)-1].want = 1000 // 4000–5000 new; 5000–5500 was SACKed
	var total int64
	for i, s := range steps {
		got := b.deliver(s.prev, s.advanced, s.ack, s.blocks)
		if got != s.want {
			t.Errorf("step %d: delivered %d, want %d (SACKed %v)", i, got, s.want, b.sacked)
		}
		total += got
	}
	// Every byte up to 5500 once, and 5500–6000 and 7000–8000 SACKed.
	if want := int64(5500 + 500 + 1000); total != want {
		t.Errorf("delivered %d in all, want %d", total, want)
	}
}

// TestDeliveryRateAgainstLink: at the sender's capture of every labelled
// run with SACK (testdata/labelled; a proxy's leg is not the link), the
// delivery rate over the default 1 s window never exceeds the link's rate
// by more than 10%, although the goodput does after a repair (the 2 Mbit/s
// Reno run with 1% loss: 1.23 times the link).
func TestDeliveryRateAgainstLink(t *testing.T) {
	labels, _ := filepath.Glob(filepath.Join("..", "testdata", "labelled", "*.label.json"))
	if len(labels) < 10 {
		t.Fatalf("%d labelled runs, want the 20 of testdata/labelled", len(labels))
	}
	goodputOver := 0
	for _, lf := range labels {
		raw, err := os.ReadFile(lf)
		if err != nil {
			t.Fatal(err)
		}
		var l runLabel
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatal(err)
		}
		if l.Settings["PEP"] == "1" || l.Settings["SACK"] == "0" {
			continue
		}
		link, err := strconv.ParseFloat(l.Settings["RATE"], 64)
		if err != nil {
			t.Fatalf("%s: RATE %q", l.Name, l.Settings["RATE"])
		}
		link *= 1e6
		capture := strings.TrimSuffix(lf, ".label.json") + ".tx.pcap.gz"
		if !exists(capture) {
			continue // a run bundled for its receiver side only
		}
		ld, err := Load(capturetest.Opener(t, capture), LoadOptions{Stream: -1, Dir: -1})
		if err != nil {
			t.Fatal(err)
		}
		spec, _ := lookupGraph(GraphThroughput)
		g := spec.Draw(ld.Records, SeriesOptions{Conn: ld.Conn, Dir: ld.Dir}, GraphParams{})
		peak := func(name string) float64 {
			var m float64
			if s := g.lookup(name); s != nil {
				for _, p := range s.Points {
					m = max(m, p.V[0])
				}
			}
			return m
		}
		d, gp := peak(SeriesDelivery), peak(SeriesGoodput)
		if d == 0 {
			t.Errorf("%s: no delivery rate", l.Name)
		}
		if d > 1.1*link {
			t.Errorf("%s: delivery rate peaks at %.2f times the %.1f Mbit/s link", l.Name, d/link, link/1e6)
		}
		if gp > 1.1*link {
			goodputOver++
		}
	}
	if goodputOver == 0 {
		t.Error("goodput never above the link: the case the delivery rate is for is not in the corpus")
	}
}
