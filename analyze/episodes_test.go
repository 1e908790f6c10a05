package analyze

import (
	"math"
	"slices"
	"strings"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/reassembly"
)

// TestPartialUndoDecidedByTracker: the tracker itself decides, at each
// partial ACK that undoes a fast retransmit's reduction without SACK,
// whether Linux enters recovery again (its event: partial with start)
// or leaves it undone (partial, undone), and counts the episodes so: the
// statistics, which read only its counts, get the cwnd graph's episodes
// (TestPartialUndoWithoutSACK's sequence: 14 fast retransmits, the last
// undone).
func TestPartialUndoDecidedByTracker(t *testing.T) {
	var e lossEpisodes
	ack := func(ms float64, ack int64, dup bool) episodeEvent {
		return e.ack(&epAck{ack: ack, signal: dup, tsecr: 100, hasTS: true, time: int64(ms * 1e6)})
	}
	for i := range int64(20) { // a window of 20 segments
		e.data(1+i*1000, 1001+i*1000, (i+1)*1000, 0, 100, true, 0, 0)
	}
	ack(100, 1001, false)
	for i := range 5 { // five duplicate ACKs: the second segment lost
		ack(101+float64(i), 1001, true)
	}
	if e.renoDup != 5 {
		t.Fatalf("Linux's count of duplicate ACKs %d, want 5", e.renoDup)
	}
	if ev := e.data(1001, 2001, 19000, Retransmission, 200, true, 0, 0); !ev.start || !ev.fast {
		t.Fatalf("the fast retransmit: %+v", ev)
	}
	var reentered, undone int
	for k := int64(2); k <= 15; k++ {
		ev := ack(100*float64(k), k*1000+1, false)
		switch {
		case ev.partial && ev.start && ev.fast && !ev.undone:
			reentered++
		case ev.partial && !ev.start && ev.undone:
			undone++
			if k != 15 {
				t.Errorf("undone at the ACK of %d, want at 15001 (five out, as many as the duplicate ACKs counted)", k*1000+1)
			}
		default:
			t.Errorf("the partial ACK of %d: %+v, want a partial undo", k*1000+1, ev)
		}
		if k < 15 {
			e.data(k*1000+1, k*1000+1001, 0, Retransmission, uint32(100*k+100), true, 0, 0)
		}
	}
	if reentered != 13 || undone != 1 {
		t.Errorf("%d re-entries and %d undone, want 13 and 1", reentered, undone)
	}
	if e.fast != 14 || e.rto != 0 || e.undone != 1 {
		t.Errorf("episodes %d fast + %d timeout, %d undone; want 14 + 0, 1 undone (the graph's marks)", e.fast, e.rto, e.undone)
	}
	if e.inEpisode {
		t.Error("still in an episode after the undo")
	}
}

// TestTrackerSkipsLateOriginals: at a receiver-side capture an original
// the path found late (reordered on the way) is no resend, and the loss
// episodes are the drops' (gt_nots_reorder at the receiver: 8 drops in
// the link's log, a third of the segments late; the tracker counted 309
// fast-retransmit episodes when it took every segment below the highest
// as a resend), the holes the late data closed are reordered_holes.
func TestTrackerSkipsLateOriginals(t *testing.T) {
	r := capturetest.Reader(t, "../testdata/truth-extra/gt_nots_reorder.rx.pcap")
	var st *DirStats
	_, err := Run(r, RunOptions{Analyze: true, Keep: -1, OnConn: func(c *ConnResult) {
		if s := c.Stats[reassembly.C2S]; s.DataBytes > 1<<20 {
			st = &s
		}
	}})
	if err != nil || st == nil {
		t.Fatalf("no bulk connection (%v)", err)
	}
	if st.Path.Vantage != VantageReceiver || st.Path.Reordered < 100 {
		t.Fatalf("vantage %s, %d late: not the receiver-side capture with reordering this needs", st.Path.Vantage, st.Path.Reordered)
	}
	if eps := st.LossEpisodesFast + st.LossEpisodesRTO; eps == 0 || eps > 8 {
		t.Errorf("%d loss episodes (%d fast, %d timeouts) for 8 drops", eps, st.LossEpisodesFast, st.LossEpisodesRTO)
	}
	if st.ReorderedHoles < 100 {
		t.Errorf("%d holes closed by late data, want the reordering's", st.ReorderedHoles)
	}
}

// TestEpisodeSettledAfterIdleRestart: an episode's ssthresh is the flight
// of the first burst after it — unless the sender sent nothing for more
// than an RTO after it, everything acknowledged: Linux restarted its
// window then (tcp_cwnd_restart: ssthresh halved once per RTO idle, at
// least the initial window), so that burst measures the restart, not the
// reduction: no β, no vote, and the ssthresh event says so (idle). Sent
// within the RTO the burst measures it (ku_cubic_app2m, an application
// sending 2 Mbit/s in bursts: a recovery from 92 segments measured 32
// after 0.4 s idle voted Reno's half and the line in recovery took
// Reno's PRR).
func TestEpisodeSettledAfterIdleRestart(t *testing.T) {
	const ms = int64(1e6)
	run := func(idle int64) (*lossEpisodes, episodeEvent) {
		var e lossEpisodes
		for i := range int64(20) { // a window of 20 segments, RTT 100 ms
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 10*ms, 0)
		}
		e.ack(&epAck{ack: 1000, rtt: 100 * ms, time: 110 * ms})
		e.ack(&epAck{ack: 1000, signal: true, above: true, sack: true, time: 111 * ms})
		e.data(1000, 2000, 19000, Retransmission, 0, false, 112*ms, 0)
		e.ack(&epAck{ack: 20000, time: 212 * ms}) // recovery ends, nothing outstanding
		t0 := 112*ms + idle
		for i := range int64(14) { // the first burst after it: 14 segments
			e.data(20000+i*1000, 21000+i*1000, (i+1)*1000, 0, 0, false, t0, 0)
		}
		return &e, e.ack(&epAck{ack: 21000, time: t0 + 100*ms})
	}
	e, ev := run(150 * ms)
	if !ev.settled || ev.idle || ev.ssthresh != 14000 || len(e.reductions) != 1 {
		t.Errorf("sent 150 ms after the last send (RTO 300 ms): %+v, reductions %v; want 14000 measured, one reduction", ev, e.reductions)
	}
	e, ev = run(400 * ms)
	if !ev.settled || !ev.idle || len(e.reductions) != 0 || len(e.betas) != 0 {
		t.Errorf("sent 400 ms after the last send: %+v, reductions %v; want idle, no reduction", ev, e.reductions)
	}
}

// TestEpisodeEndsAtProvenRecoveryPoint: at a receiver-side capture, a
// queue that dropped the top of the window (segments 8 and 9 of ten) and
// one below it (4) shows less data than the sender had sent when it
// resent 4; the first new data after that resend (10), with the IPv4 ID
// right after the resend's, proves the sender's recovery point at 10, and
// the ACK of 8 with 10 SACKed is recovery going on, not a second episode.
// With a packet missing between the two IDs (the new data at the point
// may be lost too) the point is not proven, and the episode ends at 8 and
// begins again, as before.
func TestEpisodeEndsAtProvenRecoveryPoint(t *testing.T) {
	for _, tt := range []struct {
		newID uint16
		want  int64
	}{{12, 1}, {13, 2}} {
		var e lossEpisodes
		for i := int64(0); i < 8; i++ {
			if i != 4 {
				e.data(i*1000, i*1000+1000, -1, 0, 0, false, 0, uint16(i+1))
			}
		}
		e.ack(&epAck{ack: 4000})
		for range 3 {
			e.ack(&epAck{ack: 4000, signal: true, above: true, sack: true})
		}
		e.data(4000, 5000, -1, Retransmission, 0, false, 0, 11)
		e.data(10000, 11000, -1, 0, 0, false, 0, tt.newID)
		e.ack(&epAck{ack: 8000, signal: true, above: true, sack: true})
		e.data(8000, 9000, -1, Retransmission, 0, false, 0, tt.newID+1)
		e.data(9000, 10000, -1, Retransmission, 0, false, 0, tt.newID+2)
		e.ack(&epAck{ack: 11000})
		if e.fast != tt.want || e.rto != 0 {
			t.Errorf("new data with IPv4 ID %d after the resend's 11: %d fast + %d timeout episodes, want %d fast", tt.newID, e.fast, e.rto, tt.want)
		}
	}
}

// drainedEpisode is a tracker after a fast retransmit of the first of ten
// segments (SACK on) whose ending ACK covered all ten: nothing left
// outstanding.
func drainedEpisode() *lossEpisodes { return drainedEpisodeAfter(0, 0) }

// drainedEpisodeAfter is drainedEpisode after n episodes that cut the
// window before it, under a receiver's window of win bytes (0 none).
func drainedEpisodeAfter(n, win int64) *lossEpisodes {
	e := &lossEpisodes{fast: n, cuts: n}
	if win > 0 {
		e.ack(&epAck{ack: 0, win: win})
	}
	for i := int64(0); i < 10; i++ {
		e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 0, 0)
	}
	for range 3 {
		e.ack(&epAck{ack: 0, signal: true, above: true, sack: true, time: 1})
	}
	e.data(0, 1000, 10000, Retransmission, 0, false, 0, 0)
	e.ack(&epAck{ack: 10000, time: 2})
	return e
}

// TestSettleAfterDrainedEnd: an episode whose ending ACK left nothing
// outstanding (a receive window held the sender through recovery) is
// measured until the first segment sent after it is acknowledged, as
// Linux paces the window out again from nothing; its first burst (two
// segments, then a window update) is not its ssthresh (kx_reno_rwnd: 2
// segments measured, 41 set by the kernel).
func TestSettleAfterDrainedEnd(t *testing.T) {
	e := drainedEpisode()
	var got []int64
	step := func(ev episodeEvent) {
		if ev.settled {
			got = append(got, ev.ssthresh)
		}
	}
	e.data(10000, 11000, 1000, 0, 0, false, 3, 0)
	e.data(11000, 12000, 2000, 0, 0, false, 3, 0)
	step(e.ack(&epAck{ack: 10000, time: 4})) // a window update: the first burst's end
	for i := int64(12); i < 15; i++ {
		e.data(i*1000, i*1000+1000, (i-9)*1000, 0, 0, false, 5, 0)
	}
	step(e.ack(&epAck{ack: 11000, time: 6}))
	if len(got) != 1 || got[0] != 5000 {
		t.Errorf("ssthresh measured %v, want [5000]: the flight until the first segment after the end is acknowledged", got)
	}
}

// TestSettleAfterPacedEnd: where the sender paces the window out after
// an episode (sends 10 ms apart with no ACK to clock them: Linux's
// pacing, a window per smoothed round trip), the first ACK after the end
// comes before the flight reached ssthresh: it is measured until the
// first segment sent after the end is acknowledged, as after a drained
// end (k32_cubic_rwnd96_l05, a 400 ms path: two segments every 14 ms
// after its recoveries, 42 and 19 segments in flight at the first ACK
// for the kernel's 47 and 39). Sends that ACKs clock (none 1 ms or more
// after the last with no ACK between: 0.9 ms apart, or none) are measured
// at the first ACK as before.
func TestSettleAfterPacedEnd(t *testing.T) {
	const ms = int64(1e6)
	for _, tt := range []struct {
		gap  int64 // between sends after the end
		want int64
	}{{10 * ms, 12000}, {ms, 12000}, {ms * 9 / 10, 9000}, {0, 9000}} {
		e := &lossEpisodes{}
		for i := int64(0); i < 20; i++ {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, ms, 0)
		}
		for k := range int64(3) {
			e.ack(&epAck{ack: 0, signal: true, above: true, sack: true, time: 100*ms + k})
		}
		e.data(0, 1000, 20000, Retransmission, 0, false, 101*ms, 0)
		for i := int64(20); i < 25; i++ { // new data in recovery
			e.data(i*1000, i*1000+1000, 20000, 0, 0, false, 102*ms, 0)
		}
		e.ack(&epAck{ack: 20000, sack: true, time: 200 * ms}) // the end: five segments outstanding
		var got []int64
		step := func(ev episodeEvent) {
			if ev.settled {
				got = append(got, ev.ssthresh)
			}
		}
		send := func(k int64, flight int64) {
			e.data(25000+k*1000, 26000+k*1000, flight, 0, 0, false, 200*ms+k*tt.gap+1, 0)
		}
		for k := range int64(4) {
			send(k, (6+k)*1000)
		}
		step(e.ack(&epAck{ack: 21000, sack: true, time: 245 * ms})) // sent in recovery
		for k := int64(4); k < 8; k++ {
			send(k, (5+k)*1000)
		}
		for a := int64(22000); a <= 26000; a += 1000 {
			step(e.ack(&epAck{ack: a, sack: true, time: 300*ms + a}))
		}
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("sends %d ms apart after the end: ssthresh measured %v, want [%d]", tt.gap/ms, got, tt.want)
		}
	}
}

// TestRecoveryAtOnceAfterTimeoutHold: without SACK, a timeout's loss
// state that ended at an ACK of exactly its end holds (RFC 6582) until an
// ACK above it; three duplicate ACKs in the hold mark the next segment
// lost, and Linux enters recovery at once as it leaves the hold: the
// resend that follows is a fast retransmit, not a second timeout
// (kx_cubic_nosack_l1: 13 recoveries and 4 timeouts drawn for the
// kernel's 15 and 2, cwnd 85.9% of probes). With two duplicate ACKs it
// is the timer's.
func TestRecoveryAtOnceAfterTimeoutHold(t *testing.T) {
	for _, dups := range []int{3, 2} {
		var e lossEpisodes
		for i := int64(0); i < 10; i++ {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 0, 0)
		}
		if ev := e.data(0, 1000, 10000, Retransmission, 0, false, 0, 0); !ev.start || ev.fast {
			t.Fatalf("the first resend, no duplicate ACK: %+v, want a timeout", ev)
		}
		for i := int64(1); i < 10; i++ {
			e.data(i*1000, i*1000+1000, 10000, Retransmission, 0, false, 0, 0)
		}
		e.ack(&epAck{ack: 10000})
		for i := int64(10); i < 15; i++ {
			e.data(i*1000, i*1000+1000, (i-9)*1000, 0, 0, false, 0, 0)
		}
		for range dups {
			e.ack(&epAck{ack: 10000, signal: true})
		}
		e.ack(&epAck{ack: 11000})
		ev := e.data(11000, 12000, 4000, Retransmission, 0, false, 0, 0)
		if want := dups >= 3; !ev.start || ev.fast != want {
			t.Errorf("%d duplicate ACKs in the hold: start %v fast %v, want a start, fast %v", dups, ev.start, ev.fast, want)
		}
	}
}

// TestTimeoutAfterSilentPartialAck: without SACK, a recovery's first
// resend of the new head after a partial ACK, when nothing was sent for
// a timeout since that ACK, is the timer's: Linux's loss state
// (kx_reno_nosack_q: 292 ms of silence on an 80 ms path, a timeout the
// graph missed). Sent at once after the ACK, it is NewReno's. Duplicate
// ACKs after the partial ACK do not restart Linux's timer: the silence
// runs from the ACK that moved, near the sender (kc_36ms_1m_q4k_nosack:
// the head resent 244 ms after the partial ACK, 232 ms after a duplicate
// that followed it; the kernel entered its loss state there); where the
// vantage is unknown only a silence since the last ACK tells.
func TestTimeoutAfterSilentPartialAck(t *testing.T) {
	const ms = int64(1e6)
	for _, tt := range []struct {
		after   int64
		dups    int64 // duplicate ACKs 10 ms apart after the partial ACK
		path    int64 // the handshake's RTT (0: unknown)
		timeout bool
	}{
		{rtoOf(80*ms) + ms, 0, 0, true}, {10 * ms, 0, 0, false},
		{rtoOf(80*ms) + ms, 3, 80 * ms, true}, {30*ms + ms/2, 3, 80 * ms, false},
		{rtoOf(80*ms) + ms, 3, 0, false},
	} {
		var e lossEpisodes
		e.pathRTT, e.minRTT = tt.path, tt.path // near the sender where known
		for i := int64(0); i < 10; i++ {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, i*ms, 0)
		}
		e.ack(&epAck{ack: 0, time: 100 * ms, rtt: 80 * ms})
		for k := int64(1); k <= 3; k++ {
			e.ack(&epAck{ack: 0, signal: true, time: 100*ms + k*ms, rtt: 80 * ms})
		}
		if ev := e.data(0, 1000, 10000, Retransmission, 0, false, 104*ms, 0); !ev.start || !ev.fast {
			t.Fatalf("fast retransmit: %+v", ev)
		}
		e.ack(&epAck{ack: 1000, time: 190 * ms, rtt: 80 * ms}) // partial: 1000 to 10000 outstanding
		for k := int64(1); k <= tt.dups; k++ {
			e.ack(&epAck{ack: 1000, signal: true, time: 190*ms + 10*k*ms, rtt: 80 * ms})
		}
		ev := e.data(1000, 2000, 9000, Retransmission, 0, false, 190*ms+tt.after, 0)
		if got := ev.start && !ev.fast; got != tt.timeout {
			t.Errorf("the head resent %d ms after a partial ACK and %d duplicates (path RTT %d ms): %+v, want a timeout %v", tt.after/ms, tt.dups, tt.path/ms, ev, tt.timeout)
		}
	}
}

// TestDrainedEndShowsNoReductionNoVote: an episode that ended with
// nothing outstanding (the receive window held the sender) and whose
// window after it is the flight before it gives no β: the flight at the
// loss was the receiver's window, not cwnd, which Linux halved out of
// sight (kx_reno_rwnd: cwnd 82 segments, 41 in flight, ssthresh 41 — a
// "no reduction" vote, and the next recovery drawn without PRR). One that
// shows a reduction still counts.
func TestDrainedEndShowsNoReductionNoVote(t *testing.T) {
	for _, tt := range []struct {
		after int64 // segments in flight before the first after the end is acknowledged
		betas int
	}{{10, 0}, {5, 1}} {
		e := drainedEpisode()
		for i := int64(0); i < tt.after; i++ {
			e.data(10000+i*1000, 11000+i*1000, (i+1)*1000, 0, 0, false, 3, 0)
		}
		e.ack(&epAck{ack: 11000, time: 4})
		if len(e.betas) != tt.betas {
			t.Errorf("%d segments after a drained end (10 before the loss): β %v, want %d of them", tt.after, e.betas, tt.betas)
		}
	}
}

// TestKeptWindowCounted: a drained end whose flight came back within
// 10% of the window before, at the third cut of the window or later, the
// flight at the receiver's window when the loss came, counts as a window
// kept late (lossEpisodes.keptLate); one that shows a reduction does not,
// nor one at the second cut (CUBIC's second may keep it), nor one whose
// flight the receiver's window did not hold (an application's), and a
// D-SACK proving the episode spurious takes it back (Linux restored the
// window: it tells nothing of the algorithm).
func TestKeptWindowCounted(t *testing.T) {
	for _, tt := range []struct {
		before int64 // cuts before it
		win    int64 // the receiver's window (0 none seen)
		after  int64 // segments in flight before the first after the end is acknowledged
		dsack  bool  // a D-SACK of the resend after the episode settled
		kept   int
	}{
		{2, 10000, 10, false, 1}, {2, 10000, 9, false, 1}, {2, 10000, 8, false, 0}, {2, 10000, 10, true, 0},
		{1, 10000, 10, false, 0}, {5, 10000, 10, false, 1}, {2, 0, 10, false, 0}, {2, 40000, 10, false, 0},
	} {
		e := drainedEpisodeAfter(tt.before, tt.win)
		for i := int64(0); i < tt.after; i++ {
			e.data(10000+i*1000, 11000+i*1000, (i+1)*1000, 0, 0, false, 3, 0)
		}
		e.ack(&epAck{ack: 11000, time: 4})
		if tt.dsack {
			e.ack(&epAck{ack: 12000, time: 5, hasDSACK: true, dsack: [2]int64{0, 1000}})
		}
		if e.keptLate != tt.kept {
			t.Errorf("after %d cuts, a %d-byte window, %d segments after a drained end (10 before the loss), D-SACK %v: %d kept late, want %d", tt.before, tt.win, tt.after, tt.dsack, e.keptLate, tt.kept)
		}
	}
}

// TestCutsLeaveOutWhatKeepsSsthresh: a timeout inside recovery keeps
// Linux's ssthresh (tcp_enter_loss cuts it only from open or disorder,
// or once recovery's window is over), and an episode proven spurious is
// undone: neither counts as a cut (lossEpisodes.cuts), which keptLate's
// bound counts.
func TestCutsLeaveOutWhatKeepsSsthresh(t *testing.T) {
	e := drainedEpisodeAfter(0, 10000) // one recovery: one cut
	if e.cuts != 1 || e.epIndex != 1 {
		t.Fatalf("a fast retransmit: %d cuts, index %d, want 1 and 1", e.cuts, e.epIndex)
	}
	e2 := &lossEpisodes{}
	for i := int64(0); i < 10; i++ {
		e2.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 0, 0)
	}
	for range 3 {
		e2.ack(&epAck{ack: 0, signal: true, above: true, sack: true, time: 1})
	}
	e2.data(0, 1000, 10000, Retransmission, 0, false, 0, 0)   // recovery: cut 1
	e2.data(0, 1000, 10000, Retransmission, 0, false, 2e9, 0) // the head again, no ACK since: a timeout in recovery
	if e2.fast != 1 || e2.rto != 1 || e2.cuts != 1 {
		t.Errorf("a timeout inside recovery: %d fast + %d timeout episodes, %d cuts; want 1 + 1 and 1 cut", e2.fast, e2.rto, e2.cuts)
	}
	e3 := drainedEpisodeAfter(0, 10000)
	e3.ack(&epAck{ack: 10000, time: 3, hasDSACK: true, dsack: [2]int64{0, 1000}})
	if e3.cuts != 0 {
		t.Errorf("a recovery proven spurious: %d cuts, want 0", e3.cuts)
	}
}

// TestKeptWindowsNameBBR: a window kept through a loss under the
// receiver's window at the third episode or later is past what Linux's
// Reno (the first) or CUBIC (the second) keep: BBR, where the
// reductions leave the algorithm unknown or name Reno or CUBIC from one
// measurement (k34_bbr_rwnd80_60ms: one cut, 70 to 45 segments, read as
// CUBIC's); two reductions or more still name it.
func TestKeptWindowsNameBBR(t *testing.T) {
	for _, tt := range []struct {
		kept  int
		votes [3]int
		want  string
	}{
		{0, [3]int{}, "unknown"},
		{1, [3]int{}, "bbr"},
		{1, [3]int{VoteReno: 1, VoteNone: 1}, "bbr"}, // k32_bbr_rwnd96_l1: no majority
		{1, [3]int{VoteCubic: 1}, "bbr"},
		{0, [3]int{VoteCubic: 1}, "cubic"},
		{1, [3]int{VoteCubic: 2}, "cubic"},
	} {
		st := DirStats{DataPackets: 100, LossEpisodesFast: 5, keptLate: tt.kept, ReductionVotes: tt.votes, Path: PathStats{Vantage: VantageSender}}
		if n := tt.votes[VoteReno] + tt.votes[VoteCubic] + tt.votes[VoteNone]; n > 0 {
			st.HasBeta, st.BetaEpisodes, st.BetaMedian = true, n, 0.74
		}
		if tt.votes[VoteCubic] > 0 {
			st.BetaMedian = 0.7
		}
		if cc, why := congestionControl(&st); cc != tt.want {
			t.Errorf("%d windows kept late, votes %v: %s (%s), want %s", tt.kept, tt.votes, cc, why, tt.want)
		}
	}
}

// TestSilentRecoveryAtFirstReordering: before any reordering was seen,
// an ACK SACKing three segments above a hole is where Linux's RACK, its
// reordering window still 0, enters recovery; where the hole then closes
// with nothing resent, Linux undid it at once, and the tracker counts a
// fast retransmit's episode, undone, that no resend shows
// (k11_cubic_jitter3_l05, kx_reno_jitter6_l1: 13 kernel recoveries, 12
// before this). Two segments SACKed, reordering seen before, or a resend
// of the hole (an episode of its own) count none.
func TestSilentRecoveryAtFirstReordering(t *testing.T) {
	for _, tt := range []struct {
		name        string
		sacked      int64 // segments SACKed above the hole
		seenBefore  bool  // a hole closed late once already
		resend      bool  // the hole resent before it closed
		fast, undne int64
	}{
		{"three SACKed, hole closes late", 3, false, false, 1, 1},
		{"two SACKed", 2, false, false, 0, 0},
		{"reordering seen before", 3, true, false, 0, 0},
		{"hole resent", 3, false, true, 1, 0},
	} {
		var e lossEpisodes
		ack := func(ms float64, ack int64, blocks ...[2]int64) episodeEvent {
			a := epAck{ack: ack, signal: len(blocks) > 0, sack: true, time: int64(ms * 1e6)}
			for i, b := range blocks {
				a.blocks[i], a.nBlocks, a.above = b, i+1, true
			}
			return e.ack(&a)
		}
		for i := range int64(20) {
			e.data(1+i*1000, 1001+i*1000, (i+1)*1000, 0, 0, false, int64(i+1)*1e6, 0)
		}
		ack(100, 1001)
		if tt.seenBefore { // the second segment one ACK late
			ack(101, 1001, [2]int64{2001, 3001})
			ack(102, 3001)
		}
		h := e.cumAck // the hole: one segment at the cumulative ACK
		var entered bool
		for k := int64(1); k <= tt.sacked; k++ {
			entered = ack(110+float64(k), h, [2]int64{h + 1000, h + 1000 + k*1000}).silentEnter || entered
		}
		if entered != (tt.sacked >= 3 && !tt.seenBefore) {
			t.Errorf("%s: Linux's silent entry %v", tt.name, entered)
		}
		if tt.resend {
			e.data(h, h+1000, 19000, Retransmission, 0, false, 120e6, 0)
		}
		ev := ack(130, h+1000+tt.sacked*1000)
		if ev.silentUndo != (tt.fast == 1 && !tt.resend) {
			t.Errorf("%s: the closing ACK's silentUndo %v", tt.name, ev.silentUndo)
		}
		if e.fast != tt.fast || e.undone != tt.undne {
			t.Errorf("%s: %d fast, %d undone; want %d, %d", tt.name, e.fast, e.undone, tt.fast, tt.undne)
		}
	}
}

// TestBBRNeedsTwoEpisodes: one loss episode that kept the window does not
// name BBR (a reduction Linux undid unseen keeps it too: Reno under 4–5 ms
// of jitter, one episode, was named BBR); two do, by vote or by the
// median reduction.
func TestBBRNeedsTwoEpisodes(t *testing.T) {
	for _, tt := range []struct {
		votes [3]int
		betas int64
		want  string
	}{
		{[3]int{VoteNone: 1}, 1, "unknown"},
		{[3]int{VoteNone: 2}, 2, "bbr"},
		{[3]int{}, 1, "unknown"}, // no vote: the median decides
		{[3]int{}, 2, "bbr"},
		{[3]int{VoteReno: 1}, 1, "reno"},
	} {
		st := DirStats{DataPackets: 100, LossEpisodesFast: tt.betas, HasBeta: true, BetaMedian: 1, BetaEpisodes: int(tt.betas),
			ReductionVotes: tt.votes, Path: PathStats{Vantage: VantageSender}}
		if tt.votes[VoteReno] > 0 {
			st.BetaMedian = 0.5
		}
		if cc, why := congestionControl(&st); cc != tt.want {
			t.Errorf("votes %v over %d episodes: %s (%s), want %s", tt.votes, tt.betas, cc, why, tt.want)
		}
	}
}

// TestSilentRecoveryByRACKTime: with reordering seen, RACK deems a hole
// lost when data sent more than a quarter of the least RTT after it is
// SACKed (k13_cubic_jitter5_l05: a hole sent 35 ms before the data SACKed
// above it, on an 89 ms path: Linux entered recovery and undid it when the
// hole closed late); sent 10 ms before, or SACKed by an ACK that also
// moved the cumulative ACK (RACK then times the hole by the late segment
// that ACK covered: k13_reno_jitter3_l06), it is not. A D-SACK widens the
// window by a quarter RTT (tcp_rack_update_reo_wnd).
func TestSilentRecoveryByRACKTime(t *testing.T) {
	for _, tt := range []struct {
		name    string
		gapMs   int64 // the hole sent this long before the data after it
		advance bool  // the SACKing ACK also moves the cumulative ACK
		dsack   bool  // a D-SACK of a spurious resend came before
		path    int64 // the handshake's round trip, ns (0: unknown)
		want    bool
	}{
		{"35 ms", 35, false, false, 0, true},
		{"10 ms", 10, false, false, 0, false},
		// The data after the hole sent 21 and 22 ms after it (the gap and
		// the 7 ms of segments before the SACKed one) against a 20 ms
		// window: within the marks' millisecond (rackSlack) it does not
		// tell (k31_cubic_j4_l03: 14.0 ms against 13.7, a recovery the
		// kernel never entered); beyond it, it does.
		{"14 ms", 14, false, false, 0, false},
		{"15 ms", 15, false, false, 0, true},
		{"35 ms, cumulative ACK moved", 35, true, false, 0, false},
		{"30 ms", 30, false, false, 0, true},
		{"30 ms, window widened by a D-SACK", 30, false, true, 0, false},
		// Between two links the least RTT is the trip beyond the capture:
		// the whole path's (from the handshake) sets the window.
		{"35 ms, 80 of a 200 ms path beyond the capture", 35, false, false, 200e6, false},
		{"35 ms, a 100 ms handshake (less than twice the least RTT)", 35, false, false, 100e6, true},
		// An original that arrived late: the capture is no sender's, its
		// times no sends.
		{"35 ms, an original seen late", 35, false, false, -1, false},
	} {
		var e lossEpisodes
		e.pathRTT = max(tt.path, 0)
		if tt.path < 0 {
			e.lateOriginal()
		}
		ack := func(ms float64, ack int64, blocks ...[2]int64) episodeEvent {
			a := epAck{ack: ack, signal: len(blocks) > 0, sack: true, time: int64(ms * 1e6)}
			for i, b := range blocks {
				a.blocks[i], a.nBlocks, a.above = b, i+1, true
			}
			if tt.dsack && ms == 90 {
				a.dsack, a.hasDSACK = blocks[0], true
			}
			return e.ack(&a)
		}
		send := func(i, ms int64) { e.data(1+i*1000, 1001+i*1000, 1000, 0, 0, false, ms*1e6, 0) }
		for i := range int64(5) {
			send(i, 1+i) // the tracker times an 80 ms round trip from these
		}
		ack(81, 1001)
		ack(82, 1001, [2]int64{2001, 3001}) // reordering seen: the hole closes late
		ack(83, 3001)
		if tt.dsack {
			e.data(1001, 2001, 1000, Retransmission, 0, false, 85e6, 0) // resent in vain
			ack(90, 3001, [2]int64{1001, 2001})                         // and reported twice
		}
		send(5, 100) // the hole
		for i := int64(6); i < 10; i++ {
			send(i, 100+tt.gapMs+i)
		}
		if tt.advance {
			ack(150, 4001) // segment 4 acknowledged by the next ACK too
		} else {
			ack(150, 5001)
		}
		got := ack(200, 5001, [2]int64{6001, 8001}).silentEnter
		if got != tt.want {
			t.Errorf("%s: RACK's entry %v, want %v", tt.name, got, tt.want)
		}
		if e.minRTT != 80e6 {
			t.Errorf("%s: least RTT timed %d ns, want 80 ms", tt.name, e.minRTT)
		}
		// The same ACK again SACKs nothing new: RACK does not look again
		// (it had refused, or entered already).
		if ev := ack(201, 5001, [2]int64{6001, 8001}); ev.silentEnter {
			t.Errorf("%s: entered again at an ACK that SACKed nothing new", tt.name)
		}
	}
}

// TestReoWindowWearsDown: a D-SACK of a resend, reordering seen, widens
// RACK's window a quarter RTT for 16 recoveries not undone; the
// sixteenth brings it back to one step (tcp_try_undo_recovery's
// reo_wnd_persist). A D-SACK before any reordering widens nothing.
func TestReoWindowWearsDown(t *testing.T) {
	var e lossEpisodes
	e.reoWindow(&epAck{hasDSACK: true, time: 1e9})
	if e.reoSteps > 1 {
		t.Fatalf("widened to %d steps before any reordering was seen", e.reoSteps)
	}
	e.reordSeen, e.rtxN, e.minRTT = true, 1, 80e6
	e.reoWindow(&epAck{hasDSACK: true, time: 2e9})
	if e.reoSteps != 2 || e.reoPersist != 16 {
		t.Fatalf("steps %d, persist %d after a D-SACK; want 2, 16", e.reoSteps, e.reoPersist)
	}
	for i := range int64(16) {
		if e.reoSteps != 2 {
			t.Fatalf("one step again after %d recoveries, want 16", i)
		}
		e.inEpisode, e.episodeEnd, e.epUndone = true, 1000*(i+1), false
		e.ack(&epAck{ack: 1000 * (i + 1), time: 3e9 + i*1e8})
	}
	if e.reoSteps != 1 {
		t.Errorf("%d steps after 16 recoveries, want 1", e.reoSteps)
	}
}

// TestSilentRecoveryCountsSegments: at a receiver-side capture of an
// iperf3 control connection, a 1-byte message arrived before the 308
// bytes sent ahead of it (a late original: no data to the tracker, whose
// largest segment stayed 1 byte); the 309 bytes SACKed above the hole are
// two segments, not the three RACK's zero window needs before any
// reordering was seen (gt_j5_loss1_20m drew a recovery there).
func TestSilentRecoveryCountsSegments(t *testing.T) {
	var e lossEpisodes
	e.data(1, 2, 1, 0, 0, false, 1e6, 0)
	e.ack(&epAck{ack: 2, time: 50e6})
	// [2, 10) is the hole, not arrived yet.
	e.data(318, 319, 1, 0, 0, false, 61e6, 0) // a byte, first to arrive
	e.lateOriginal()                          // [10, 318) after it
	ev := e.ack(&epAck{ack: 2, signal: true, sack: true, above: true, blocks: [4][2]int64{{10, 319}}, nBlocks: 1, time: 62e6})
	if ev.silentEnter {
		t.Error("309 bytes of two segments SACKed taken for three")
	}
}

// TestTimeoutAgainInLossState: without SACK, a timeout's go-back-N
// resends the outstanding segments; where the ACKs move up to one of them
// and stop, duplicate ACKs resend nothing in Linux's loss state, and the
// timer fires again: that resend of the head, a timeout's silence after
// the ACK last moved, is a second timeout (k15_reno_nosack_l06: the kernel
// entered loss twice, 576 ms apart). Sooner after the ACK moved it is
// go-back-N's own send, no new episode. New data sent on the duplicate
// ACKs changes nothing (kc_70ms_3m_q9k_nosack_reno: 16 new segments, one
// on each, the head resent 302 ms after the ACK moved and 3 ms after the
// last of them; the kernel entered loss again there) near the sender;
// where the vantage is unknown it takes a silence.
func TestTimeoutAgainInLossState(t *testing.T) {
	const ms = int64(1e6)
	for _, tt := range []struct {
		after   int64
		sendNew bool  // a new segment sent at each duplicate ACK
		path    int64 // the handshake's RTT (0: unknown)
		timeout bool
	}{
		{rtoOf(80*ms) + ms, false, 0, true}, {30 * ms, false, 0, false},
		{rtoOf(80*ms) + ms, true, 80 * ms, true}, {30 * ms, true, 80 * ms, false},
		{rtoOf(80*ms) + ms, true, 0, false},
	} {
		var e lossEpisodes
		e.pathRTT, e.minRTT = tt.path, tt.path // near the sender where known
		for i := int64(0); i < 10; i++ {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, i*ms, 0)
		}
		e.ack(&epAck{ack: 0, time: 100 * ms, rtt: 80 * ms})
		// Nothing comes back: the timer resends the head, and the ACK
		// that follows lets go-back-N resend the rest.
		if ev := e.data(0, 1000, 10000, Retransmission, 0, false, 400*ms, 0); !ev.start || ev.fast {
			t.Fatalf("the first timeout: %+v", ev)
		}
		e.ack(&epAck{ack: 1000, time: 480 * ms, rtt: 80 * ms})
		for i := int64(1); i < 4; i++ {
			if ev := e.data(i*1000, i*1000+1000, 9000, Retransmission, 0, false, 480*ms+i*ms/10, 0); ev.start {
				t.Fatalf("go-back-N's resend of %d taken for an episode: %+v", i*1000, ev)
			}
		}
		// [2000, 3000) was lost again: the ACKs stop at it.
		e.ack(&epAck{ack: 2000, time: 560 * ms, rtt: 80 * ms})
		for k := int64(1); k <= 3; k++ {
			e.ack(&epAck{ack: 2000, signal: true, time: 560*ms + k*ms, rtt: 80 * ms})
			if tt.sendNew {
				seq := 9000 + k*1000
				if ev := e.data(seq, seq+1000, 8000, 0, 0, false, 560*ms+k*ms+ms/10, 0); ev.start {
					t.Fatalf("new data at a duplicate ACK taken for an episode: %+v", ev)
				}
			}
		}
		ev := e.data(2000, 3000, 8000, Retransmission, 0, false, 560*ms+tt.after, 0)
		if got := ev.start && !ev.fast; got != tt.timeout {
			t.Errorf("the head go-back-N resent, resent again %d ms after the ACK moved to it (new data sent on the duplicates %v, path RTT %d ms): %+v, want a timeout %v", tt.after/ms, tt.sendNew, tt.path/ms, ev, tt.timeout)
		}
	}
}

// TestResendSoonAfterNewAckIsNotTheTimer: an ACK that moves the
// cumulative ACK restarts the retransmission timer, so a resend that
// follows it at once is Linux's recovery, whatever the duplicate ACKs
// Wireshark counted (k16_cubic_nosack_l15_100ms: one, leaving a timeout's
// loss state); near the sender, within half the least RTO too
// (k16_reno_nosack_jitter3_l1: an ACK the path reordered made Linux's
// third duplicate ACK Wireshark's second). A resend long after the ACK,
// or away from the sender (no handshake RTT to tell), stays the timer's.
func TestResendSoonAfterNewAckIsNotTheTimer(t *testing.T) {
	const ms = int64(1e6)
	for _, tt := range []struct {
		name    string
		pathRTT int64
		after   int64
		dups    int
		fast    bool
	}{
		{"at once", 0, ms / 10, 1, true},
		{"15 ms, near the sender", 80 * ms, 15 * ms, 2, true},
		{"15 ms, the vantage unknown", 0, 15 * ms, 2, false},
		{"15 ms, away from the sender", 300 * ms, 15 * ms, 2, false},
		{"the timer", 80 * ms, rtoOf(80*ms) + ms, 0, false},
	} {
		var e lossEpisodes
		e.pathRTT = tt.pathRTT
		for i := int64(0); i < 20; i++ {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, i*ms, 0)
		}
		e.ack(&epAck{ack: 1000, time: 81 * ms, rtt: 80 * ms}) // [0, 1000) sent at 0: an 81 ms RTT
		e.ack(&epAck{ack: 5000, time: 100 * ms, rtt: 80 * ms})
		for k := 1; k <= tt.dups; k++ {
			e.ack(&epAck{ack: 5000, signal: true, time: 100*ms + int64(k)*ms/100, rtt: 80 * ms})
		}
		ev := e.data(5000, 6000, 15000, Retransmission, 0, false, 100*ms+tt.after, 0)
		if !ev.start || ev.fast != tt.fast {
			t.Errorf("%s: the head resent %.1f ms after the ACK moved, %d duplicate ACKs: %+v, want an episode, fast %v", tt.name, float64(tt.after)/float64(ms), tt.dups, ev, tt.fast)
		}
	}
}

// TestNoSettleInRenoHold: without SACK, a recovery whose end is
// acknowledged exactly holds (RFC 6582): Linux stays in recovery, its
// window PRR's, until an ACK above the end, where it sets cwnd to
// ssthresh (tcp_end_cwnd_reduction). The flight sent in the hold
// measures nothing; the flight after it measures ssthresh
// (k16_cubic_rwnd32_nosack_l1: 12 segments in the hold, ssthresh 10).
func TestNoSettleInRenoHold(t *testing.T) {
	const ms = int64(1e6)
	var e lossEpisodes
	for i := int64(0); i < 10; i++ {
		e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, i*ms, 0)
	}
	e.ack(&epAck{ack: 1000, time: 50 * ms})
	for k := int64(1); k <= 3; k++ {
		e.ack(&epAck{ack: 1000, signal: true, time: 50*ms + k*ms})
	}
	if ev := e.data(1000, 2000, 9000, Retransmission, 0, false, 54*ms, 0); !ev.start || !ev.fast {
		t.Fatalf("fast retransmit: %+v", ev)
	}
	var got []int64
	step := func(ev episodeEvent) {
		if ev.settled {
			got = append(got, ev.ssthresh)
		}
	}
	step(e.data(10000, 11000, 9000, 0, 0, false, 60*ms, 0)) // new data in recovery
	step(e.data(11000, 12000, 10000, 0, 0, false, 61*ms, 0))
	step(e.ack(&epAck{ack: 10000, time: 140 * ms})) // exactly the episode's end: the hold
	for i := int64(12); i < 17; i++ {
		step(e.data(i*1000, i*1000+1000, (i-7)*1000, 0, 0, false, 141*ms, 0)) // up to 7 segments held in recovery
	}
	step(e.ack(&epAck{ack: 13000, time: 150 * ms})) // above the end: recovery over
	step(e.data(17000, 18000, 5000, 0, 0, false, 150*ms, 0))
	step(e.data(18000, 19000, 6000, 0, 0, false, 151*ms, 0))
	step(e.ack(&epAck{ack: 14000, time: 160 * ms}))
	if len(got) != 1 || got[0] != 6000 {
		t.Errorf("ssthresh measured %v, want [6000]: the flight after the hold, not the 7 segments sent in it", got)
	}
}

// TestVoteFromMedianWithoutMajority: where the episodes' votes have no
// majority, the graph checks its ssthresh against the algorithm the
// median reduction factor names, as congestionControl names it
// (k17_cubic_rwnd40_l1: a 40 KB window holding the flight after most
// recoveries, no majority, named cubic by a median of 0.67; its
// ssthresh 60% -> 80% of 10 within 10% of the kernel's). A majority of
// none (BBR's) or a median that tells nothing checks nothing.
func TestVoteFromMedianWithoutMajority(t *testing.T) {
	const seg = 1000
	for _, tt := range []struct {
		name       string
		reductions [][2]int64 // windows in segments
		vote       int
		ok         bool
	}{
		{"no majority, median CUBIC's", [][2]int64{{20, 10}, {20, 14}, {40, 27}, {30, 30}}, VoteCubic, true},
		{"no majority, median Reno's", [][2]int64{{20, 10}, {30, 21}, {3, 1}, {3, 1}}, VoteReno, true}, // windows under 4 segments do not vote
		{"a majority", [][2]int64{{20, 10}, {40, 20}, {30, 21}}, VoteReno, true},
		{"a majority of none", [][2]int64{{20, 20}, {40, 39}, {30, 21}}, 0, false},
		{"no majority, median none", [][2]int64{{20, 10}, {20, 14}, {40, 40}, {30, 30}, {3, 3}}, 0, false},
	} {
		e := lossEpisodes{maxSeg: seg}
		for _, r := range tt.reductions {
			e.reductions = append(e.reductions, [3]int64{r[0] * seg, r[1] * seg, 1})
			e.betas = append(e.betas, float64(r[1])/float64(r[0]))
		}
		if v, ok := e.vote(); ok != tt.ok || ok && v != tt.vote {
			t.Errorf("%s: vote %d %v, want %d %v", tt.name, v, ok, tt.vote, tt.ok)
		}
	}
}

// TestLateResendIsTheTimers: without SACK, near the sender, a fast
// retransmit is an ACK's doing; a resend of the head not at once after
// the last ACK and a timeout's time after the cumulative ACK last moved
// is the timer's, however many duplicate ACKs came before it
// (k17_cubic_nosack_ackloss_l1: 42 that Linux, its reordering degree
// raised, did not take for a loss; the resend 14 ms after the last, 323
// ms after the ACK moved). Sooner after the ACK moved it is a fast
// retransmit sent late (kz_reno_nosack_l2_geo: 10 ms after the third
// duplicate ACK on a 2 Mbit/s link); so is one at once after a duplicate
// ACK; away from the sender, or with the vantage unknown, the duplicate
// ACKs decide as before.
func TestLateResendIsTheTimers(t *testing.T) {
	const ms = int64(1e6)
	for _, tt := range []struct {
		name    string
		pathRTT int64
		every   int64 // between the ten duplicate ACKs
		after   int64 // from the last to the resend
		fast    bool
	}{
		{"14 ms after, an RTO after the ACK moved, near the sender", 80 * ms, 30 * ms, 14 * ms, false},
		{"14 ms after, sooner than an RTO after the ACK moved", 80 * ms, 5 * ms, 14 * ms, true},
		{"at once, near the sender", 80 * ms, 30 * ms, ms / 10, true},
		{"14 ms after, the vantage unknown", 0, 30 * ms, 14 * ms, true},
	} {
		var e lossEpisodes
		e.pathRTT = tt.pathRTT
		for i := int64(0); i < 20; i++ {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, i*ms, 0)
		}
		e.ack(&epAck{ack: 1000, time: 81 * ms, rtt: 80 * ms})
		e.ack(&epAck{ack: 2000, time: 82 * ms, rtt: 80 * ms}) // [1000, 2000) sent at 1 ms: an 81 ms RTT
		last := int64(0)
		for k := int64(0); k < 10; k++ {
			last = 100*ms + k*tt.every
			e.ack(&epAck{ack: 2000, signal: true, time: last, rtt: 80 * ms})
		}
		ev := e.data(2000, 3000, 18000, Retransmission, 0, false, last+tt.after, 0)
		if !ev.start || ev.fast != tt.fast {
			t.Errorf("%s: the head resent %.1f ms after the last of 10 duplicate ACKs, %.0f ms after the ACK moved: %+v, want an episode, fast %v",
				tt.name, float64(tt.after)/float64(ms), float64(last+tt.after-82*ms)/float64(ms), ev, tt.fast)
		}
	}
}

// TestTrimSendsKeepsTheHole: the send marks below the cumulative ACK go
// once it passes them (a long transfer keeps few), all but the last: the
// hole at the cumulative ACK still knows when it went out, which RACK's
// time rule and the tracker's own RTT need (rackLost, minRTT).
func TestTrimSendsKeepsTheHole(t *testing.T) {
	const ms = int64(1e6)
	var e lossEpisodes
	for i := int64(0); i < 100; i++ {
		e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, (i+1)*2*ms, 0)
		if i == 9 {
			e.ack(&epAck{ack: 1000, time: 21 * ms}) // before it, at most maxSendMarksNoAck
		}
	}
	e.ack(&epAck{ack: 50500, time: 301 * ms}) // inside the segment sent at 102 ms
	if at, ok := e.xmitOf(e.cumAck); !ok || at != 102*ms {
		t.Errorf("the hole at %d sent at %d ms (%v), want 102 ms", e.cumAck, at/ms, ok)
	}
	if at, ok := e.xmitOf(70000); !ok || at != 142*ms {
		t.Errorf("[70000, 71000) sent at %d ms (%v), want 142 ms", at/ms, ok)
	}
	if n := len(e.sends); n != 50 {
		t.Errorf("%d send marks kept, want 50: those above the cumulative ACK and the one it falls in", n)
	}
}

// TestCutSACKWindowUpdates: with SACK, an ACK whose SACK option the
// snapshot length cut (IPv6 at 96 bytes) holds data above a hole whatever
// Wireshark calls it — a window update where the receiver's window grew
// (k24_reno_ipv6_l1) — so a second resend of the head after such ACKs is
// RACK's lost retransmission in recovery, not the timer's; after ACKs
// that carried no SACK option at all it stays the timer's.
func TestCutSACKWindowUpdates(t *testing.T) {
	const ms = int64(1e6)
	for _, cut := range []bool{true, false} {
		var e lossEpisodes
		for i := int64(0); i < 20; i++ {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, i*ms, 0)
		}
		ackAt := func(at int64, win uint16, dup bool) {
			s := &reassembly.Segment{AckAbs: 1000, Time: at, Window: win}
			s.Opt.SACKCut = cut
			var a epAck
			episodeAck(&a, s, dup, 80*ms, int64(win))
			e.ack(&a)
		}
		e.ack(&epAck{ack: 1000, time: 100 * ms, rtt: 80 * ms})
		for k := int64(1); k <= 3; k++ {
			ackAt(100*ms+k*ms, 100, true) // duplicate ACKs
		}
		if ev := e.data(1000, 2000, 19000, Retransmission, 0, false, 104*ms, 0); !ev.start || !ev.fast {
			t.Fatalf("cut %v: the fast retransmit: %+v", cut, ev)
		}
		for i := int64(20); i < 24; i++ {
			e.data(i*1000, i*1000+1000, 19000, 0, 0, false, 105*ms+i*ms, 0)
		}
		for k := int64(1); k <= 6; k++ {
			ackAt(150*ms+k*ms, 100+uint16(k), false) // the window grew: Wireshark's window updates
		}
		ev := e.data(1000, 2000, 19000, Retransmission, 0, false, 190*ms, 0)
		if timeout := ev.start && !ev.fast; timeout == cut {
			t.Errorf("cut %v: the head resent again after window updates: %+v, want a timeout %v", cut, ev, !cut)
		}
	}
}

// TestCutDSACKAtTheEdge: a cut SACK option on an ACK of all data sent is
// a D-SACK of a duplicate arrival (RFC 2883), no data above the ACK: it
// leaves no loss signal behind, and a later resend with no ACK since is
// the timer's.
func TestCutDSACKAtTheEdge(t *testing.T) {
	const ms = int64(1e6)
	var e lossEpisodes
	for i := int64(0); i < 10; i++ {
		e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, i*ms, 0)
	}
	e.ack(&epAck{ack: 5000, time: 100 * ms, rtt: 80 * ms})
	s := &reassembly.Segment{AckAbs: 10000, Time: 110 * ms}
	s.Opt.SACKCut = true
	var a epAck
	episodeAck(&a, s, false, 80*ms, -1)
	e.ack(&a)
	e.data(10000, 11000, 1000, 0, 0, false, 120*ms, 0)
	if ev := e.data(10000, 11000, 1000, Retransmission, 0, false, 120*ms+rtoOf(80*ms)+ms, 0); !ev.start || ev.fast {
		t.Errorf("a resend after a cut D-SACK and silence: %+v, want a timeout", ev)
	}
}

// TestReductionsOff: a cut more than 7% of the window (and a segment)
// from the nearer of Reno's half and CUBIC's 0.7 is off; one within it,
// or at a few segments within one, is not.
func TestReductionsOff(t *testing.T) {
	e := lossEpisodes{maxSeg: 1000, reductions: [][3]int64{{100000, 82000, 1}, {100000, 70000, 1}, {100000, 52000, 1}, {10000, 8000, 1}, {100000, 95000, 1}}}
	if v, off := e.reductionVotes(), e.reductionsOff(); v != [3]int{1, 3, 1} || off != [3]int{0, 1, 0} {
		t.Errorf("votes %v, off %v; want [1 3 1], [0 1 0]", v, off)
	}
}

// TestTwoCutsInARow: where recovery was entered again as an episode
// ended, the window after the second is measured against the one before
// both (k26_reno_reverse_l05: Linux's 491 segments to 245, then 242 to
// 122), and votes as two of the algorithm's cuts; one below Reno's half
// twice over is no reduction.
func TestTwoCutsInARow(t *testing.T) {
	for _, c := range []struct {
		after int64
		votes [3]int
		beta  float64
	}{
		{122000, [3]int{1, 0, 0}, 0.498},
		{240000, [3]int{0, 1, 0}, 0.699},
		{60000, [3]int{}, 0},
	} {
		e := lossEpisodes{maxSeg: 1000, sackSeen: true, await: true, awaitSeen: true, awaitMax: c.after, awaitTwice: 491000}
		e.finish()
		if v := e.reductionVotes(); v != c.votes {
			t.Errorf("491 to %d segments: votes %v, want %v", c.after/1000, v, c.votes)
		}
		if b, ok := e.betaMedian(); ok != (c.beta > 0) || ok && math.Abs(b-c.beta) > 0.001 {
			t.Errorf("491 to %d segments: beta %.3f (%v), want %.3f", c.after/1000, b, ok, c.beta)
		}
	}
}

// TestOffVotesNameNeither: most of the winning votes far off their value
// name neither Reno nor CUBIC, in the summary (from DirStats) and for
// the cwnd graph (lossEpisodes.vote) alike (k25_bbr_lossless_q80k: 12
// cuts from 100 to 82-84 segments): from five of them at a median of
// 0.75 or more, BBR (minOffBBR); the losing votes' being off does not
// count.
func TestOffVotesNameNeither(t *testing.T) {
	e := lossEpisodes{maxSeg: 1000}
	for range 12 {
		e.reductions = append(e.reductions, [3]int64{100000, 83000, 1})
		e.betas = append(e.betas, 0.83)
	}
	e.reductions = append(e.reductions, [3]int64{100000, 95000, 1})
	e.betas = append(e.betas, 0.95)
	if v, ok := e.vote(); ok {
		t.Errorf("the graph's vote %d, want none", v)
	}
	st := DirStats{DataPackets: 1000, Path: PathStats{Vantage: VantageSender}, HasBeta: true, BetaMedian: 0.83, BetaEpisodes: 13,
		LossEpisodesFast: 13, ReductionVotes: e.reductionVotes(), reductionsOff: e.reductionsOff()}
	if cc, why := congestionControl(&st); cc != "bbr" {
		t.Errorf("the summary's: %s (%s), want bbr", cc, why)
	}
	if cc, why := e.facts(0).name(); cc != "bbr" {
		t.Errorf("the graph's: %s (%s), want bbr", cc, why)
	}
	// Three Reno votes far off, five CUBIC ones on the mark: CUBIC.
	f := ccFacts{votes: [3]int{3, 5, 0}, off: [3]int{3, 0, 0}, beta: 0.7, hasBeta: true, betaEpisodes: 8, episodes: 8}
	if cc, why := f.name(); cc != "cubic" {
		t.Errorf("Reno's votes off, CUBIC's not: %s (%s), want cubic", cc, why)
	}
}

// TestTwoCutsFromTheTracker: recovery entered again as the first ended
// (SACKed data still above the ACK that ended it) gives one reduction of
// two cuts, from the window before both to the one after the second
// (k26_reno_reverse_l05); where the first was proven spurious (D-SACK)
// Linux restored the window before the second, and the second is a
// single cut from it: no two-cut reduction.
func TestTwoCutsFromTheTracker(t *testing.T) {
	for _, undone := range []bool{false, true} {
		var e lossEpisodes
		for i := int64(0); i < 40; i++ {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 1, 0)
		}
		e.ack(&epAck{ack: 0, time: 2})
		for range 3 {
			e.ack(&epAck{ack: 0, signal: true, above: true, sack: true, time: 3})
		}
		if ev := e.data(0, 1000, 40000, Retransmission, 0, false, 4, 0); !ev.start {
			t.Fatalf("undone %v: the fast retransmit began no episode: %+v", undone, ev)
		}
		if undone {
			e.ack(&epAck{ack: 0, signal: true, above: true, sack: true, hasDSACK: true, dsack: [2]int64{0, 1000}, time: 5})
		}
		for i := int64(40); i < 60; i++ {
			e.data(i*1000, i*1000+1000, 20000, 0, 0, false, 6, 0)
		}
		e.ack(&epAck{ack: 40000, signal: true, above: true, sack: true, time: 7}) // more lost above: recovery again
		e.data(40000, 41000, 20000, Retransmission, 0, false, 8, 0)
		e.ack(&epAck{ack: 60000, time: 9})
		for i := int64(60); i < 70; i++ {
			e.data(i*1000, i*1000+1000, (i-59)*1000, 0, 0, false, 10, 0)
		}
		e.ack(&epAck{ack: 61000, time: 11})
		e.finish()
		var twice [][3]int64
		for _, r := range e.reductions {
			if r[2] == 2 {
				twice = append(twice, r)
			}
		}
		if want := !undone; (len(twice) == 1) != want || want && twice[0] != [3]int64{40000, 10000, 2} {
			t.Errorf("undone %v: two-cut reductions %v (all %v), want one of 40 to 10 segments: %v", undone, twice, e.reductions, want)
		}
		// Linux's cuts (lossEpisodes.cuts): the recovery entered again
		// cut once more; the first, proven spurious, not at all.
		if want := int64(2 - btoi(undone)); e.cuts != want {
			t.Errorf("undone %v: %d cuts, want %d", undone, e.cuts, want)
		}
	}
}

// TestRestoredWindowIsNoCut: a flight back at the window before a
// reduction within restoreRTTs of its measurement shows no cut held
// (BBR's restore at recovery's end: k31_bbr_rwnd64_l1, 56 segments, 36
// after, 55 again within two round trips, read as CUBIC's 0.7); one back
// later, from a window below restoreMin segments, or measured where the
// receiver's window held the flight, keeps its vote.
func TestRestoredWindowIsNoCut(t *testing.T) {
	const ms, seg = int64(1e6), int64(1000)
	for _, c := range []struct {
		name     string
		segs     int64 // the window before the loss, segments
		back     int64 // when the flight is back at it, after the measurement
		held     bool  // the receiver's window held the flight measured
		restored bool
	}{
		{"back within a round trip", 40, 50 * ms, false, true},
		{"back after three round trips", 40, 300 * ms, false, false},
		{"a small window", 12, 50 * ms, false, false},
		{"held by the receiver's window", 40, 50 * ms, true, false},
	} {
		var e lossEpisodes
		n := c.segs
		ack := func(a epAck) {
			a.rtt, a.win = 100*ms, 1000*seg
			e.ack(&a)
		}
		fastRetransmitOf(t, &e, c.name, n, seg, ack)
		ack(epAck{ack: n * seg, time: 200 * ms}) // recovery ends
		after := n * 7 / 10
		win := int64(1000) * seg
		if c.held {
			win = after * seg // the flight after fills the receiver's window
		}
		e.ack(&epAck{ack: n * seg, time: 201 * ms, rtt: 100 * ms, win: win})
		for i := range after {
			e.data((n+i)*seg, (n+i+1)*seg, (i+1)*seg, 0, 0, false, 202*ms, 0)
		}
		ack(epAck{ack: (n + 1) * seg, time: 210 * ms}) // settles: the window after
		if len(e.reductions) != 1 || e.reductions[0] != [3]int64{n * seg, after * seg, 1} {
			t.Fatalf("%s: reductions %v, want one of %d to %d segments", c.name, e.reductions, n, after)
		}
		top := n + after
		for i := top; i < top+n; i++ { // the flight back at the window before
			e.data(i*seg, (i+1)*seg, (i-top+after)*seg, 0, 0, false, 210*ms+c.back, 0)
		}
		v := e.reductionVotes()
		if restored := v[VoteNone] == 1; restored != c.restored {
			t.Errorf("%s: votes %v (reductions %v), want the reduction restored %v", c.name, v, e.reductions, c.restored)
		}
	}
}

// TestCeilingSplit: the windows at the losses after the first, against
// the largest: within ceilingNear of it and two segments (at), under
// ceilingBelow of it (below), the rest neither.
func TestCeilingSplit(t *testing.T) {
	e := lossEpisodes{maxSeg: 1000}
	for _, w := range []int64{30, 12, 7, 11, 11, 7, 4, 11, 6, 12, 6, 7, 4, 12, 12, 11, 8, 10} {
		e.flights = append(e.flights, w*1000)
	}
	if c := windowsOf(e.flights, e.maxSeg).ceil; c != (ceilingSplit{at: 8, below: 8, top: 12000}) {
		t.Errorf("%+v, want 8 at 12000 (11-12 segments), 8 below 9 (4-8), the first (30, slow start's) left out", c)
	}
}

// TestRestoreWatchEndsAtUndo: a reduction watched for a restore and then
// proven spurious is taken back with its watch: a flight back at the
// window before does not rewrite the reduction measured before it
// (under a receiver's window every window before a loss is the same).
func TestRestoreWatchEndsAtUndo(t *testing.T) {
	e := lossEpisodes{maxSeg: 1000, reductions: [][3]int64{{40000, 28000, 1}, {40000, 28000, 1}}, betas: []float64{0.7, 0.7},
		restoreBy: 1e9, restoreFrom: 40000, restoreAt: 1, settledThis: true, undoable: true, firstSeq: 0, firstEnd: 1000}
	if !e.undo(&epAck{ack: 0, signal: true, hasDSACK: true, dsack: [2]int64{0, 1000}}) {
		t.Fatal("the D-SACK proved nothing")
	}
	e.data(100000, 101000, 40000, 0, 0, false, 5e8, 0)
	if want := [][3]int64{{40000, 28000, 1}}; !slices.Equal(e.reductions, want) {
		t.Errorf("reductions %v after the undo and a flight back at 40 segments, want %v", e.reductions, want)
	}
}

// TestArrivedWindows: each fast retransmit's start records what had
// arrived above the cumulative ACK (the window a receiver-side capture
// sees at the loss); a re-entry of the same recovery records none of its
// own, an episode proven spurious takes its own back, and a timeout
// records none.
func TestArrivedWindows(t *testing.T) {
	var e lossEpisodes
	e.maxSeg, e.cumAck = 1000, 0
	for i, w := range []int64{30e3, 20e3, 30e3, 25e3} {
		e.high = e.cumAck + w
		e.begin(true)
		if i == 2 {
			e.reenter() // the same drops' repair
		}
		e.cumAck += 100e3
	}
	if want := []int64{30e3, 20e3, 30e3, 25e3}; !slices.Equal(e.arrived, want) {
		t.Fatalf("arrived %v, want %v (the re-entry none of its own)", e.arrived, want)
	}
	e.dropArrived() // the last proven spurious
	e.dropArrived() // and nothing more
	e.high = e.cumAck + 50e3
	e.begin(false) // a timeout
	e.dropArrived()
	if want := []int64{30e3, 20e3, 30e3}; !slices.Equal(e.arrived, want) {
		t.Errorf("after an undo and a timeout: arrived %v, want %v", e.arrived, want)
	}
	if w := e.arrivedWindows(); !w.ok || w.n != 2 || w.ceil.top != 30e3 || w.ceil.at != 1 || w.ceil.below != 1 {
		t.Errorf("arrivedWindows %+v: want 2 windows after the first, the largest 30 KB, one at it and one far below", w)
	}
}

// TestWindowsMean: the windows at the losses' mean leaves the first out,
// as their coefficient of variation does (windowsOf); one window after
// the first has a mean and no spread.
func TestWindowsMean(t *testing.T) {
	if w := windowsOf([]int64{100, 10, 20}, 1); w.mean != 15 || !w.ok || w.n != 2 {
		t.Errorf("10 and 20 after 100: %+v, want mean 15 over 2", w)
	}
	if w := windowsOf([]int64{100, 10}, 1); w.mean != 10 || w.ok {
		t.Errorf("10 after 100: %+v, want mean 10, no spread", w)
	}
	if w := windowsOf([]int64{100}, 1); w.mean != 0 || w.ok {
		t.Errorf("none after 100: %+v, want nothing", w)
	}
}

// TestPacedRefill: a sender that fills the window it left recovery with
// over the ACKs after the first burst (paced: ak_590ms_43m_b09, 2.8 MB
// in flight at the first ACK of a 3.9 MB ssthresh, 4.0 MB a round trip
// later) has that window measured, up to the window before, while the
// flight grows by a segment within each quarter of a round trip; one
// segment more (an ACK-clocked sender's growth), growth after a stall,
// after a loss signal, or under the receiver's window leaves the first
// burst's.
func TestPacedRefill(t *testing.T) {
	const ms, seg, n = int64(1e6), int64(1000), int64(40)
	for _, c := range []struct {
		name  string
		first int64 // segments in flight after the first burst
		grow  int64 // segments the flight grows by after it
		every int64 // one segment every
		held  bool  // the receiver's window held the first burst
		sig   bool  // a loss signal after the second segment
		want  int64 // the window after, segments
	}{
		{"paced refill", 20, 8, 5 * ms, false, false, 28},
		{"one segment more", 20, 1, 5 * ms, false, false, 20},
		{"a stall between", 20, 8, 30 * ms, false, false, 20},
		{"a loss signal", 20, 8, 5 * ms, false, true, 22},
		{"held by the receiver's window", 20, 8, 5 * ms, true, false, 20},
		{"a first burst above Reno's half", 26, 2, 5 * ms, false, false, 26},
		{"a round trip after the end at most", 18, 20, 8 * ms, false, false, 30},
		{"up to the window before", 20, 30, 2 * ms, false, false, 39}, // the restore watch's 39 first
	} {
		var e lossEpisodes
		ack := func(a epAck) {
			a.rtt = 100 * ms
			if a.win == 0 {
				a.win = 1000 * seg
			}
			e.ack(&a)
		}
		fastRetransmitOf(t, &e, c.name, n, seg, ack)
		const inRec = 10 // new data sent in recovery, outstanding at its end
		for i := range int64(inRec) {
			e.data((n+i)*seg, (n+i+1)*seg, (n-inRec+i+1)*seg, 0, 0, false, 150*ms, 0)
		}
		after := c.first
		win := 1000 * seg
		if c.held {
			win = after * seg // the first burst fills it
		}
		ack(epAck{ack: n * seg, time: 200 * ms, win: win}) // recovery ends
		for i := range after - inRec {
			e.data((n+inRec+i)*seg, (n+inRec+i+1)*seg, (inRec+i+1)*seg, 0, 0, false, 201*ms, 0)
		}
		ack(epAck{ack: n * seg, time: 203 * ms, win: win}) // settles: the first burst
		if len(e.reductions) != 1 || e.reductions[0][1] != after*seg {
			t.Fatalf("%s: reductions %v, want one of %d to %d segments", c.name, e.reductions, n, after)
		}
		top, now := n+after, 203*ms
		for i := range c.grow {
			now += c.every
			if c.sig && i == 2 {
				ack(epAck{ack: n * seg, signal: true, above: true, sack: true, time: now - ms})
			}
			// Each send comes before the next ACK, which acknowledges
			// nothing new: the flight grows by a segment a send.
			e.data((top+i)*seg, (top+i+1)*seg, (after+i+1)*seg, 0, 0, false, now, 0)
			ack(epAck{ack: n * seg, time: now + ms/2, win: win})
		}
		e.finish()
		if got := e.reductions[0][1]; got != c.want*seg {
			t.Errorf("%s: the window after %d segments (reductions %v), want %d", c.name, got/seg, e.reductions, c.want)
		}
	}
}

// fastRetransmitOf sends a window of n segments of seg bytes from 1 ms
// on, three duplicate ACKs SACKing above it from 101 ms (after the first
// ACK, at 100 ms: a round trip) and the fast retransmit at 105 ms, which
// must begin a fast episode; each ACK goes through ack.
func fastRetransmitOf(t *testing.T, e *lossEpisodes, name string, n, seg int64, ack func(epAck)) {
	t.Helper()
	const ms = int64(1e6)
	for i := range n {
		e.data(i*seg, (i+1)*seg, (i+1)*seg, 0, 0, false, ms+i*ms/10, 0)
	}
	ack(epAck{ack: 0, time: 100 * ms})
	for k := range int64(3) {
		ack(epAck{ack: 0, signal: true, above: true, sack: true, time: 101*ms + k*ms})
	}
	if ev := e.data(0, seg, n*seg, Retransmission, 0, false, 105*ms, 0); !ev.start || !ev.fast {
		t.Fatalf("%s: the fast retransmit: %+v", name, ev)
	}
}

// TestMedianNearNeither: without a majority of the episodes' own cuts, a
// median reduction between Reno's half and CUBIC's 0.7, near neither
// (renoMedianTop, cubicMedianLow), names no algorithm (two CUBIC senders
// under small windows and jitter, at 0.56 and 0.58, were named Reno);
// near either it names that one.
func TestMedianNearNeither(t *testing.T) {
	for _, tt := range []struct {
		beta float64
		want string
	}{{0.50, "reno"}, {0.55, "reno"}, {0.551, "reno"}, {0.56, "unknown"}, {0.58, "unknown"}, {0.64, "unknown"}, {0.649, "cubic"}, {0.65, "cubic"}, {0.67, "cubic"}, {0.76, "cubic"}} {
		f := ccFacts{votes: [3]int{VoteReno: 3, VoteCubic: 2, VoteNone: 1}, beta: tt.beta, hasBeta: true, betaEpisodes: 7, episodes: 7}
		cc, why := f.name()
		if cc != tt.want {
			t.Errorf("median %.2f: %s (%s), want %s", tt.beta, cc, why, tt.want)
		}
		if cc == "unknown" && !strings.Contains(why, "near neither") {
			t.Errorf("median %.2f: reason %q", tt.beta, why)
		}
	}
	// A median of two cuts taken at run time, 0.6 and 0.7 of the window:
	// 0.6499… in floating point, 0.65 as printed, CUBIC's. And the graph's
	// vote (lossEpisodes.vote) names nothing in the band.
	e := &lossEpisodes{maxSeg: 1000, betas: []float64{6.0 / 10, 7.0 / 10}}
	if b, _ := e.betaMedian(); b >= 0.65 {
		t.Fatalf("the median is %v: not the case this checks", b)
	}
	if v, ok := medianVote(e.betaMedian()); !ok || v != VoteCubic {
		t.Errorf("cuts at 0.6 and 0.7: vote %d (%v), want CUBIC's", v, ok)
	}
	// One cut each to Reno's half, to CUBIC's 0.7 and to none: no
	// majority; the median of the three factors, 0.60, is in the band.
	e = &lossEpisodes{maxSeg: 1000, betas: []float64{0.50, 0.60, 0.90}, reductions: [][3]int64{{100000, 50000, 1}, {100000, 71000, 1}, {100000, 90000, 1}}}
	if v, ok := e.vote(); ok {
		t.Errorf("no majority, median 0.60: the graph votes %d", v)
	}
}

// TestClearMajority: from six votes on, a Reno or CUBIC majority that
// fair coin tosses give more than 30% of the time names no algorithm,
// the median neither (mx_22ms_17m_j8_l05_nosack_nots: 7 of 12 to Reno's
// half, 0.39 by chance, a median of 0.57: named Reno, now unknown); a
// clear one stands, fewer votes are not tested, and BBR's majority of
// none is not either.
func TestClearMajority(t *testing.T) {
	for _, tt := range []struct {
		v    [3]int
		best int
		ok   bool
		off  [3]int
	}{{[3]int{7, 5, 0}, VoteReno, false, [3]int{}}, {[3]int{11, 4, 0}, VoteReno, true, [3]int{}}, {[3]int{2, 5, 0}, VoteCubic, true, [3]int{}},
		{[3]int{2, 1, 0}, VoteReno, true, [3]int{}}, {[3]int{4, 5, 11}, VoteNone, true, [3]int{}},
		{[3]int{3, 5, 0}, VoteCubic, true, [3]int{3, 0, 0}}, {[3]int{5, 7, 0}, VoteCubic, false, [3]int{}}} {
		if ok := clearerThanChance(tt.v, tt.off, tt.best); ok != tt.ok {
			t.Errorf("votes %v: clearer than chance %v, want %v", tt.v, ok, tt.ok)
		}
	}
	for _, beta := range []float64{0.50, 0.567, 0.70} {
		f := ccFacts{votes: [3]int{VoteReno: 7, VoteCubic: 5}, beta: beta, hasBeta: true, betaEpisodes: 13, episodes: 14}
		if cc, why := f.name(); cc != "unknown" || !strings.Contains(why, "no clearer than chance") {
			t.Errorf("7 of 12, median %.2f: %s (%s), want unknown", beta, cc, why)
		}
	}
	e := &lossEpisodes{maxSeg: 1000, betas: []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.7, 0.7, 0.7, 0.7, 0.7}}
	for i := range 12 {
		e.reductions = append(e.reductions, [3]int64{100000, int64(1000 * 100 * e.betas[i]), 1})
	}
	if v, ok := e.vote(); ok {
		t.Errorf("7 of 12: the graph votes %d", v)
	}
	if c := chance(7, 12); math.Abs(c-0.387) > 0.001 {
		t.Errorf("7 of 12 by chance %.3f, want 0.387", c)
	}
}

// TestAmbiguousCutWithoutSACK: without SACK, a window after recovery at
// CUBIC's ssthresh where that is one segment above Reno's tells neither
// (Linux's Reno grows cwnd on the ACK that ends NewReno's recovery, so
// its flight after is its ssthresh or one more): kb_40ms_2m_q6k_nosack_reno
// and ke_40ms_2m_q5k_nosack_reno, 5 segments cut to 2 by the kernel, read
// 3 and named CUBIC by 29 of 32 such cuts. With SACK, or at Reno's own
// value, or where the two are further apart, the cut still votes.
func TestAmbiguousCutWithoutSACK(t *testing.T) {
	for _, c := range []struct {
		before, after int64
		sack          bool
		votes         [3]int
	}{
		{5, 3, false, [3]int{}},
		{8, 5, false, [3]int{}},
		{5, 3, true, [3]int{0, 1, 0}},
		{5, 2, false, [3]int{1, 0, 0}},
		{20, 14, false, [3]int{0, 1, 0}},
		{20, 10, false, [3]int{1, 0, 0}},
	} {
		e := lossEpisodes{maxSeg: 1000, sackSeen: c.sack, reductions: [][3]int64{{c.before * 1000, c.after * 1000, 1}}}
		if v := e.reductionVotes(); v != c.votes {
			t.Errorf("%d to %d segments, SACK %v: votes %v, want %v", c.before, c.after, c.sack, v, c.votes)
		}
	}
}

// TestPacedSenderBBR: a sender whose pacing sent most of its segments is
// BBR where its cuts name CUBIC (kb_40ms_3m_q6k_bbr: 23 of 31
// reductions read as CUBIC's, 75% of its sends paced; BBR behind a queue
// of a few packets cuts its flight from its probe to its cruise) or
// nothing after two loss episodes or more; not from its pacing where
// nothing was lost (an interactive sender's segments go out alone), nor
// where sent on the ACKs; a Reno name, whose halves are not BBR's look,
// stands.
func TestPacedSenderBBR(t *testing.T) {
	const seg = 1448
	cubicCuts, renoCuts, noCuts := [3]int{VoteCubic: 23, VoteReno: 2}, [3]int{VoteCubic: 2, VoteReno: 23}, [3]int{}
	for _, tt := range []struct {
		name     string
		paced    float64
		votes    [3]int
		beta     float64
		episodes int64
		want     string
	}{
		{"CUBIC's cuts, paced", 0.75, cubicCuts, 0.71, 39, "bbr"},
		{"CUBIC's cuts, on the ACKs", 0.30, cubicCuts, 0.71, 39, "cubic"},
		{"CUBIC's cuts, just over half paced", 0.55, cubicCuts, 0.71, 39, "cubic"},
		{"Reno's halves, paced", 0.75, renoCuts, 0.5, 39, "reno"},
		{"no cut measured, paced", 0.75, noCuts, 0, 3, "bbr"},
		{"no cut measured, one loss", 0.75, noCuts, 0, 1, "unknown"},
		{"nothing lost, paced", 0.90, noCuts, 0, 0, "unknown"},
		{"no cut measured, on the ACKs", 0.40, noCuts, 0, 3, "unknown"},
	} {
		f := ccFacts{votes: tt.votes, beta: tt.beta, hasBeta: tt.beta > 0, episodes: tt.episodes, mss: seg, paced: tt.paced}
		if tt.beta > 0 {
			f.betaEpisodes = 31
		}
		if cc, why := f.name(); cc != tt.want {
			t.Errorf("%s: %s (%s), want %s", tt.name, cc, why, tt.want)
		}
	}
}

// TestTinyWindowsNotBBR: windows kept at two or three segments through
// the losses (no majority of cuts that tell, the median reduction 1.0)
// are too small for Reno's or CUBIC's cut to show and under BBR's least
// of four: no algorithm is named; from four segments on, a kept window
// is BBR's (mx_26ms_3m_q4k_j3_a1m_nosack_reno, Reno at an application's
// 1 Mbit/s, had been named BBR).
func TestTinyWindowsNotBBR(t *testing.T) {
	for _, tt := range []struct {
		after int64
		want  string
	}{{3, "unknown"}, {2, "unknown"}, {4, "bbr"}, {0, "bbr"}} {
		f := ccFacts{beta: 1, hasBeta: true, betaEpisodes: 34, episodes: 45, afterSegs: tt.after}
		if cc, why := f.name(); cc != tt.want {
			t.Errorf("windows of %d segments after the losses: %s (%s), want %s", tt.after, cc, why, tt.want)
		}
	}
}

// TestEpisodeBegunBeforeCapture: a capture that began mid-transfer (the
// sender's SYN unseen) whose first resend is of bytes it never saw sent,
// after one duplicate ACK, joins the episode the sender was in: counted
// as neither a fast retransmit nor a timeout (kn_vsat_cubic_rto cut 5 s
// in, in the kernel's recovery, had a timeout drawn 32 ms in). With the
// SYN seen (an original lost before the capture point) it is the
// timeout it looks like; after three duplicate ACKs, a fast retransmit.
func TestEpisodeBegunBeforeCapture(t *testing.T) {
	run := func(syn bool, dups int) (*lossEpisodes, episodeEvent) {
		var e lossEpisodes
		e.synSeen = syn
		for i := range int64(4) {
			e.data(40000+i*1000, 41000+i*1000, (i+1)*1000, 0, 0, false, 0, 0)
		}
		e.ack(&epAck{ack: 1000, time: 1e9}) // the cumulative ACK as the capture first sees it
		for i := range dups {
			e.ack(&epAck{ack: 1000, signal: true, time: 1.3e9 + int64(i)*1e6})
		}
		return &e, e.data(1000, 2000, 4000, Retransmission, 0, false, 1.3e9+int64(dups-1)*1e6+100e3, 0) // at once after the last ACK
	}
	if e, ev := run(false, 1); !ev.start || !ev.unseen || e.fast+e.rto != 0 || !e.inEpisode || e.undoable {
		t.Errorf("no SYN, one duplicate ACK: %+v, %d fast, %d timeouts, in an episode %v, undoable %v; want one joined, counted as none, nothing to undo", ev, e.fast, e.rto, e.inEpisode, e.undoable)
	}
	if e, ev := run(true, 1); !ev.start || ev.unseen || ev.fast || e.rto != 1 {
		t.Errorf("the SYN seen: %+v, %d timeouts; want a timeout", ev, e.rto)
	}
	if e, ev := run(false, 3); !ev.start || ev.unseen || !ev.fast || e.fast != 1 {
		t.Errorf("no SYN, three duplicate ACKs: %+v, %d fast; want a fast retransmit", ev, e.fast)
	}
	// After a silence (not at once after an ACK): the timer's, whatever
	// came before the capture (kb_540ms_1m_q15k_l3_nosack cut at 24.503 s).
	var q lossEpisodes
	for i := range int64(4) {
		q.data(40000+i*1000, 41000+i*1000, (i+1)*1000, 0, 0, false, 1e9, 0)
	}
	q.ack(&epAck{ack: 1000, time: 1e9})
	q.ack(&epAck{ack: 1000, signal: true, time: 1.2e9})
	if ev := q.data(1000, 2000, 4000, Retransmission, 0, false, 1.8e9, 0); !ev.start || ev.unseen || ev.fast || q.rto != 1 {
		t.Errorf("no SYN, the resend 600 ms after the last ACK: %+v, %d timeouts; want a timeout", ev, q.rto)
	}
	// The cumulative ACK moved in the capture before the resend: the
	// capture saw the sender open; a resend after one duplicate ACK is
	// the timer's (kb_600ms_1m_q10k_l5_nosack_reno cut at 25.563 s).
	var e lossEpisodes
	for i := range int64(4) {
		e.data(40000+i*1000, 41000+i*1000, (i+1)*1000, 0, 0, false, 0, 0)
	}
	e.ack(&epAck{ack: 500, time: 1e9})
	e.ack(&epAck{ack: 1000, time: 1.3e9}) // moved
	e.ack(&epAck{ack: 1000, signal: true, time: 1.6e9})
	if ev := e.data(1000, 2000, 4000, Retransmission, 0, false, 1.6001e9, 0); !ev.start || ev.unseen || ev.fast || e.rto != 1 {
		t.Errorf("no SYN, the cumulative ACK moved in the capture: %+v, %d timeouts; want a timeout", ev, e.rto)
	}
}
