package analyze

import (
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// TestDiagnosisAgainstTruth: the first finding of the data direction, at
// the sender's capture of each ground-truth scenario, names what the link
// log says happened; behind the lab's proxy the diagnosis names the nearby
// peer and refuses a bottleneck estimate; without it, the 85 KB window.
func TestDiagnosisAgainstTruth(t *testing.T) {
	truth := filepath.Join(golden.SharedCaptures(), "truth")
	extra := filepath.Join("..", "testdata", "truth-extra")
	lab := filepath.Join(golden.SharedCaptures(), "lab")
	heldout := filepath.Join("..", "testdata", "kernel-heldout")
	for _, tc := range []struct {
		path string
		kind string
	}{
		{filepath.Join(truth, "gt_bufferbloat_tail.tx.pcap"), FindCongestionLoss}, // 108 tail drops
		{filepath.Join(truth, "gt_reverse_loss.rx.pcap"), FindRandomLoss},         // 19 random drops (the server sends)
		{filepath.Join(truth, "gt_jitter_reorder.tx.pcap"), FindReordering},       // nothing dropped, 35 spurious
		{filepath.Join(truth, "gt_jitter_reorder.rx.pcap"), FindReordering},
		{filepath.Join(extra, "gt_bbr_loss2.tx.pcap"), FindRandomLoss},
		{filepath.Join(extra, "gt_nosack_loss.tx.pcap"), FindRandomLoss},
		{filepath.Join(extra, "gt_v6_any_loss.tx.pcap"), FindRandomLoss},
		// Without SACK, random drops only: go-back-N resends are not a
		// burst of drops, and a growing window's RTT peak is not a queue's.
		{filepath.Join(heldout, "kw_reno_nosack_2pct.tx.pcap.gz"), FindRandomLoss},  // 35 random drops
		{filepath.Join(heldout, "kw_cubic_nosack_geo2.tx.pcap.gz"), FindRandomLoss}, // 15 random drops
		{filepath.Join(lab, "geo_pep_85k.pcap"), FindNearbyPeer},
		{filepath.Join(lab, "geo_nopep_85k.pcap"), FindReceiveWindow},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			if _, err := os.Stat(tc.path); err != nil {
				t.Skip(err)
			}
			st := mainStats(t, tc.path)
			if len(st.Findings) == 0 || st.Findings[0].Kind != tc.kind {
				t.Fatalf("diagnosis %q: want it to start with %s", st.Diagnosis, tc.kind)
			}
			if tc.kind == FindNearbyPeer && (st.BottleneckBps != 0 || st.SlowStart.Found) {
				t.Errorf("behind a proxy: bottleneck %.0f, slow start %+v; want neither", st.BottleneckBps, st.SlowStart)
			}
			if tc.kind == FindReceiveWindow && st.SlowStart.Reason != SlowStartRwnd {
				t.Errorf("slow start ended by %q, want %q", st.SlowStart.Reason, SlowStartRwnd)
			}
		})
	}
}

// TestOvershootAgainstTruth: a slow-start overshoot is said exactly where
// the link log shows a burst of tail drops ending slow start (VSAT: 28
// queue drops at 7–8 s, then random ones; bufferbloat: about 80 at 7–9 s,
// later bursts smaller), at either capture point, and nowhere else.
func TestOvershootAgainstTruth(t *testing.T) {
	truth := filepath.Join(golden.SharedCaptures(), "truth")
	extra := filepath.Join("..", "testdata", "truth-extra")
	lab := filepath.Join(golden.SharedCaptures(), "lab")
	heldout := filepath.Join("..", "testdata", "kernel-heldout")
	for _, tc := range []struct {
		path      string
		overshoot bool
	}{
		{filepath.Join(truth, "gt_vsat_reno_loss.tx.pcap"), true},
		{filepath.Join(truth, "gt_vsat_reno_loss.rx.pcap"), true},
		{filepath.Join(truth, "gt_bufferbloat_tail.tx.pcap"), true},
		{filepath.Join(truth, "gt_bufferbloat_tail.rx.pcap"), true},
		{filepath.Join(truth, "gt_reverse_loss.tx.pcap"), false},
		{filepath.Join(truth, "gt_reverse_loss.rx.pcap"), false},
		{filepath.Join(truth, "gt_jitter_reorder.tx.pcap"), false},
		{filepath.Join(extra, "gt_bbr_loss2.tx.pcap"), false},
		{filepath.Join(extra, "gt_nosack_loss.tx.pcap"), false},
		{filepath.Join(extra, "gt_v6_any_loss.tx.pcap"), false},
		{filepath.Join(extra, "gt_nots_reorder.tx.pcap"), false},
		{filepath.Join(lab, "geo_nopep_85k.pcap"), false},
		{filepath.Join("..", "testdata", "lossy_sll2.pcap"), false},
		// Without SACK: 69 and 69 resent after slow start, 4 and 4 of them
		// proven drops, no queue drop in the link logs; 34 and 10 proven,
		// 38 and 10 queue drops there.
		{filepath.Join(heldout, "kw_reno_nosack_2pct.tx.pcap.gz"), false},
		{filepath.Join(heldout, "kq_reno_nosack_loss2.tx.pcap.gz"), false},
		{filepath.Join(heldout, "kh_reno_nosack_q.tx.pcap.gz"), true},
		{filepath.Join(heldout, "kw_reno_nosack_vsat.tx.pcap.gz"), true},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			if _, err := os.Stat(tc.path); err != nil {
				t.Skip(err)
			}
			st := mainStats(t, tc.path)
			said := false
			for _, f := range st.Findings {
				said = said || f.Kind == FindOvershoot
			}
			if said != tc.overshoot {
				t.Errorf("diagnosis %q (first episode %d of %d resent, %d episodes): overshoot said %v, want %v",
					st.Diagnosis, st.FirstEpisodeResent, st.EpisodeResent, st.LossEpisodes, said, tc.overshoot)
			}
		})
	}
}

// TestLossCauseJitterTruth: with delay jitter, the cause of the losses is
// what the link's log says, at the sender's capture of each scenario in
// testdata/truth-jitter (recorded with ../shared/lab, see its README):
// only tail drops at the queue → congestion loss, only random drops →
// random loss. Jitter puts the largest RTT of any round trip near its
// peak, so "near the peak" alone called the random ones congestion.
func TestLossCauseJitterTruth(t *testing.T) {
	dir := filepath.Join("..", "testdata", "truth-jitter")
	logs, _ := filepath.Glob(filepath.Join(dir, "*.truth.jsonl.gz"))
	if len(logs) < 10 {
		t.Fatalf("%d scenarios in %s, want 10", len(logs), dir)
	}
	for _, log := range logs {
		name := strings.TrimSuffix(filepath.Base(log), ".truth.jsonl.gz")
		t.Run(name, func(t *testing.T) {
			var random, queue int
			for _, e := range readTruth(t, log) {
				switch {
				case e.Dir != "a->b":
				case e.Event == "loss":
					random++
				case e.Event == "queue":
					queue++
				}
			}
			want := FindCongestionLoss
			switch {
			case random > 0 && queue == 0:
				want = FindRandomLoss
			case random > 0 || queue == 0:
				t.Fatalf("link log: %d random drops, %d tail drops: not one cause", random, queue)
			}
			st := mainStats(t, filepath.Join(dir, name+".tx.pcap.gz"))
			if len(st.Findings) == 0 || st.Findings[0].Kind != want {
				t.Errorf("link dropped %d at random, %d at its queue; diagnosis %q: want it to start with %s",
					random, queue, st.Diagnosis, want)
			}
		})
	}
}

// TestIPIDsAgainstTruth: at the capture after the link (the receiver's,
// or the sender's when the server sends), the IPv4 IDs the data's sender
// used and that never arrived are exactly the data frames of that
// connection the link's log dropped before the last ID that arrived (a
// drop after it leaves no gap: cq_90ms_10m_q35k_nosack's last two), on
// every run whose IDs are a counter (reordered ones too: late IDs fill
// their gaps); with IPv6, or IDs no counter's, the count is unknown,
// never wrong. And the data segments that arrived behind a packet their
// sender sent after them (DirStats.ipidLateData) are the data frames of
// that connection the log reordered — never more (a copy the network
// duplicated, or a resend, is not late), and at least 80% of them where
// it reordered 20 or more (a frame more than ipidLate IDs behind, or one
// overtaken only by frames the link dropped, leaves no sign).
func TestIPIDsAgainstTruth(t *testing.T) {
	counted, reordered := 0, 0
	for _, log := range idTruthLogs() {
		t.Run(filepath.Base(strings.TrimSuffix(log, ".truth.jsonl.gz")), func(t *testing.T) {
			events, after, dir := afterTheLink(t, log)
			st := mainStats(t, after)
			if !st.HasIPIDMissing {
				return
			}
			counted++
			first, last := idRange(t, after, st.Src)
			var want int64
			for _, e := range events {
				if (e.Event == "loss" || e.Event == "queue") && e.Len > 0 && e.Dir == dir && e.Sport == st.Src.Port() &&
					e.IPID-first < last-first {
					want++
				}
			}
			if st.IPIDMissing != want {
				t.Errorf("%d IPv4 IDs missing, the link dropped %d data frames", st.IPIDMissing, want)
			}
			var late int64
			for _, e := range events {
				if e.Event == "reorder" && e.Len > 0 && e.Dir == dir && e.Sport == st.Src.Port() {
					late++
				}
			}
			if late > 0 {
				reordered++
			}
			if got := st.ipidLateData; got > late || late >= 20 && 5*got < 4*late {
				t.Errorf("%d data segments behind a later IPv4 ID, the link reordered %d data frames", got, late)
			}
		})
	}
	if counted < 10 || reordered < 5 {
		t.Errorf("IDs judged a counter on %d runs, %d of them reordered; want at least 10 (the 20 bundled labelled runs are IPv4) and 5 (those with jitter)", counted, reordered)
	}
}

// idTruthLogs lists the link logs of the runs the IPv4-ID tests read:
// the shared truth and kernel runs and the bundled ones.
func idTruthLogs() []string {
	var logs []string
	for _, dir := range []string{filepath.Join(golden.SharedCaptures(), "truth"), filepath.Join(golden.SharedCaptures(), "kernel"),
		filepath.Join("..", "testdata", "truth-extra"), filepath.Join("..", "testdata", "labelled")} {
		m, _ := filepath.Glob(filepath.Join(dir, "*.truth.jsonl.gz"))
		logs = append(logs, m...)
	}
	return logs
}

// afterTheLink reads a run's link log and finds the capture after the
// link in the data's direction (the one it dropped more of): the
// receiver's, or the sender's when the server sends; its direction in
// the log ("a->b" or "b->a"). It skips the test where there is none.
func afterTheLink(t *testing.T, log string) (events []truthEvent, after, dir string) {
	t.Helper()
	base := strings.TrimSuffix(log, ".truth.jsonl.gz")
	events = readTruth(t, log)
	drops := map[string]int64{}
	for _, e := range events {
		if (e.Event == "loss" || e.Event == "queue") && e.Len > 0 {
			drops[e.Dir]++
		}
	}
	after, dir = base+".rx.pcap", "a->b"
	if drops["b->a"] > drops["a->b"] {
		after, dir = base+".tx.pcap", "b->a"
	}
	if _, err := os.Stat(after); err != nil {
		if after += ".gz"; !exists(after) {
			t.Skipf("no capture after the link (%s)", filepath.Base(after))
		}
	}
	return events, after, dir
}

// idRange is the first and the last IPv4 ID of src's packets in the
// capture at path.
func idRange(t *testing.T, path string, src netip.AddrPort) (first, last uint16) {
	t.Helper()
	r := capturetest.Reader(t, path)
	var dec reassembly.Decoder
	var seg reassembly.Segment
	seen := false
	for r.Next() {
		if ok, _ := dec.Decode(r.Packet(), &seg); !ok || seg.Src != src.Addr() || seg.SrcPort != src.Port() {
			continue
		}
		if !seen {
			first, seen = seg.IPID, true
		}
		last = seg.IPID
	}
	return first, last
}

// TestMiddleCaptureLateAfterIt: at a capture between two links, data the
// second link reorders arrives in order there, but the sender's fast
// retransmits of it pass the capture as holes filled late, as at the
// sender; they are late data, whose resends are not all drops
// (gt_mid_jitter_ackloss between its links: 11 random drops before it,
// 29 at the second link's queue and 473 data frames reordered after it;
// the later episodes' resends once passed for bursts at a full queue and
// hid the random loss, and the reordering went unnamed).
func TestMiddleCaptureLateAfterIt(t *testing.T) {
	base := filepath.Join("..", "testdata", "truth-mid", "gt_mid_jitter_ackloss")
	drops := map[string]int{}
	for _, e := range readTruth(t, base+".truth.jsonl.gz") {
		if e.Dir == "a->b" && e.Len > 0 && (e.Event == "loss" || e.Event == "queue") {
			drops["first "+e.Event]++
		}
	}
	for _, e := range readTruth(t, base+".truth2.jsonl.gz") {
		if e.Dir == "a->b" && e.Len > 0 {
			drops["second "+e.Event]++
		}
	}
	if drops["first loss"] < 3 || drops["second queue"] < 3 || drops["second reorder"] < 100 {
		t.Fatalf("the logs give %v: want random drops before the capture, queue drops and reordering after it", drops)
	}
	st := mainStats(t, base+".mid.pcap.gz")
	got := strings.Split(st.FindingKinds, ";")
	for _, want := range []string{FindRandomLoss, FindCongestionLoss, FindReordering} {
		if !slices.Contains(got, want) {
			t.Errorf("findings %q, want %s among them (logs: %v)", st.FindingKinds, want, drops)
		}
	}
}

// TestACKIDGapsAgainstTruth: at the sender-side capture, the IPv4 IDs the
// receiver used and that never arrived are exactly the frames of that
// connection the link's log dropped on the way back between its first
// and last ID seen (resets, ID 0, left out: Linux answers a socket gone
// with its own), on every run whose IDs are a counter — those whose
// ACKs the path reordered too (17-20 ms of jitter: 116 of 373 late)
// and those that end in resets, which the count once gave up on.
func TestACKIDGapsAgainstTruth(t *testing.T) {
	var logs []string
	for _, dir := range []string{filepath.Join(golden.SharedCaptures(), "truth"), filepath.Join("..", "testdata", "truth-extra"),
		filepath.Join("..", "testdata", "truth-jitter"), filepath.Join("..", "testdata", "labelled")} {
		m, _ := filepath.Glob(filepath.Join(dir, "*.truth.jsonl.gz"))
		logs = append(logs, m...)
	}
	counted, reordered, lossy := 0, 0, 0
	for _, log := range logs {
		base := strings.TrimSuffix(log, ".truth.jsonl.gz")
		tx := base + ".tx.pcap"
		if !exists(tx) {
			if tx += ".gz"; !exists(tx) {
				continue
			}
		}
		data := mainStats(t, tx)
		rcv := reverseStats(t, tx, data)
		if !rcv.HasIPIDMissing {
			continue
		}
		counted++
		first, last := idRange(t, tx, rcv.Src)
		var want, late int64
		for _, e := range readTruth(t, log) {
			switch {
			case e.Dir != "b->a" || e.Sport != rcv.Src.Port() || e.Dport != rcv.Dst.Port():
			case e.Event == "loss" || e.Event == "queue":
				if e.IPID != 0 && e.IPID-first < last-first {
					want++
				}
			case e.Event == "reorder":
				late++
			}
		}
		if late > 0 {
			reordered++
		}
		if want > 0 {
			lossy++
		}
		if rcv.IPIDMissing != want {
			t.Errorf("%s: %d of the receiver's IPv4 IDs missing, the link dropped %d of its frames on the way back", filepath.Base(base), rcv.IPIDMissing, want)
		}
	}
	t.Logf("the receiver's IDs a counter on %d runs (%d with ACKs reordered, %d with ACKs lost)", counted, reordered, lossy)
	if counted < 20 || reordered < 3 || lossy < 2 {
		t.Errorf("IDs judged a counter on %d runs, %d with ACKs reordered, %d with ACKs lost: want at least 20, 3 and 2", counted, reordered, lossy)
	}
}

// reverseStats is the statistics of the other direction of data's
// connection in the capture at path.
func reverseStats(t *testing.T, path string, data DirStats) DirStats {
	t.Helper()
	var rev DirStats
	_, err := Run(capturetest.Reader(t, path), RunOptions{Analyze: true, Keep: -1, OnConn: func(cr *ConnResult) {
		for _, st := range cr.Stats {
			if st.Stream == data.Stream && st.Dir != data.Dir {
				rev = st
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

// TestReorderedHolesAgainstTruth: at the sender's capture (before the
// link), the holes the receiver's SACK blocks and duplicate ACKs reported
// and that closed with no resend (reordered_holes) count the data frames
// the link reordered: on the runs it reordered 20 or more of, 80–110% of
// them together (each hole of the receiver's scoreboard, not only the
// first; an ACK the return path reordered still tells its holes; one
// hole that closes with several late segments counts each), and at most
// 3 on a run it reordered none of (resends the capture shows are no late
// data, however many: mx_252ms_45m_q790k_l1_nots_bbr's 3,185 resends
// once read as 35 late segments).
func TestReorderedHolesAgainstTruth(t *testing.T) {
	var late, got int64
	reordered, calm := 0, 0
	for _, log := range idTruthLogs() {
		t.Run(filepath.Base(strings.TrimSuffix(log, ".truth.jsonl.gz")), func(t *testing.T) {
			events, after, dir := afterTheLink(t, log)
			before := strings.Replace(after, ".rx.pcap", ".tx.pcap", 1)
			if dir != "a->b" || !exists(before) {
				t.Skip("the server sends, or no capture before the link")
			}
			st := mainStats(t, before)
			var n int64
			for _, e := range events {
				if e.Event == "reorder" && e.Len > 0 && e.Dir == dir && e.Sport == st.Src.Port() {
					n++
				}
			}
			switch {
			case n == 0:
				calm++
				if st.ReorderedHoles > 3 {
					t.Errorf("%d segments came late by the receiver's ACKs, the link reordered none", st.ReorderedHoles)
				}
			case n >= 20:
				reordered++
				late += n
				got += st.ReorderedHoles
				t.Logf("%d late by the receiver's ACKs, %d reordered", st.ReorderedHoles, n)
			}
		})
	}
	if reordered < 3 || calm < 20 {
		t.Fatalf("%d runs reordered 20 data frames or more, %d none; want at least 3 and 20 (the bundled labelled runs)", reordered, calm)
	}
	if 10*got < 8*late || 10*got > 11*late {
		t.Errorf("%d segments came late by the receiver's ACKs on %d reordered runs, the link reordered %d data frames: want 80-110%%", got, reordered, late)
	}
	t.Logf("%d segments late by the receiver's ACKs, %d reordered by the link (%d runs; %d runs reordered none)", got, late, reordered, calm)
}
