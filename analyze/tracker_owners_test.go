package analyze

import (
	"path/filepath"
	"testing"

	"tcpviz/internal/capturetest"
)

// TestTrackerSameInGraphAndSummary: the one loss-episode tracker is fed
// by two owners, the statistics (loss_episodes_*) and the cwnd graph (its
// marks); on the same capture they must count the same episodes, by kind
// and undone — under jitter, reordering, between two links, and with
// every frame captured twice (a second copy of an ACK once made the
// graph enter recoveries the summary did not: 5 undone for 2).
func TestTrackerSameInGraphAndSummary(t *testing.T) {
	files := []string{
		"../testdata/labelled/ro_60ms_10m_j6_nots.tx.pcap.gz",
		"../testdata/labelled/mx_50ms_10m_j5_l1.tx.pcap.gz",
		"../testdata/truth-jitter/gt_j5_tail60k_20m.tx.pcap.gz",
		"../testdata/truth-jitter/gt_j10_loss1.tx.pcap.gz",
		"../testdata/kernel-heldout/kx_reno_jitter6_l1.tx.pcap.gz",
		"../testdata/truth-mid/gt_mid_jitter_ackloss.mid.pcap.gz",
	}
	doubled := filepath.Join(t.TempDir(), "ro_doubled.pcap")
	writeDoubled(t, files[0], doubled)
	files = append(files, doubled)
	counts := map[string][3]int64{}
	for _, f := range files {
		l, err := Load(capturetest.Opener(t, f), LoadOptions{Stream: -1, Dir: -1})
		if err != nil {
			t.Fatal(err)
		}
		st := l.Stats[l.Dir]
		spec, _ := lookupGraph(GraphCwnd)
		g := spec.Draw(l.Records, SeriesOptions{Conn: l.Conn, Dir: l.Dir}, GraphParams{})
		n := func(name string) int64 {
			if s := g.lookup(name); s != nil {
				return int64(len(s.Points))
			}
			return 0
		}
		summary := [3]int64{st.LossEpisodesFast, st.LossEpisodesRTO, st.LossEpisodesUndone}
		graph := [3]int64{n(SeriesFastLoss), n(SeriesRTOLoss), n(SeriesUndoneLoss)}
		if summary != graph {
			t.Errorf("%s: summary fast/timeout/undone %v, graph %v", filepath.Base(f), summary, graph)
		}
		counts[filepath.Base(f)] = summary
	}
	if a, b := counts[filepath.Base(files[0])], counts["ro_doubled.pcap"]; a != b {
		t.Errorf("every frame twice: %v episodes, once: %v", b, a)
	}
}

// writeDoubled writes the pcap src to dst with every frame twice.
func writeDoubled(t *testing.T, src, dst string) {
	t.Helper()
	frames, link, snaplen := capturetest.Frames(t, src)
	doubled := make([]capturetest.Frame, 0, 2*len(frames))
	for _, fr := range frames {
		doubled = append(doubled, fr, fr)
	}
	capturetest.WriteFrames(t, dst, doubled, link, snaplen)
}
