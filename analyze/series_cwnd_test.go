package analyze

import (
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/reassembly"
)

// lossRun builds a transfer without SACK whose second loss episode
// becomes a timeout in recovery: optionally a first fast retransmit
// measured at Reno's half (voted), then a window of 20 segments of which
// the first, the second and the eleventh are lost; three duplicate ACKs,
// the fast retransmit, the timer (the head resent again, nothing
// acknowledged since); go-back-N: the ACK of the head, the second and
// third resent, then an ACK up to the eleventh (the originals held above
// the hole: nine segments at once) and two resends after it. It returns
// the builder, the time (ms) of that last ACK and the episode's end
// (snd_nxt at the timer).
func lossRun(voted bool) (b *builder, jump float64, end int64) {
	b = &builder{}
	seq, ms := int64(1), 0.0
	if voted {
		seq, ms = renoVoted(b)
	} else {
		for _, n := range []int{2, 4, 8} {
			for range n {
				b.data(ms, seq, 1000, 0)
				seq += 1000
			}
			ms += 100
			b.ack(ms, seq, 1<<20, 0)
		}
	}
	flight := int64(0)
	send := func(n int) {
		for range n {
			flight += 1000
			b.data(ms, seq, 1000, 0).Info.BytesInFlight = flight
			seq += 1000
		}
	}
	send(20)
	head := seq - 20000
	end = seq
	ms += 100
	for i := range 3 {
		b.ack(ms+float64(i), head, 1<<20, DupAck)
	}
	b.data(ms+3, head, 1000, Retransmission) // the fast retransmit
	ms += 600
	b.data(ms, head, 1000, Retransmission) // the timer
	ms += 100
	b.ack(ms, head+1000, 1<<20, 0)
	b.data(ms, head+1000, 1000, Retransmission)
	b.data(ms, head+2000, 1000, Retransmission)
	ms += 100
	b.ack(ms, head+10000, 1<<20, 0) // nine segments at once
	b.data(ms, head+10000, 1000, Retransmission)
	b.data(ms, head+11000, 1000, Retransmission)
	return b, ms, end
}

// lineAt is the cwnd line's value at ms (a step: the last point at or
// before it).
func lineAt(g *Graph, ms float64) float64 {
	v := -1.0
	if cw := g.lookup(SeriesCwnd); cw != nil {
		for _, p := range cw.Points {
			if p.Time <= t0+int64(ms*1e6) {
				v = p.V[0]
			}
		}
	}
	return v
}

// TestLossStateWindow: in the loss state after a timeout Linux grows
// cwnd from one segment by the segments each new ACK delivers, up to
// ssthresh (tcp_enter_loss, tcp_cong_control → tcp_slow_start); without
// SACK the receiver holds what arrived above the holes, so an ACK after
// a go-back-N resend covers many at once and cwnd jumps to ssthresh —
// here the recovery's, Reno's half of 20 (no new one: the timeout came
// in recovery) — while the pipe is the two segments resent since
// (kq_reno_nosack_loss2, kw_reno_nosack_2pct: the kernel at 57 segments
// for 0.3 s, the line at 2 to 6).
func TestLossStateWindow(t *testing.T) {
	b, jump, _ := lossRun(true)
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	if to := g.lookup(SeriesRTOLoss); to == nil || len(to.Points) != 1 {
		t.Fatalf("timeout marks %+v, want one", to)
	}
	if v := lineAt(g, jump); v != 10000 {
		t.Errorf("the line after the loss state's ACK of nine segments %.0f, want ssthresh 10000 (cwnd 2 + 9, at most ssthresh)", v)
	}
}

// TestLossStateWindowWaitsForVote: where the episodes have not yet shown
// the algorithm (the first fast retransmit ran into the timeout, nothing
// measured), the loss state's steps wait for it across the ACKs no send
// followed and the next episode's start, and are drawn under Reno's
// ssthresh once a later reduction shows Reno's half.
func TestLossStateWindowWaitsForVote(t *testing.T) {
	b, jump, end := lossRun(false)
	ms := jump + 100
	b.ack(ms, end, 1<<20, 0)
	b.ack(ms+1, end, 1<<20, 0) // an ACK no send followed
	renoLater(b, ms+10, end)
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	if v := lineAt(g, jump); v != 10000 {
		t.Errorf("the line after the loss state's ACK of nine segments %.0f, want Reno's ssthresh 10000 once the vote came", v)
	}
}

// renoLater adds, from ms and seq on, a fast retransmit from 16
// segments settled at 8: Reno's half, which tells the algorithm.
func renoLater(b *builder, ms float64, seq int64) {
	for range 16 {
		b.data(ms, seq, 1000, 0)
		seq += 1000
	}
	ms += 100
	b.ack(ms, seq, 1<<20, 0)
	for i := range int64(16) {
		b.data(ms, seq, 1000, 0).Info.BytesInFlight = (i + 1) * 1000 // the window before: 16
		seq += 1000
	}
	ms += 100
	for i := range 3 {
		b.ack(ms+float64(i), seq-16000, 1<<20, DupAck)
	}
	b.data(ms+3, seq-16000, 1000, Retransmission)
	e := seq
	ms += 100
	b.ack(ms, e+1000, 1<<20, 0)
	for range 8 {
		b.data(ms, seq, 1000, 0).Info.BytesInFlight = 8000
		seq += 1000
	}
	ms += 100
	b.ack(ms, seq, 1<<20, 0)
}

// TestLossStateHold: without SACK an ACK of exactly the loss state's end
// leaves Linux in it (tcp_process_loss: recovered, but
// tcp_try_undo_recovery holds while snd_una is high_seq, RFC 6582) and
// returns before counting duplicate ACKs (tcp_add_reno_sack): its window
// stays where slow start left it while the sender sends new data and
// duplicate ACKs come (kw_reno_nosack_2pct: the kernel at 59 segments
// for 50 ms, the line at the pipe less the duplicate ACKs, 43 to 46).
func TestLossStateHold(t *testing.T) {
	b, jump, end := lossRun(false)
	ms := jump + 100
	b.ack(ms, end-8000, 1<<20, 0) // the loss state's slow start: 10, ssthresh
	for s := end - 8000; s < end; s += 1000 {
		b.data(ms, s, 1000, Retransmission)
	}
	ms += 100
	b.ack(ms, end, 1<<20, 0) // exactly its end: the hold
	for s := end; s < end+4000; s += 1000 {
		b.data(ms, s, 1000, 0)
	}
	for i := range 3 { // go-back-N's duplicates arriving
		b.ack(ms+1+float64(i), end, 1<<20, DupAck)
		b.data(ms+1+float64(i), end+4000+int64(i)*1000, 1000, 0)
	}
	hold := ms + 4
	b.ack(ms+50, end+7000, 1<<20, 0) // above it: open
	renoLater(b, ms+100, end+7000)
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	// From ssthresh on one segment per window delivered
	// (tcp_cong_avoid_ai): 10 more delivered, 11.
	if v := lineAt(g, hold); v != 11000 {
		t.Errorf("the line in the loss state's hold %.0f, want its window, 11000", v)
	}
}

// renoRun is a transfer without SACK built segment by segment: its next
// sequence number, time (ms) and the flight its data segments carry.
type renoRun struct {
	b      *builder
	seq    int64
	ms     float64
	flight int64
}

// send sends n segments of 1000 bytes at the run's time.
func (r *renoRun) send(n int) {
	for range n {
		r.flight += 1000
		r.b.data(r.ms, r.seq, 1000, 0).Info.BytesInFlight = r.flight
		r.seq += 1000
	}
}

// firstRecovery starts the run: slow start to a window of 8 segments, the
// first of the last 8 lost, three duplicate ACKs, its resend and three
// new segments. It returns the recovery's end (the highest sequence sent
// before it).
func (r *renoRun) firstRecovery() (end int64) {
	r.seq = 1
	for _, n := range []int{2, 4, 8} {
		r.send(n)
		r.ms += 100
		r.b.ack(r.ms, r.seq, 1<<20, 0)
		r.flight = 0
	}
	r.send(8)
	r.ms += 100
	for i := range 3 {
		r.b.ack(r.ms+float64(i), r.seq-8000, 1<<20, DupAck)
	}
	r.b.data(r.ms+3, r.seq-8000, 1000, Retransmission).Info.BytesInFlight = 8000
	r.ms += 10
	end = r.seq
	r.send(3)
	return end
}

// renoVoted starts a transfer without SACK whose first fast retransmit,
// from a window of 8 segments, settles at 4 (Reno's half: the vote),
// then grows to 12 segments; it gives the next sequence number and time.
func renoVoted(b *builder) (seq int64, ms float64) {
	r := &renoRun{b: b}
	e := r.firstRecovery()
	r.ms += 100
	b.ack(r.ms, e+1000, 1<<20, 0) // above the recovery's end: no hold
	r.flight = 2000
	r.send(2)
	r.ms += 100
	b.ack(r.ms, r.seq, 1<<20, 0)
	r.flight = 0
	r.send(8)
	r.ms += 100
	b.ack(r.ms, r.seq, 1<<20, 0)
	r.flight = 0
	r.send(12)
	r.ms += 100
	b.ack(r.ms, r.seq, 1<<20, 0)
	return r.seq, r.ms
}

// TestPRRFallWithoutSACK: in a fast retransmit's recovery without SACK
// an ACK that no send followed left cwnd where PRR set it
// (tcp_cwnd_reduction: the packets in flight, each duplicate ACK one
// segment delivered, and the segments it lets go — none, or the sender
// would have sent them): the line falls to it at that ACK rather than
// at the next send (kw_reno_nosack_vsat: windows of a few segments, the
// line a segment above the kernel's cwnd for an ACK's interval each time
// PRR let nothing go). A window of 12 reduced to Reno's 6: at the
// fourth duplicate ACK PRR has let out one segment of ceil(6·2/12) = 1,
// none more: cwnd is the 8 segments in flight.
func TestPRRFallWithoutSACK(t *testing.T) {
	b := &builder{}
	seq, ms := renoVoted(b)
	for range 12 {
		b.data(ms, seq, 1000, 0)
		seq += 1000
	}
	head := seq - 12000
	ms += 100
	for i := range 3 {
		b.ack(ms+float64(i), head, 1<<20, DupAck)
	}
	b.data(ms+3, head, 1000, Retransmission) // the fast retransmit: 9 in flight
	b.ack(ms+4, head, 1<<20, DupAck)         // the fourth: nothing sent after it
	b.ack(ms+5, head, 1<<20, DupAck)         // the fifth: PRR lets one go
	b.data(ms+5, seq, 1000, 0)
	b.ack(ms+100, seq+1000, 1<<20, 0)
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	if v := lineAt(g, ms+3); v != 9000 {
		t.Fatalf("the line at the fast retransmit %.0f, want 9000 (12 out, 3 delivered, 1 resent)", v)
	}
	if v := lineAt(g, ms+4); v != 8000 {
		t.Errorf("the line at the fourth duplicate ACK, no send after it, %.0f, want PRR's cwnd 8000", v)
	}
}

// TestLossStartFromEachAlgorithmsLine: a timeout where the line's steps
// still wait for the algorithm (no episode has shown it) starts the
// loss state under each algorithm from that algorithm's line, not from
// the line shown meanwhile: after a recovery the receiver's window held
// (the pipe below PRR's window, which grew to each algorithm's
// ssthresh), Linux's cwnd at the timer is that ssthresh and
// tcp_enter_loss halves it (k18_reno_nosack_ackloss_l1, fresh held-out
// kernel run: the kernel's loss-state ssthresh 28 segments, the line's
// 21 from the 41.6 in flight, so every episode after it measured 11 for
// the kernel's 14: ssthresh 39% -> 100% of 23 episodes).
func TestLossStartFromEachAlgorithmsLine(t *testing.T) {
	b := newCwndBuilder(SeriesOptions{Conn: testConn()})
	b.ep.maxSeg = 1000
	b.line = 6000 // shown meanwhile: the pipe the receiver's window held
	b.deferred = []deferredStep{{vals: [3]int64{20000, 28000, 6000}}}
	b.lossStart(false, false)
	if got := [2]int64{b.loss[VoteReno].ss, b.loss[VoteCubic].ss}; got != [2]int64{10000, 19000} {
		t.Errorf("the loss state's ssthresh under Reno and CUBIC %v, want [10000 19000] (half of 20, 717/1024 of 28)", got)
	}
	if b.loss[VoteReno].cwnd != 1000 || b.loss[VoteCubic].cwnd != 1000 {
		t.Errorf("the loss state's cwnd %d, %d, want one segment", b.loss[VoteReno].cwnd, b.loss[VoteCubic].cwnd)
	}
}

// TestTimeoutAfterRecoveryFromSsthresh: a timeout with no burst since a
// fast retransmit's recovery ended reduces the ssthresh Linux set cwnd to
// at that end (tcp_end_cwnd_reduction), not PRR's window short of it
// (k20_cubic_nosack_reverse_l1: PRR at 80 segments, ssthresh 92, the
// timer's ssthresh 64); once a burst measured the open window, the line.
func TestTimeoutAfterRecoveryFromSsthresh(t *testing.T) {
	b := newCwndBuilder(SeriesOptions{Conn: testConn()})
	b.ep.maxSeg = 1000
	b.line = 80000
	b.open[VoteReno] = openWindow{recovered: true, ss: 57000}
	b.open[VoteCubic] = openWindow{recovered: true, ss: 92000}
	if got := [2]int64{b.timeoutWindow(VoteReno), b.timeoutWindow(VoteCubic)}; got != [2]int64{80000, 92000} {
		t.Errorf("windows a timeout reduces %v, want [80000 92000] (the line above Reno's ssthresh, CUBIC's ssthresh above the line)", got)
	}
	b.lossStart(false, false)
	if got := b.loss[VoteCubic].ss; got != 64000 {
		t.Errorf("the loss state's ssthresh under CUBIC %d, want 64000 (717/1024 of 92)", got)
	}
	b.open[VoteCubic].w = 85000 // a burst measured it since
	if got := b.timeoutWindow(VoteCubic); got != 80000 {
		t.Errorf("after a burst: %d, want the line, 80000", got)
	}
}

// TestLineUnderShrunkWindow: outside recovery the line is the largest
// flight of the last two round trips, but never above the receiver's
// window at the burst: a proxy that shrinks its window from a round trip
// to the next (k21_cubic_pep_l1: 240 segments, then 83) holds the sender
// to it (cwnd 62.3% -> 78.3% of the kernel's probes on the proxy's leg).
func TestLineUnderShrunkWindow(t *testing.T) {
	b := &builder{}
	seq, ms := int64(1), 0.0
	for _, n := range []int{2, 4, 8, 16} {
		for i := range n {
			b.data(ms, seq, 1000, 0).Info.BytesInFlight = int64(i+1) * 1000
			seq += 1000
		}
		ms += 10
		b.ack(ms, seq, 1<<20, 0)
	}
	b.ack(ms+1, seq, 8000, 0) // the window shrinks to 8 segments
	for i := range 8 {
		b.data(ms+2, seq, 1000, 0).Info.BytesInFlight = int64(i+1) * 1000
		seq += 1000
	}
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	if v := lineAt(g, ms-1); v != 16000 {
		t.Fatalf("the line before the window shrank %.0f, want 16000", v)
	}
	if v := lineAt(g, ms+3); v != 8000 {
		t.Errorf("the line after a burst under an 8000-byte window %.0f, want 8000, the window (not the larger window the round trips before had)", v)
	}
}

// heldWindowLoss adds a transfer whose flight the receiver's window (win,
// 20 segments) held, then a window of it of which the first segment is
// lost: the 19 after it arrive (duplicate ACKs, the third answered by the
// fast retransmit). It returns the next sequence number to send and the
// time (ms) of the first duplicate ACK.
func heldWindowLoss(b *builder, win int64) (seq int64, ms float64) {
	seq = 1
	for _, n := range []int{10, 20, 20, 20} { // slow start to the window, then held by it
		for i := range n {
			b.data(ms, seq, 1000, 0).Info.BytesInFlight = int64(i+1) * 1000
			seq += 1000
		}
		ms += 100
		b.ack(ms, seq, win, 0)
	}
	lost := seq
	for i := range 20 {
		b.data(ms+1, seq, 1000, 0).Info.BytesInFlight = int64(i+1) * 1000
		seq += 1000
	}
	ms += 100
	for k := range 19 { // the 19 segments after the lost one arrive
		b.ack(ms+float64(k)*0.1, lost, win, DupAck)
		if k == 2 {
			b.data(ms+0.35, lost, 1000, Retransmission|FastRetransmission).Info.BytesInFlight = 20000
		}
	}
	return seq, ms
}

// TestRecoveryUnderHeldWindow: a sender whose flight the receiver's
// window held (20 segments) still cuts its window in fast recovery: the
// line falls with PRR, not held at the window it had before the loss
// (k27_reno_rwnd40_l05: the line stayed at the 49 KB window through
// recovery and after it, 27 segments where the kernel's cwnd was 20, and
// the next ssthresh read 13 for 10; on the kernel runs under a receive
// window cwnd 93.6 -> 99.4%, 92.3 -> 95.3%, 93.8 -> 99.6%).
func TestRecoveryUnderHeldWindow(t *testing.T) {
	b := &builder{}
	const win = 20000
	seq, ms := heldWindowLoss(b, win)
	recovery := ms + 2
	b.ack(ms+100, seq, win, 0) // the resend's ACK ends recovery
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	if v := lineAt(g, ms-1); v != win {
		t.Fatalf("the line before the loss %.0f, want the window, %d", v, win)
	}
	if v := lineAt(g, recovery); v >= win {
		t.Errorf("the line in recovery %.0f, want below the %d-byte window the sender had filled (PRR cuts cwnd whatever held the flight)", v, win)
	}
}

// TestHoldAfterRecoveryWaitingForVote: without SACK the line under
// neither algorithm does not fall in fast recovery; where the steps still
// wait for the algorithm (a first episode) and the receiver's window
// holds the first burst after the recovery (a window of one segment, as
// the receiver hands the data held above the hole to the application),
// the line kept under each algorithm is no higher than that algorithm's
// line as the recovery ended, not the line under neither
// (k28_reno_rwnd28_l1_nosack: the line back at 20 segments after the
// recovery for the kernel's 12, the next episode's ssthresh 9 for 7).
func TestHoldAfterRecoveryWaitingForVote(t *testing.T) {
	b := &builder{}
	const win = 20000
	seq, ms := heldWindowLoss(b, win)
	ms += 100
	b.ack(ms, seq, 1000, 0) // the resend's ACK ends recovery; the window one segment
	b.data(ms+0.1, seq, 1000, 0).Info.BytesInFlight = 1000
	seq += 1000
	b.ack(ms+0.2, seq-1000, win, WindowUpdate) // the window opens again
	for i := range 4 {
		b.data(ms+0.3, seq, 1000, 0).Info.BytesInFlight = int64(i+2) * 1000
		seq += 1000
	}
	cb := newCwndBuilder(SeriesOptions{Conn: testConn()})
	var atEnd [3]int64 // each algorithm's line as the recovery ended
	for i := range b.recs {
		cb.add(&b.recs[i])
		if b.recs[i].Time == t0+int64(ms*1e6) {
			if n := len(cb.deferred); n > 0 {
				atEnd = cb.deferred[n-1].vals
			}
		}
	}
	cb.flush()
	n := len(cb.deferred)
	if n == 0 || atEnd[VoteReno] == 0 {
		t.Fatal("no steps wait for the algorithm: the test wants a first episode, its algorithm not told")
	}
	if atEnd[VoteReno] >= 17000 {
		t.Fatalf("Reno's line as the recovery ended %d, want PRR's fall below the 17 segments out", atEnd[VoteReno])
	}
	if got := cb.deferred[n-1].vals[VoteReno]; got > atEnd[VoteReno] {
		t.Errorf("Reno's line after the held burst %d, want at most the %d it ended the recovery at (not the line under neither, which did not fall)", got, atEnd[VoteReno])
	}
}

// TestSACKFromHandshakeRecords: the cwnd builder takes SACK as in use
// from the SYNs in its records (both offering it), not from the
// connection it was made with, which the streaming scan hands it before
// the tracker has seen the SYN/ACK: an IPv6 capture at 96 bytes, whose
// SACK options all lose their blocks, otherwise never counts SACK at all
// and reads none of its cut options (k24_reno_ipv6_l1 in the CLI: its
// line off the kernel's through every recovery). One SYN without the
// option leaves SACK off.
func TestSACKFromHandshakeRecords(t *testing.T) {
	for _, tt := range []struct {
		synACKOffers bool
		want         bool
	}{{true, true}, {false, false}} {
		b := &builder{}
		b.add(Record{Dir: reassembly.C2S, Flags: reassembly.SYN, SACKOK: true})
		b.add(Record{Time: 1e6, Dir: reassembly.S2C, Flags: reassembly.SYN | reassembly.ACK, HasAck: true, Ack: 1, SACKOK: tt.synACKOffers})
		cb := newCwndBuilder(SeriesOptions{Conn: testConn()}) // its SACKPermitted unset, as early in a scan
		for i := range b.recs {
			cb.add(&b.recs[i])
		}
		if cb.pp.sack != tt.want {
			t.Errorf("SYN/ACK offers SACK %v: SACK in use %v, want %v", tt.synACKOffers, cb.pp.sack, tt.want)
		}
	}
}

// TestGrowthAtSACKsUnderReordering: once Linux has seen reordering deeper
// than its default of three segments (tp->reordering, raised by
// tcp_check_sack_reordering: here a hole filled without a resend below
// six segments SACKed), cwnd grows at every ACK of forward progress, an
// ACK that only SACKs new data too (tcp_may_raise_cwnd), not only at new
// cumulative ACKs: in slow start the four SACK-only ACKs of a flight
// whose first segment came late grow it by four segments, which the ACK
// that fills the hole does not give back (k32_cubic_rwnd48_l1_j2: the
// kernel's cwnd 52 to 65 in disorder on SACKs alone, ssthresh 45 where
// the line had stopped at 52, 37 drawn).
func TestGrowthAtSACKsUnderReordering(t *testing.T) {
	b := &builder{}
	sack := func(ms float64, ack int64, blocks ...[2]int64) {
		r := b.ack(ms, ack, 1<<20, 0)
		for _, bl := range blocks {
			r.SACK[r.NSACK] = bl
			r.NSACK++
		}
	}
	seq, ms := int64(1), 0.0
	send := func(n int) int64 {
		first := seq
		for range n {
			b.data(ms, seq, 1000, 0)
			seq += 1000
		}
		return first
	}
	send(10)
	ms += 100
	b.ack(ms, seq, 1<<20, 0)
	// 20 segments: the first and the fourth late, the ACK that fills the
	// first hole SACKing up to six segments above it.
	s := send(20)
	ms += 100
	sack(ms, s, [2]int64{s + 1000, s + 3000})
	sack(ms+0.1, s+3000, [2]int64{s + 4000, s + 6000})
	for a := s + 6000; a <= s+20000; a += 1000 {
		sack(ms+0.2, a)
	}
	// 40 segments, the first late: four ACKs SACK the next four.
	s = send(40)
	ms += 100
	for k := int64(1); k <= 4; k++ {
		sack(ms+float64(k)*0.1, s, [2]int64{s + 1000, s + 1000 + k*1000})
	}
	for a := s + 5000; a <= s+40000; a += 1000 {
		sack(ms+0.5, a)
	}
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	if v := lineAt(g, ms+0.45); v != 44000 {
		t.Errorf("the line after four SACK-only ACKs %.0f, want 44000 (40 segments, grown by the four SACKed)", v)
	}
	if v := lineAt(g, ms+1); v != 80000 {
		t.Errorf("the line after the flight %.0f, want 80000 (slow start: twice the 40 segments delivered)", v)
	}
}

// TestSsthreshLastsToTheLastSend: the last ssthresh is drawn to the
// line's last send, as the line is (a step line's last step has no
// length: a connection of one episode, k36_cubic_q500k_100ms, drew no
// ssthresh at all); not where it ends there already, nor outside a time
// window that leaves the last send out.
func TestSsthreshLastsToTheLastSend(t *testing.T) {
	for _, tt := range []struct {
		name     string
		lastTime int64
		window   Range
		want     int
	}{
		{"one episode, sends after it", 9e9, Range{}, 2},
		{"the last send at the episode", 5e9, Range{}, 1},
		{"a window before the last send", 9e9, Range{Max: 6e9, HasMax: true}, 1},
	} {
		b := newCwndBuilder(SeriesOptions{Time: tt.window})
		b.lastTime, b.lastFrame = tt.lastTime, 900
		g := &Graph{Series: []Series{{Name: SeriesSsthresh, Kind: Steps, Points: []Point{{Frame: 500, Time: 5e9, V: [3]float64{291048}}}}}}
		b.closeSsthresh(g)
		ps := g.Series[0].Points
		if len(ps) != tt.want {
			t.Errorf("%s: %d points, want %d", tt.name, len(ps), tt.want)
			continue
		}
		if last := ps[len(ps)-1]; tt.want == 2 && (last.Time != tt.lastTime || last.Frame != 900 || last.V[0] != 291048) {
			t.Errorf("%s: closing point %+v, want the last send's time and frame at 291048", tt.name, last)
		}
	}
}

// TestCwndViewFollowsStats: given the direction's statistics, the cwnd
// graph's view follows their congestion_control, as the summary names
// it from facts of the whole transfer the graph's records alone do not
// gather (HyStart's end of slow start, BBR's drain): Reno's or CUBIC's
// ssthresh where the graph's own episodes leave the algorithm unknown
// (one timeout, nothing measured), BBR's model and pipe for BBR — drawn
// from the records (GraphSpec.Draw) and as the capture is read
// (graphBuild.graphs, which gets the statistics only at the end).
func TestCwndViewFollowsStats(t *testing.T) {
	b, _, _ := lossRun(false)
	spec, _ := lookupGraph(GraphCwnd)
	draw := func(cc string) *Graph {
		o := SeriesOptions{Conn: testConn()}
		if cc != "" {
			o.Stats = &DirStats{CongestionControl: cc, Path: PathStats{Vantage: VantageSender}}
		}
		return spec.Draw(b.recs, o, GraphParams{})
	}
	ssOf := func(g *Graph) float64 {
		s := g.lookup(SeriesSsthresh)
		if s == nil || len(s.Points) == 0 {
			t.Fatalf("no ssthresh in %v", names(g))
		}
		return s.Points[0].V[0]
	}
	reno, cubic := ssOf(draw("reno")), ssOf(draw("cubic"))
	if reno == cubic || cubic < 1.3*reno || cubic > 1.5*reno {
		t.Errorf("ssthresh under Reno %.0f, under CUBIC %.0f: want CUBIC's 717/1024 against Reno's half of the same window", reno, cubic)
	}
	bbrView := func(g *Graph) bool { return g.lookup(SeriesSsthresh) == nil && g.lookup(SeriesPipe) != nil }
	if g := draw("bbr"); !bbrView(g) {
		t.Errorf("named bbr, drawn from the records: series %v, want BBR's view (the pipe, no ssthresh)", names(g))
	}
	if bbrView(draw("")) || bbrView(draw("cubic")) {
		t.Error("BBR's view drawn for a sender not named BBR")
	}
	// Statistics away from the sender name nothing (unknown): the
	// graph's own reading stands.
	away := spec.Draw(b.recs, SeriesOptions{Conn: testConn(), Stats: &DirStats{CongestionControl: "bbr", Path: PathStats{Vantage: VantageReceiver}}}, GraphParams{})
	if bbrView(away) {
		t.Error("BBR's view drawn from the statistics of a capture away from the sender")
	}

	gb := newGraphBuild([]GraphRequest{{Spec: spec}}, int(reassembly.C2S), false)
	c := testConn()
	for i := range b.recs {
		gb.add(c, 0, &b.recs[i])
	}
	gs, _ := gb.graphs(c, reassembly.C2S, &DirStats{CongestionControl: "bbr", Path: PathStats{Vantage: VantageSender}})
	if !bbrView(gs[0]) {
		t.Errorf("named bbr, drawn as the capture is read: series %v, want BBR's view", names(gs[0]))
	}
	// Both builders read them: the one drawn under the other algorithm
	// too (cwndVotes), which the vote may pick.
	v := newCwnd(SeriesOptions{Conn: c}).(*cwndVotes)
	st := &DirStats{CongestionControl: "cubic"}
	v.readStats(st)
	if v.first.f.o.Stats != st || v.other.f.o.Stats != st {
		t.Error("readStats left a builder without the statistics")
	}
}

// TestBBRTSOGoal: BBR's window keeps three TSO goals above its BDP's
// gain, a goal being the segments its rate sends in a millisecond, at
// least two, one below 1.2 Mbit/s, at most a 64 KB GSO packet's
// (bbr_tso_segs_goal, bbr_min_tso_segs): k36_bbr_q1m_20ms_20m's kernel
// at 82 segments over a BDP of about 38, at 20 Mbit/s.
func TestBBRTSOGoal(t *testing.T) {
	for _, tt := range []struct {
		mbit float64
		want int64 // segments
	}{{0, 2}, {1, 1}, {20, 2}, {100, 8}, {400, 33}, {1000, 45}, {10000, 45}} {
		b := newCwndBuilder(SeriesOptions{})
		b.pp.maxSeg = 1448
		if tt.mbit > 0 {
			b.bw[0], b.bwN = tt.mbit*1e6/8/1e9, 1 // bytes a nanosecond
		}
		if got := b.tsoGoal(); got != tt.want*1448 {
			t.Errorf("at %g Mbit/s: %d bytes, want %d segments", tt.mbit, got, tt.want)
		}
		if tt.mbit == 0 {
			continue
		}
		// Drained, the bandwidth full: the window cut to the target at once.
		b.pp.minRTT, b.bdp, b.bwFull, b.bbrW = 20e6, 100*1448, true, 1e9
		b.bbrAck(1e9, 1448, 0, false, false)
		if want := (200 + 3*tt.want) * 1448; b.bbrW != want {
			t.Errorf("at %g Mbit/s: window %d, want twice the BDP and three TSO goals, %d", tt.mbit, b.bbrW, want)
		}
	}
}

// TestBBRSeriesLastToTheLastSend: in BBR's view the BDP estimate is
// drawn to the line's last send, as the line and the pipe are
// (testdata/io/io_cubic2_bbr: it stopped at 3.85 s, the line at 4.19).
func TestBBRSeriesLastToTheLastSend(t *testing.T) {
	l, err := Load(capturetest.Opener(t, "../testdata/io/io_cubic2_bbr.pcap.gz"), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := lookupGraph(GraphCwnd)
	g := spec.Draw(l.Records, SeriesOptions{Conn: l.Conn, Dir: l.Dir, Stats: &l.Stats[l.Dir]}, GraphParams{})
	line, bdp := g.lookup(SeriesCwnd), g.lookup(SeriesBDP)
	if line == nil || bdp == nil || g.lookup(SeriesPipe) == nil {
		t.Fatalf("series %v, want BBR's view with its BDP estimate", names(g))
	}
	line.unpack()
	bdp.unpack()
	if a, b := line.Points[len(line.Points)-1], bdp.Points[len(bdp.Points)-1]; a.Time != b.Time || a.Frame != b.Frame {
		t.Errorf("the BDP estimate ends at frame %d (%d ns), the line at frame %d (%d ns)", b.Frame, b.Time, a.Frame, a.Time)
	}
}
