package analyze

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
// run (testdata/labelled; a proxy's leg is not the link), with SACK or
// without (renoDelivery), the delivery rate over the default 1 s window
// never exceeds the link's rate by more than 10%, although the goodput
// does after a repair (the 2 Mbit/s Reno run with 1% loss: 1.23 times the
// link; without SACK the bundled kernel runs: kh_cubic_nosack_q, 1.17
// times its 5 Mbit/s link); without SACK the cwnd graph's delivery rate
// too, against the path's bandwidth-delay product (it read the repair's
// cumulative ACK as delivered at once: kw_reno_nosack_2pct 1.5 times).
func TestDeliveryRateAgainstLink(t *testing.T) {
	labels, _ := filepath.Glob(filepath.Join("..", "testdata", "labelled", "*.label.json"))
	if len(labels) < 10 {
		t.Fatalf("%d labelled runs, want the 20 of testdata/labelled", len(labels))
	}
	goodputOver, renoOver, cwndChecked := 0, 0, 0
	for _, lf := range labels {
		raw, err := os.ReadFile(lf)
		if err != nil {
			t.Fatal(err)
		}
		var l runLabel
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatal(err)
		}
		if l.Settings["PEP"] == "1" {
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
		d, gp := peaks(t, capture)
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
	// The labelled runs without SACK have no goodput above the link: the
	// kernel runs of testdata/kernel-heldout without SACK do.
	rows, err := os.ReadFile(filepath.Join("..", "testdata", "kernel-heldout", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range strings.Split(string(rows), "\n") {
		cells := strings.Split(row, "|")
		if len(cells) < 3 || !strings.Contains(cells[2], "SACK=0") || strings.Contains(cells[2], "PEP=1") {
			continue
		}
		name, settings := strings.TrimSpace(cells[1]), strings.Fields(cells[2])
		var link, delay float64
		for _, kv := range settings {
			if v, ok := strings.CutPrefix(kv, "RATE="); ok {
				link, _ = strconv.ParseFloat(v, 64)
			}
			if v, ok := strings.CutPrefix(kv, "DELAY="); ok {
				d, _ := time.ParseDuration(v)
				delay = d.Seconds()
			}
		}
		capture := filepath.Join("..", "testdata", "kernel-heldout", name+".tx.pcap.gz")
		if link <= 0 || !exists(capture) {
			continue
		}
		link *= 1e6
		d, gp := peaks(t, capture)
		if d > 1.1*link {
			t.Errorf("%s (no SACK): delivery rate peaks at %.2f times the %.1f Mbit/s link", name, d/link, link/1e6)
		}
		if gp > 1.1*link {
			renoOver++
		}
		// The cwnd graph's line, each round's delivery rate times the
		// least RTT, counts as tput's does (senderPipe.rated): at most
		// the link's bandwidth-delay product.
		if bdp := link / 8 * 2 * delay; delay > 0 {
			if c := cwndDeliveryPeak(t, capture); c > 1.1*bdp || c == 0 {
				t.Errorf("%s (no SACK): the cwnd graph's delivery rate × least RTT peaks at %.2f times the path's %.0f-byte BDP", name, c/bdp, bdp)
			}
			cwndChecked++
		}
	}
	if cwndChecked < 5 {
		t.Errorf("the cwnd graph's delivery rate checked on %d runs without SACK, want 5 or more", cwndChecked)
	}
	if renoOver == 0 {
		t.Error("without SACK goodput never above the link: the case renoDelivery is for is not in the corpus")
	}
}

// mainGraph draws the graph kind of capture's main connection.
func mainGraph(t *testing.T, capture string, kind GraphKind) *Graph {
	t.Helper()
	ld, err := Load(capturetest.Opener(t, capture), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := lookupGraph(kind)
	return spec.Draw(ld.Records, SeriesOptions{Conn: ld.Conn, Dir: ld.Dir}, GraphParams{})
}

// peakOf is the highest point of g's series name, 0 where none.
func peakOf(g *Graph, name string) float64 {
	var m float64
	if s := g.lookup(name); s != nil {
		for _, p := range s.Points {
			m = max(m, p.V[0])
		}
	}
	return m
}

// cwndDeliveryPeak is the highest point of the cwnd graph's delivery
// rate (each round's, times the least RTT) for capture's main connection.
func cwndDeliveryPeak(t *testing.T, capture string) float64 {
	return peakOf(mainGraph(t, capture, GraphCwnd), SeriesDelivery)
}

// peaks is the highest delivery rate and goodput of the throughput graph
// of capture's main connection, over the default window.
func peaks(t *testing.T, capture string) (delivery, goodput float64) {
	g := mainGraph(t, capture, GraphThroughput)
	return peakOf(g, SeriesDelivery), peakOf(g, SeriesGoodput)
}

// TestRenoDelivery: without SACK each duplicate ACK counts a segment
// delivered, no more than the segments outstanding less the hole, and the
// ACK that ends the repair counts the rest, at least a segment: every
// byte once, none of the counts above a segment.
func TestRenoDelivery(t *testing.T) {
	const seg = 1000
	d := renoDelivery{maxSeg: seg, highSent: 10 * seg}
	var total int64
	// Segment 2 of 0–9 lost: eight duplicate ACKs of 2000 after the ACK
	// of the first two, but only seven segments stand above the hole.
	total += d.advance(2 * seg)
	for range 8 {
		n := d.dupack(2 * seg)
		if n > seg {
			t.Errorf("a duplicate ACK counted %d", n)
		}
		total += n
	}
	if d.sackedOut != 7 {
		t.Errorf("%d segments counted by duplicate ACKs, want 7 (above the hole)", d.sackedOut)
	}
	if n := d.advance(8 * seg); n != seg {
		t.Errorf("the repair's ACK counted %d, want the hole's %d", n, seg)
	}
	total += seg
	if total != 10*seg {
		t.Errorf("%d delivered in all, want %d", total, 10*seg)
	}
	// A partial ACK (NewReno): 2 holes, 3 and 6 of 0–9; five duplicate
	// ACKs; the first repair covers 3–5, leaving the two above 6.
	d = renoDelivery{maxSeg: seg, highSent: 10 * seg}
	for range 6 {
		d.dupack(3 * seg)
	}
	if n := d.advance(3 * seg); n != seg {
		t.Errorf("a partial ACK of three segments counted %d, want %d", n, seg)
	}
	if d.sackedOut != 4 {
		t.Errorf("%d left for the next repair, want 4", d.sackedOut)
	}
}
