package analyze

import "testing"

// TestOpenWindowFollowsLinux: outside recovery the window a sender does
// not fill is Linux's, not the flight: slow start grows it while half was
// used, an idle RTO restarts it from the initial window, an RTO of not
// filling it lowers it halfway to what was used.
func TestOpenWindowFollowsLinux(t *testing.T) {
	const seg, rtt = 1000, 100e6
	rto := rtoOf(rtt)
	// The initial window, six segments of it out, acknowledged: slow
	// start adds them (10 < 2 × 6).
	o := openWindow{w: initialWindow * seg}
	o.send(0, 0, seg, rto)
	o.burst(0, 6*seg, 6*seg, 6*seg, 6*seg, 0, seg, rto, false)
	if w := o.ack(0, 6*seg, seg, false); w != 16*seg {
		t.Fatalf("after the ACK %d, want 16 segments (10 + 6: tcp_slow_start)", w)
	}
	// Four out: 16 ≥ 2 × 6 no more (max_packets_out is still 6 in this
	// window of data): no growth.
	o.burst(1e6, 4*seg, 4*seg, 4*seg, 10*seg, 6*seg, seg, rto, false)
	if w := o.ack(0, 4*seg, seg, false); w != 16*seg {
		t.Fatalf("an ACK while less than half was used grew the window to %d", w)
	}
	// Idle for 3.5 RTOs with nothing outstanding: halved three times,
	// not below the initial window.
	o.send(1e6+rto*7/2, 0, seg, rto)
	if o.w != initialWindow*seg {
		t.Fatalf("after idling %d, want the initial window (16 halved, at least 10)", o.w)
	}

	// Out of slow start, 40 segments, 15 used for an RTO: halfway, 27.5.
	o = openWindow{w: 40 * seg, ssOver: true, maxOut: 40 * seg, usageSeq: 1 << 40}
	o.burst(0, 15*seg, 15*seg, 15*seg, 1<<30, 0, seg, rto, false)
	o.burst(rto, 15*seg, 15*seg, 15*seg, 1<<30, 0, seg, rto, false)
	if o.w != 27500 {
		t.Fatalf("after an RTO of 15 used of 40: %d, want 27500 (tcp_cwnd_application_limited)", o.w)
	}
}

// TestOpenWindowHyStart: CUBIC's HyStart ends slow start, the window
// kept, when a round's least RTT of eight samples rose by an eighth of
// the least RTT (at least 4 ms), or when ACKs came in a train (at most
// 2 ms apart) for half the least RTT; not below 16 segments, not for a
// smaller rise or a train with gaps.
func TestOpenWindowHyStart(t *testing.T) {
	const seg = 1000
	slow := func() *openWindow { return &openWindow{w: 20 * seg, maxOut: 20 * seg, usageSeq: 1 << 40} }
	// Delay: the least RTT 100 ms; a round of samples at 110 ms, then
	// one at 114 ms.
	for _, tc := range []struct {
		rtt  int64
		over bool
	}{{110e6, false}, {113e6, true}} {
		o := slow()
		o.hystart(0, 1, 1, 100e6, seg) // a round of its own
		for i := range int64(10) {
			o.hystart(10e6*(i+1), 2+i, 1<<20, tc.rtt, seg) // 10 ms apart: no train
		}
		if o.ssOver != tc.over {
			t.Errorf("a round at %d ms after a least RTT of 100 ms: slow start over %v, want %v", tc.rtt/1e6, o.ssOver, tc.over)
		}
	}
	// A train: ACKs 1 ms apart from the round's start for 51 ms.
	o := slow()
	for i := range int64(52) {
		o.hystart(1e6*i, 1+i, 1<<20, 100e6, seg)
	}
	if !o.ssOver || o.w != 20*seg {
		t.Errorf("a train of half the RTT: over %v, window %d; want over at 20 segments", o.ssOver, o.w)
	}
	// The same with a 3 ms gap: the train ended.
	o = slow()
	for i := range int64(52) {
		ts := 1e6 * i
		if i > 20 {
			ts += 3e6
		}
		o.hystart(ts, 1+i, 1<<20, 100e6, seg)
	}
	if o.ssOver {
		t.Error("a train with a 3 ms gap ended slow start")
	}
	// A short round trip (a nearby proxy): the train is judged against
	// half the least RTT plus four GSO bursts at the pacing rate
	// (hystart_ack_delay, Linux 5.7 on). Least RTT 60 µs, smoothed 250
	// µs, 100 segments of 1448 bytes: (60 + 226) / 2 = 143 µs; a train
	// of 120 µs leaves slow start going (half the least RTT alone, 30
	// µs, would have ended it), one of 200 µs ends it.
	for _, tc := range []struct {
		train int64
		over  bool
	}{{120e3, false}, {200e3, true}} {
		o := &openWindow{w: 100 * 1448, maxOut: 100 * 1448, usageSeq: 1 << 40}
		o.hystart(0, 1, 1, 60e3, 1448) // the least RTT, a round of its own
		for i := range int64(9) {
			o.hystart(10e6*(i+1), 2+i, 2+i, 250e3, 1448) // rounds of one sample: the smoothed RTT
		}
		for i := range int64(11) {
			o.hystart(1e9+tc.train*i/10, 100+i, 1<<20, 250e3, 1448)
		}
		if o.ssOver != tc.over {
			t.Errorf("a train of %d µs on a 60 µs path: slow start over %v, want %v", tc.train/1e3, o.ssOver, tc.over)
		}
	}
	// Below 16 segments HyStart does nothing.
	o = slow()
	o.w = 15 * seg
	for i := range int64(52) {
		o.hystart(1e6*i, 1+i, 1<<20, 100e6, seg)
	}
	if o.ssOver {
		t.Error("HyStart under 16 segments")
	}
}

// TestHyStartRoundBelowLowWindow: HyStart's rounds start below its 16
// segments too (hystart_update resets the round when the cumulative ACK
// passes its end before it looks at cwnd), so a round begun under 16
// segments ends where Linux's does, and the next round's eight samples,
// all risen, end slow start (kx_cubic_vsat_l05: the kernel's round began
// at the first ACK of a flight, at 89 segments; begun where the window
// reached 16, the rounds straddled flights and slow start ran on to 103).
func TestHyStartRoundBelowLowWindow(t *testing.T) {
	const seg = 1000
	o := &openWindow{w: 10 * seg, maxOut: 10 * seg, usageSeq: 1 << 40}
	o.hystart(0, 1, 1, 100e6, seg)       // the least RTT, a round of its own
	o.hystart(10e6, 2, 1000, 100e6, seg) // a round to 1000 begins at 10 segments
	o.w = 20 * seg
	for i := range int64(6) {
		o.hystart(20e6+10e6*i, 3+i, 1500, 100e6, seg) // in it, at 20 segments
	}
	for i := range int64(9) {
		// The next round: nine samples 20 ms above the least RTT, 10 ms
		// apart (no train).
		o.hystart(100e6+10e6*i, 1001+i, 2000, 120e6, seg)
	}
	if !o.ssOver || o.ss != 20*seg {
		t.Errorf("a round of risen samples after one begun at 10 segments: slow start over %v at %d, want over at 20 segments", o.ssOver, o.ss/seg)
	}
}

// TestOpenWindowSlowStartBelowSsthresh: Linux is in slow start whenever
// cwnd is below ssthresh (tcp_in_slow_start), not only at the start: after
// a loss episode (cwnd at its ssthresh) and an idle RTO the window
// restarts halved (tcp_cwnd_restart, ssthresh kept: tcp_current_ssthresh)
// and slow start brings it back, by what each ACK delivers while half of
// it is used, up to ssthresh and no further (tcp_slow_start). Under no
// known ssthresh (0) it grows only as measured.
func TestOpenWindowSlowStartBelowSsthresh(t *testing.T) {
	const seg, rtt = 1000, 100e6
	rto := rtoOf(rtt)
	for _, tc := range []struct {
		ss, want int64
	}{{64 * seg, 64 * seg}, {0, 32 * seg}} {
		o := openWindow{lastSend: 1, sent: true}
		o.reset(tc.ss, 0, seg, false)
		// The first send after the episode, after 1.3 RTOs idle: from
		// ssthresh, halved once (or, unknown, the flight measured).
		o.send(1+rto*13/10, 0, seg, rto)
		o.burst(2+rto*13/10, 32*seg, 32*seg, 32*seg, 32*seg, 0, seg, rto, false)
		if o.w != 32*seg {
			t.Fatalf("ssthresh %d: after the idle restart %d, want 32 segments", tc.ss, o.w)
		}
		for i := range int64(40) { // a segment acknowledged, one sent, 32 out
			o.ack(0, seg, seg, false)
			o.burst(3+rto*13/10+i, 32*seg, 32*seg, 32*seg, (33+i)*seg, (1+i)*seg, seg, rto, false)
		}
		if o.w != tc.want {
			t.Errorf("ssthresh %d: after 40 segments acknowledged %d, want %d", tc.ss, o.w, tc.want)
		}
		if tc.ss > 0 && o.ss != tc.ss {
			t.Errorf("ssthresh %d after the restart, want %d kept (max(ssthresh, 3/4 cwnd))", o.ss, tc.ss)
		}
	}
}

// TestOpenWindowAvoidWhileLimited: Linux grows the window in congestion
// avoidance while the socket is window-limited (tcp_is_cwnd_limited),
// which tcp_cwnd_validate latches for the window of data in which a
// send found it full — also after the sender stopped filling it
// (ku_cubic_app2m: an application-paced CUBIC sender restarted after
// idling, slow start back to ssthresh 64 filling the window, then its
// last 58 segments acknowledged: the kernel's cwnd 64 → 70, ssthresh 49
// at the next loss). CUBIC's curve grows it towards the window before
// the last reduction (92), Reno by a segment per window; neither
// algorithm, or a window not full in this window of data, not at all.
func TestOpenWindowAvoidWhileLimited(t *testing.T) {
	const seg, rtt = 1000, 100e6
	rto := rtoOf(rtt)
	run := func(ca caAlgo, fill bool) int64 {
		now := int64(10e9)
		// After idling for 10 s the window restarts (64 halved down to
		// 10), slow start from 34 segments out, the window full, back to
		// 64; or, not filling it, 20 out of the 64 measured after the
		// episode (no idle restart), for less than an RTO
		// (tcp_cwnd_application_limited).
		out, measured, data, last := int64(34*seg), int64(34*seg), int64(100*seg), int64(1)
		if !fill {
			out, measured, data, last = 20*seg, 64*seg, 40*seg, now-1e6
		}
		o := openWindow{ca: ca, lastSend: last, sent: true}
		o.cubic.lastMax = 92 // the window at the reduction before
		o.reset(64*seg, 92*seg, seg, false)
		o.delayMin = 50e6
		o.send(now, 0, seg, rto)
		o.burst(now, out, measured, out, out, 0, seg, rto, false)
		una, high := int64(0), out
		for una < high {
			now += 5e6
			una += seg
			o.ack(now, seg, seg, false)
			for high < data && high-una < o.w && (fill || high-una < 20*seg) {
				high += seg
			}
			o.burst(now, high-una, high-una, high-una, high, una, seg, rto, false)
		}
		return o.w / seg
	}
	// CUBIC: 64, then its curve's growth (towards the plateau at 92,
	// K = ∛(28 / 0.4) = 4.1 s) for the rest of the window.
	if w := run(caCubic, true); w < 67 || w > 70 {
		t.Errorf("CUBIC, window-limited: %d segments, want 67 to 70 (the curve towards 92)", w)
	}
	// Reno: a segment per 64 delivered, fewer than that after slow
	// start ended.
	if w := run(caReno, true); w != 64 {
		t.Errorf("Reno, window-limited: %d segments, want 64 (less than a window delivered in congestion avoidance)", w)
	}
	if w := run(caNone, true); w != 64 {
		t.Errorf("neither algorithm: %d segments, want ssthresh's 64", w)
	}
	if w := run(caCubic, false); w != 64 {
		t.Errorf("CUBIC, never window-limited: %d segments, want the 64 it had", w)
	}
}

// TestOpenWindowAfterHeldRecovery: the first burst after a fast
// retransmit's episode sets the open window where the sender filled it;
// where the receiver's window held it, or the end left nothing
// outstanding (the sender paces out again from nothing), Linux's cwnd is
// the episode's ssthresh all the same (kz_cubic_rwnd32: 37 segments, 2
// in the first burst after a drained end, 25 at the next loss). So is
// it where that burst is below HyStart's low window, 16 segments: HyStart
// lowers ssthresh to cwnd only from there (k10_cubic_app2m_l07,
// kz_reno_rwnd64_l1).
func TestOpenWindowAfterHeldRecovery(t *testing.T) {
	const seg, rto = 1000, 300e6
	for _, tt := range []struct {
		held        bool
		timeout     bool
		burst       int64
		want, ssNow int64
	}{
		{held: true, burst: 2, want: 37, ssNow: 37},
		{held: false, burst: 2, want: 37, ssNow: 37}, // below HyStart's low window
		{held: false, burst: 20, want: 20, ssNow: 20},
		{held: true, timeout: true, burst: 2, want: 2, ssNow: 2}, // after a timeout slow start's window is measured
	} {
		var o openWindow
		o.ca = caCubic
		o.reset(37*seg, 54*seg, seg, tt.timeout)
		b := tt.burst * seg
		if w := o.burst(1e9, b, b, b, 100*seg, 100*seg-b, seg, rto, tt.held); w != tt.want*seg || o.ss != tt.ssNow*seg {
			t.Errorf("held %v, timeout %v, burst %d: window %d, ssthresh %d; want %d, %d", tt.held, tt.timeout, tt.burst, w/seg, o.ss/seg, tt.want, tt.ssNow)
		}
	}
}

// TestAfterRecoveryAtSsthresh: the open window after a fast retransmit's
// episode starts at ssthresh (atSsthresh) under Reno and CUBIC, where PRR's
// cwnd fell below ssthresh too (Linux in slow start in recovery, where
// CUBIC's HyStart runs: none of the 112 kernel runs on this machine
// lowered ssthresh there; kf_100ms_8m_q60k_l1, measured from its first
// burst, cut from 60 segments instead of Linux's 80); PRR's cwnd marks
// slow start below ssthresh only.
func TestAfterRecoveryAtSsthresh(t *testing.T) {
	const seg = 1000
	p := prrState{on: true, prior: 80 * seg, ss: 56 * seg, cwnd: -1}
	p.ack(seg, 30*seg, false, seg) // pipe 30 below ssthresh: cwnd 31
	if !p.slowStart {
		t.Errorf("PRR's cwnd %d below ssthresh 56: not marked slow start", p.cwnd/seg)
	}
	p = prrState{on: true, prior: 80 * seg, ss: 56 * seg, cwnd: -1}
	p.ack(seg, 70*seg, false, seg) // pipe above ssthresh: proportional
	if p.slowStart {
		t.Errorf("PRR's cwnd %d above ssthresh 56: marked slow start", p.cwnd/seg)
	}
	var b cwndBuilder
	b.prr[VoteCubic].slowStart = true // HyStart could have lowered ssthresh: no kernel run did
	b.prr[VoteReno].slowStart = true  // Reno has no HyStart
	for _, tt := range []struct {
		i    int
		want bool
	}{{VoteReno, true}, {VoteCubic, true}, {neitherVote, false}} {
		if got := b.atSsthresh(tt.i); got != tt.want {
			t.Errorf("algorithm %d: at ssthresh %v, want %v", tt.i, got, tt.want)
		}
	}
}

// TestHeldSsthreshRestore: an episode's ssthresh a first burst below it
// lowered comes back where the flight reaches it sooner than congestion
// avoidance could grow it (k10_cubic_app2m_l07: 43 segments, then 70
// three round trips later), not where it crept there a segment a round
// trip (a first burst of 40 for 42, then 41 and 42).
func TestHeldSsthreshRestore(t *testing.T) {
	const seg, rto, rtt = 1000, 300e6, 100e6
	for _, tt := range []struct {
		first, then int64 // segments
		rounds      int64
		want        int64 // ssthresh after
	}{
		{first: 43, then: 70, rounds: 3, want: 70},
		{first: 40, then: 42, rounds: 2, want: 40},
		{first: 43, then: 70, rounds: 5, want: 43}, // past heldRounds
	} {
		var o openWindow
		o.ca = caCubic
		o.reset(tt.then*seg, 100*seg, seg, false)
		o.srtt = rtt
		o.burst(1e9, tt.first*seg, tt.first*seg, tt.first*seg, 200*seg, 200*seg-tt.first*seg, seg, rto, false)
		t1 := 1e9 + tt.rounds*rtt
		o.burst(t1, tt.then*seg, tt.then*seg, tt.then*seg, 300*seg, 300*seg-tt.then*seg, seg, rto, false)
		if o.ss != tt.want*seg {
			t.Errorf("first burst %d, %d after %d round trips: ssthresh %d, want %d", tt.first, tt.then, tt.rounds, o.ss/seg, tt.want)
		}
	}
}

// TestRenoGrowthUnseen: under Reno, with the window full, the segment
// congestion avoidance adds at an ACK is kept aside (unseen) from the
// window measured, and drawn at that ACK (ack's value) unless it SACKs
// above a hole, until a burst's flight reaches it (kb_80ms_2m_q10k_j6_reno: the
// kernel's cwnd a segment above the flight at recoveries of 4 to 10
// segments); a flight above both the window and that growth starts
// Linux's count again, as its adding a segment does (tcp_cong_avoid_ai;
// ke_200ms_6m_q80k_l1_reno: carried over, the count ran a step ahead).
// CUBIC keeps its growth aside too, for the window a fast retransmit
// reduces, but does not draw it (its curve, from the capture, is not
// exact enough to draw: see openWindow.ack).
func TestRenoGrowthUnseen(t *testing.T) {
	const seg, rto = 1000, 300e6
	start := func(ca caAlgo) *openWindow {
		o := &openWindow{ca: ca, sent: true}
		o.reset(4*seg, 8*seg, seg, false)
		o.burst(1e9, 6*seg, 6*seg, 6*seg, 6*seg, 0, seg, rto, true)  // the window: 6 segments
		o.burst(1e9, 6*seg, 6*seg, 6*seg, 6*seg, 0, seg, rto, false) // full (tcp_cwnd_validate's latch)
		return o
	}
	o := start(caReno)
	var drawn int64
	for i := int64(1); i <= 3; i++ { // 6 segments delivered: one more
		drawn = o.ack(1e9+i*1e6, 2*seg, seg, false)
	}
	if o.w != 6*seg || o.unseen != 7*seg || drawn != 7*seg {
		t.Errorf("Reno, a window delivered with the window full: window %d, unseen %d, drawn %d segments; want 6, 7, 7", o.w/seg, o.unseen/seg, drawn/seg)
	}
	// An ACK that SACKs above a hole may enter recovery, where Linux
	// reduces before it grows: the growth is counted, not drawn.
	if drawn := o.ack(1e9+4e6, seg, seg, true); drawn != 6*seg || o.unseen != 7*seg {
		t.Errorf("an ACK with holes above it: drawn %d, unseen %d segments; want 6, 7", drawn/seg, o.unseen/seg)
	}
	// A burst that fills the window measured but not the growth drawn:
	// the line stays at the growth (it does not dip back for a burst).
	if w := o.burst(1.5e9, 6*seg, 6*seg, 6*seg, 12*seg, 6*seg, seg, rto, false); w != 7*seg || o.unseen != 7*seg {
		t.Errorf("a full burst of 6 after growth to 7: drawn %d, unseen %d segments; want 7, 7", w/seg, o.unseen/seg)
	}
	o.burst(2e9, 7*seg, 7*seg, 7*seg, 13*seg, 6*seg, seg, rto, false)
	if o.w != 7*seg || o.unseen != 0 {
		t.Errorf("the flight reached it: window %d, unseen %d segments; want 7, none", o.w/seg, o.unseen/seg)
	}
	o = start(caReno)
	o.ack(1e9+1e6, 2*seg, seg, false) // 2 of the 6 counted
	o.burst(1e9+2e6, 7*seg, 7*seg, 7*seg, 9*seg, 2*seg, seg, rto, false)
	if o.unseenCnt != 0 {
		t.Errorf("a flight above the window and its growth: count %d bytes, want 0 (Linux's count starts again)", o.unseenCnt)
	}
	o = start(caCubic)
	for i := int64(1); i <= 12; i++ { // 40 ms apart: past bictcp_update's HZ/32 hold
		drawn = o.ack(1e9+i*40e6, 2*seg, seg, false)
	}
	if o.unseen <= o.w || drawn != o.w {
		t.Errorf("CUBIC: unseen %d segments, drawn %d of %d; want growth kept aside, the window drawn", o.unseen/seg, drawn/seg, o.w/seg)
	}
}

// TestCubicCountAsLinux: the model's CUBIC count follows tcp_cubic.c's
// where its growth at small windows comes from: bictcp_update keeps its
// cnt for HZ/32 at an unchanged window (tcp_friendliness not run either);
// tcp_friendliness adds a Reno segment only while ack_cnt is above
// w × beta_scale / 8, not at it; a fast retransmit's episode keeps
// delay_min (bictcp_reset only at a timeout).
func TestCubicCountAsLinux(t *testing.T) {
	const seg = 1000
	o := &openWindow{ca: caCubic, w: 10 * seg, delayMin: 50e6}
	o.cubic.lastMax = 10
	first := o.cubicCnt(1e9, seg, seg)
	o.cubic.cnt = 77 // what a recompute would not give
	if got := o.cubicCnt(1e9+20e6, seg, seg); got != 77 {
		t.Errorf("20 ms later at the same window: cnt %d, want the last one kept (HZ/32)", got)
	}
	if got := o.cubicCnt(1e9+40e6, seg, seg); got == 77 {
		t.Errorf("40 ms later: cnt %d kept, want it worked out again (first %d)", got, first)
	}
	// tcp_friendliness at 10 segments: a Reno segment per more than 18
	// (10 × 15 / 8) delivered.
	c := &openWindow{ca: caCubic, w: 10 * seg, delayMin: 50e6}
	c.cubic.lastMax = 10
	c.cubicCnt(1e9, seg, seg) // the epoch: ack_cnt 1, Reno's window 10
	c.cubicCnt(2e9, 17*seg, seg)
	if c.cubic.reno != 10 || c.cubic.ackCnt != 18 {
		t.Errorf("18 delivered: Reno's window %d, ack_cnt %d; want 10, 18 (a segment only above 18)", c.cubic.reno, c.cubic.ackCnt)
	}
	c.cubicCnt(3e9, seg, seg)
	if c.cubic.reno != 11 || c.cubic.ackCnt != 1 {
		t.Errorf("19 delivered: Reno's window %d, ack_cnt %d; want 11, 1", c.cubic.reno, c.cubic.ackCnt)
	}
	c.w = 10 * seg
	c.cubicCnt(4e9, 35*seg, seg) // ack_cnt 36: one Reno segment, 18 left (not two, none)
	if c.cubic.reno != 12 || c.cubic.ackCnt != 18 {
		t.Errorf("36 counted: Reno's window %d, ack_cnt %d; want 12, 18", c.cubic.reno, c.cubic.ackCnt)
	}
	o.reset(7*seg, 10*seg, seg, false)
	if o.delayMin != 50e6 {
		t.Errorf("after a fast retransmit's episode: delay_min %d, want 50 ms kept", o.delayMin)
	}
	o.reset(7*seg, 10*seg, seg, true)
	if o.delayMin != 0 {
		t.Errorf("after a timeout: delay_min %d, want forgotten (bictcp_reset)", o.delayMin)
	}
}
