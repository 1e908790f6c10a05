package analyze

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// TestUndoneEpisodesAgainstLinkLog: every loss episode the cwnd graph
// marks undone (proven spurious by Eifel or D-SACK: Linux restores the
// window) has no drop of its first resent segment behind it in the
// link's log, on every ground-truth, kernel and labelled run with a
// sender-side capture; and nearly every episode not undone has one (the
// rest, logged, are reordering taken for loss without proof of it).
func TestUndoneEpisodesAgainstLinkLog(t *testing.T) {
	var logs []string
	dirs := append(truthDirs(), filepath.Join("..", "testdata", "labelled"), filepath.Join("..", "testdata", "kernel"),
		filepath.Join("..", "testdata", "kernel-heldout"), filepath.Join(golden.SharedCaptures(), "kernel"))
	for _, d := range dirs {
		m, _ := filepath.Glob(filepath.Join(d, "*.truth.jsonl.gz"))
		logs = append(logs, m...)
	}
	if len(logs) < 20 {
		t.Fatalf("%d link logs, want the bundled ones at least", len(logs))
	}
	var undone, undoneDropped, kept, keptDropped int
	for _, log := range logs {
		name := strings.TrimSuffix(log, ".truth.jsonl.gz")
		capture := name + ".tx.pcap"
		if strings.Contains(filepath.Base(name), "reverse") {
			capture = name + ".rx.pcap" // the server sends: its capture is rx
		}
		if _, err := os.Stat(capture); err != nil {
			capture += ".gz"
		}
		if _, err := os.Stat(capture); err != nil {
			continue
		}
		l, err := Load(capturetest.Opener(t, capture), LoadOptions{Stream: -1, Dir: -1})
		if err != nil || l.Conn == nil {
			t.Fatalf("%s: %v", capture, err)
		}
		if l.Stats[l.Dir].Path.Vantage != VantageSender {
			continue
		}
		c, d := l.Conn, l.Dir
		src, dst := c.Client, c.Server
		if d == reassembly.S2C {
			src, dst = dst, src
		}
		// The link's drops of this direction's data, by raw sequence
		// number and time.
		drops := map[uint32][]int64{}
		for _, e := range readTruth(t, log) {
			if (e.Event == "loss" || e.Event == "queue") && e.Len > 0 && e.Src == src.Addr().String() && e.Sport == src.Port() && e.Dport == dst.Port() {
				drops[e.Seq] = append(drops[e.Seq], e.Time.UnixNano())
			}
		}
		byFrame := map[int64]*Record{}
		for i := range l.Records {
			byFrame[l.Records[i].Frame] = &l.Records[i]
		}
		dropped := func(p Point) bool {
			r := byFrame[p.Frame]
			if r == nil {
				t.Fatalf("%s: no record of frame %d", capture, p.Frame)
			}
			for _, at := range drops[c.Dir[d].ISN+uint32(r.Seq)] {
				if at < r.Time {
					return true
				}
			}
			return false
		}
		spec, _ := lookupGraph(GraphCwnd)
		g := spec.Draw(l.Records, SeriesOptions{Conn: c, Dir: d}, GraphParams{})
		if s := g.lookup(SeriesUndoneLoss); s != nil {
			for _, p := range s.Points {
				undone++
				if dropped(p) {
					undoneDropped++
					t.Errorf("%s: the episode undone at frame %d resent a segment the link dropped", filepath.Base(capture), p.Frame)
				}
			}
		}
		undoneAt := map[int64]bool{} // an undone episode's kind mark lies under its undone one
		if s := g.lookup(SeriesUndoneLoss); s != nil {
			for _, p := range s.Points {
				undoneAt[p.Frame] = true
			}
		}
		for _, name := range []string{SeriesFastLoss, SeriesRTOLoss} {
			if s := g.lookup(name); s != nil {
				for _, p := range s.Points {
					if byFrame[p.Frame].Dir != d || undoneAt[p.Frame] {
						continue // recovery entered again at an ACK: its resends follow
					}
					kept++
					if dropped(p) {
						keptDropped++
					} else {
						t.Logf("%s: %s at frame %d: no drop behind", filepath.Base(capture), name, p.Frame)
					}
				}
			}
		}
	}
	t.Logf("%d link logs: %d episodes undone, %d of them with a drop behind; %d not undone, %d with a drop behind", len(logs), undone, undoneDropped, kept, keptDropped)
	if undone == 0 {
		t.Error("no episode undone on any run: the reordering runs have some")
	}
	if float64(keptDropped) < 0.97*float64(kept) {
		t.Errorf("%d of %d episodes not undone have a drop behind, want 97%%", keptDropped, kept)
	}
}

// TestLossEventsSameAtBothEnds: a receiver-side capture counts the
// sender's drop events (loss_events), where nothing reorders and SACK is
// on. A queue that overflows drops the top of the window too; at the
// receiver the first resend arrives above less data than the sender had
// sent, and the event once ended at that lower point: the repair of the
// dropped top, in the same recovery at the sender, counted as a second
// event (cq_20ms_20m_q10k: 30 at the receiver for 28; rl_300ms_2m_l1_reno
// 6 for 5).
func TestLossEventsSameAtBothEnds(t *testing.T) {
	for _, name := range []string{"ak_40ms_10m_b03_l1", "cq_100ms_10m_q30k_reno", "cq_200ms_5m_q30k", "cq_20ms_20m_q10k",
		"mx_100ms_10m_q30k_l1", "mx_200ms_5m_w32_l1", "rl_300ms_2m_l1_reno"} {
		base := filepath.Join("..", "testdata", "labelled", name)
		tx, rx := mainStats(t, base+".tx.pcap.gz"), mainStats(t, base+".rx.pcap.gz")
		if tx.Path.LossEvents == 0 || rx.Path.Vantage != VantageReceiver {
			t.Fatalf("%s: %d loss events at the sender, vantage %q at the receiver: not the run this test is about", name, tx.Path.LossEvents, rx.Path.Vantage)
		}
		if rx.Path.LossEvents != tx.Path.LossEvents {
			t.Errorf("%s: %d loss events at the receiver, %d at the sender", name, rx.Path.LossEvents, tx.Path.LossEvents)
		}
	}
}
