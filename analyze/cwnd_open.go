package analyze

import "math"

// openWindow follows a Linux sender's congestion window outside loss
// recovery where the capture cannot measure it because the sender did not
// fill it (the application or the receiver's window held it back). There
// Linux's cwnd does not fall with the flight; it
//   - grows in slow start while at least half of it was used
//     (tcp_is_cwnd_limited: cwnd < 2 × max_packets_out; tcp_slow_start:
//     by the segments each ACK of new data delivers),
//     until a loss or HyStart (hystart) ends it; later below ssthresh
//     again (tcp_in_slow_start: cwnd < ssthresh), up to ssthresh;
//   - grows in congestion avoidance, by Reno's or CUBIC's rule (avoid),
//     while the socket is window-limited: tcp_cwnd_validate latches
//     tp->is_cwnd_limited for the window of data in which a send found
//     the window full (until the cumulative ACK passes cwnd_usage_seq),
//     so an application-paced sender that filled it at the end of slow
//     start sees it grow for a round while it uses less (ku_cubic_app2m:
//     the kernel's cwnd 64 to 70 while 56 were out, ssthresh 49 at the
//     next loss).
//     Where the sender fills the window the pipe measures it, growth
//     included, so this counts only where the last burst left more
//     than a segment of it unused;
//   - falls halfway to what was used once an RTO passed without the
//     sender filling it (tcp_cwnd_application_limited, RFC 7661's spirit);
//   - restarts from the initial window, halved once per RTO of idleness
//     but no lower, at the first send after an idle RTO with nothing
//     outstanding (tcp_cwnd_restart, RFC 2861; net.ipv4's
//     tcp_slow_start_after_idle, on by default), also the first send
//     after a loss episode (Linux left it with cwnd at ssthresh).
//     Both falls keep ssthresh at least 3/4 of the window before
//     (tcp_current_ssthresh), so slow start brings it back.
//
// The cwnd line is the larger of this window (no more than the receiver's
// window allowed) and the pipe measured. A loss episode ends it (reset);
// the next burst measured after the episode starts it again.
type openWindow struct {
	w int64 // the window, bytes; 0 unknown
	// tcp_cwnd_validate's: the most outstanding in the current window of
	// data (until the cumulative ACK passes usageSeq).
	maxOut, usageSeq int64
	used             int64 // the most outstanding since stamp (snd_cwnd_used)
	stamp            int64 // when the window was last filled (snd_cwnd_stamp)
	lastSend         int64 // the last data segment's time (lsndtime)
	sent             bool
	// ssOver: the first slow start is over (a loss episode, or HyStart),
	// after which the window grows only as measured (after a timeout the
	// loss state's window, lossState, is drawn until the episode ends).
	ssOver bool
	// ss: ssthresh once known (0: none yet, or unknown after a loss
	// episode: the window then grows only as measured): HyStart's
	// window, the episode's (reset), raised by the falls.
	ss int64
	// HyStart (CUBIC's, Linux's default): the least RTT, the round
	// (until the cumulative ACK passes roundEnd, from roundStart), the
	// last ACK of its train, the least RTT of its first samples.
	delayMin, roundEnd, roundStart, trainAck, roundRTT int64
	samples                                            int
	srtt                                               int64 // the smoothed RTT (tp->srtt_us's)
	// limited: tp->is_cwnd_limited, latched for the window of data
	// (until the cumulative ACK passes usageSeq) in which a send found
	// the window full (see burst).
	limited bool
	// Congestion avoidance (see avoid): ca, the algorithm this window
	// follows (caNone: no growth there); cnt, the bytes delivered
	// towards the next segment (snd_cwnd_cnt, in bytes); cubic, CUBIC's
	// curve.
	ca    caAlgo
	cnt   int64
	pipe  int64 // the last burst's pipe
	cubic cubicCurve
	// recovered: reset by a fast retransmit's episode, whose end left
	// Linux's cwnd at ssthresh (tcp_end_cwnd_reduction; see burst).
	recovered bool
	// heldSs: the episode's ssthresh where the first burst after it
	// lowered it, and when (see burst): a flight that reaches it soon
	// after proves it was not lowered.
	heldSs, heldAt, heldW int64
	// unseen: under Reno, the window congestion avoidance grew to at ACKs
	// while the sender filled it (see ack), until a burst's pipe reaches
	// it (0: none); unseenCnt, its count towards the next segment (cnt's,
	// kept apart so that the measured window w grows as before: the line
	// drawn at those ACKs is the larger of the two).
	unseen, unseenCnt int64
	// exitAt, exitDelivered: under CUBIC, the first ACK after a fast
	// retransmit's episode and what the ACKs delivered until the first
	// burst measured the window, counted then (see ack and burst).
	exitAt, exitDelivered int64
}

// caAlgo is the algorithm an open window grows by in congestion
// avoidance.
type caAlgo uint8

const (
	caNone caAlgo = iota // none known: the window grows only as measured
	caReno
	caCubic
)

// cubicCurve is CUBIC's state (tcp_cubic.c's struct bictcp), windows in
// segments: the window at the last reduction (last_max_cwnd), the
// epoch's start (ns, 0 none), the time to the plateau (bic_K, s), the
// plateau (bic_origin_point), Reno's window for TCP friendliness
// (tcp_cwnd) and the segments delivered towards it (ack_cnt).
type cubicCurve struct {
	lastMax, epoch int64
	k              float64
	origin         int64
	reno, ackCnt   int64
	// cnt, the last cnt bictcp_update worked out (ca->cnt), at the
	// window lastW (last_cwnd, segments) at lastT (last_time, ns).
	cnt, lastW, lastT int64
}

// HyStart's constants (tcp_cubic.c): the window it starts at (segments),
// the samples a round's delay needs, the ACK train's spacing, the
// largest delay it allows a train for the sender's own sending (the
// GSO burst, sk_gso_max_size, of 64 KB).
const (
	hystartLowWindow   = 16
	hystartMinSamples  = 8
	hystartAckDelta    = 2e6
	hystartMaxAckDelay = 1e6
	gsoMaxSize         = 64 << 10
)

// hystart follows CUBIC's HyStart (tcp_cubic.c: hystart_update, Linux's
// default) at an ACK at t of the cumulative ACK una with an RTT sample
// rtt (ns), high the highest end sent: slow start ends, its window kept,
// once an ACK train (ACKs at most 2 ms apart from the round's start)
// lasted half the least RTT, or the least of a round's first eight RTTs
// rose above the least RTT by an eighth of it (4 to 16 ms). A Reno
// sender has no HyStart; it stops the model's growth only where the
// sender did not fill the window.
//
// Its rounds begin at any window, below 16 segments too: Linux resets
// the round whenever the cumulative ACK passes the round's end before it
// looks at cwnd (hystart_update), so they start at the first ACK of each
// flight of slow start; begun only at 16 segments they straddled the
// kernel's (kx_cubic_vsat_l05: a round begun inside a flight kept a
// sample of 614 ms where the kernel's began after it, at 627, and ended
// slow start at 89 segments; the model's ran on to 103).
//
// The train's length is judged as Linux 5.7 on does (hystart_ack_delay,
// for short round trips): half of the least RTT plus the time four GSO
// bursts take at the sender's pacing rate (twice the window per smoothed
// RTT in slow start), at most 1 ms; without it a path of a few hundred
// microseconds (a nearby proxy) would leave slow start at 16 segments.
func (o *openWindow) hystart(t, una, high, rtt, seg int64) {
	if rtt <= 0 {
		return
	}
	if o.delayMin == 0 || rtt < o.delayMin {
		o.delayMin = rtt
	}
	if o.srtt == 0 {
		o.srtt = rtt
	} else {
		o.srtt += (rtt - o.srtt) / 8
	}
	if o.ssOver || !o.slowStart() {
		return
	}
	if una > o.roundEnd {
		o.roundStart, o.trainAck, o.roundEnd, o.roundRTT, o.samples = t, t, high, 0, 0
	}
	if o.w < hystartLowWindow*seg {
		return
	}
	if t-o.trainAck <= hystartAckDelta {
		o.trainAck = t
		if t-o.roundStart > (o.delayMin+o.ackDelay())/2 {
			o.ssOver, o.ss = true, o.w
			return
		}
	}
	if o.roundRTT == 0 || rtt < o.roundRTT {
		o.roundRTT = rtt
	}
	if o.samples < hystartMinSamples {
		o.samples++
		return
	}
	if o.roundRTT > o.delayMin+min(max(o.delayMin/8, 4e6), 16e6) {
		o.ssOver, o.ss = true, o.w
	}
}

// initialWindow is Linux's initial window (TCP_INIT_CWND, RFC 6928), in
// segments.
const initialWindow = 10

// reset forgets the window: a loss episode sets it, and ssthresh to ss
// (0 unknown).
//
// CUBIC's curve starts a new epoch (bictcp_recalc_ssthresh: epoch_start
// 0) from the window at the loss, w (bytes, seg a segment), as
// last_max_cwnd, a little less where it is below the last (fast
// convergence: (1 + β)/2 of it); a timeout (timeout) forgets it
// (cubictcp_state: bictcp_reset in the loss state).
func (o *openWindow) reset(ss, w, seg int64, timeout bool) {
	c := openWindow{lastSend: o.lastSend, sent: o.sent, ssOver: true, ss: ss, ca: o.ca, recovered: !timeout && ss > 0}
	if !timeout {
		// CUBIC's delay_min stands through a fast recovery
		// (bictcp_reset, which clears it, runs in the loss state only):
		// forgotten, the first ACK after the episode saw a curve an RTT
		// short (hystart, which sets it again, runs after openAck).
		c.delayMin = o.delayMin
	}
	if o.ca == caCubic && !timeout && seg > 0 {
		c.cubic.lastMax = w / seg
		if c.cubic.lastMax < o.cubic.lastMax {
			c.cubic.lastMax = c.cubic.lastMax * (1024 + cubicBeta) / 2048
		}
	}
	*o = c
}

// heldRounds is how many smoothed RTTs after a first burst that lowered
// an episode's ssthresh a flight reaching it restores it (openWindow.burst).
const heldRounds = 4

// cubicBeta is CUBIC's β (tcp_cubic.c: beta, of 1024).
const cubicBeta = 717

// keepSsthresh raises ssthresh to 3/4 of the window before a fall
// (tcp_current_ssthresh), where it is known.
func (o *openWindow) keepSsthresh() {
	if o.ss > 0 {
		o.ss = max(o.ss, o.w*3/4)
	}
}

// rto is Linux's retransmission timeout for a smoothed RTT of rtt
// (0: none yet): the RTT and at least TCP_RTO_MIN of variance; 1 s
// before any (RFC 6298).
func rtoOf(rtt int64) int64 {
	if rtt <= 0 {
		return 1e9
	}
	return rtt + 200e6
}

// send takes a data segment sent at t, before it was sent: out bytes
// outstanding (snd_nxt − snd_una), of seg bytes at most. It restarts the
// window after an idle RTO.
func (o *openWindow) send(t, out, seg, rto int64) {
	if o.sent && out == 0 && o.w == 0 && o.ss > 0 && t-o.lastSend > rto {
		o.w = o.ss // after a loss episode: ssthresh, where it ended
	}
	if o.sent && out == 0 && o.cubic.epoch > 0 && t > o.lastSend {
		// CA_EVENT_TX_START (cubictcp_cwnd_event): the curve's epoch
		// moves by the idle time, no later than now.
		o.cubic.epoch = min(o.cubic.epoch+t-o.lastSend, t)
	}
	if o.sent && out == 0 && o.w > 0 && t-o.lastSend > rto {
		o.keepSsthresh()
		restart := min(initialWindow*seg, o.w)
		c := o.w
		for d := t - o.lastSend - rto; d > 0 && c > restart; d -= rto {
			c >>= 1
		}
		o.w, o.stamp, o.used = max(c, restart), t, 0
		// The growth kept aside (unseen) was the window's before the
		// restart (tcp_cwnd_restart lowers cwnd itself): k10_cubic_app2m_l07
		// kept a stale 73 segments over an idle restart.
		o.unseen, o.unseenCnt = 0, 0
	}
	o.lastSend, o.sent = t, true
}

// burst takes the pipe measured after a burst of sends at t (the window
// the sender used; measured: the largest of the last round trips), out
// bytes outstanding (high − una, at una), of seg bytes at most, and gives
// the window; atSs: after a fast retransmit's episode the window starts at
// its ssthresh, Linux's cwnd then (tcp_end_cwnd_reduction), which a first
// burst held back does not measure (cwndBuilder.atSsthresh;
// kz_cubic_rwnd32: 37 segments behind a 28-segment window, the first
// burst after a drained end 2, reduced to 25 at the next loss), nor
// does one below HyStart's low window (hystartLowWindow), which HyStart
// cannot have lowered ssthresh to.
func (o *openWindow) burst(t, pipe, measured, out, high, una, seg, rto int64, atSs bool) int64 {
	if o.w == 0 {
		o.w, o.stamp, o.used = max(pipe, measured), t, 0
		o.maxOut, o.usageSeq, o.pipe = out, high, pipe
		if o.recovered && (atSs || o.w < hystartLowWindow*seg) {
			o.w = max(o.w, o.ss)
		}
		if o.ss > o.w {
			// The flight after the episode is the window it settled at
			// (see lossEpisodes.settle), as it is drawn.
			o.heldSs, o.heldAt, o.heldW = o.ss, t, o.w
			o.ss = o.w
		}
		if o.ca == caCubic {
			// Linux's CUBIC epoch starts at the ACK that ends the
			// recovery (bictcp_update: epoch_start 0 since
			// bictcp_recalc_ssthresh), with cwnd at ssthresh and
			// snd_cwnd_cnt from 0, while the socket is still
			// window-limited (tcp_cwnd_validate's latch, set by the
			// recovery's sends). The model's window is unknown until
			// this first burst: where it fills the window (the latch),
			// the ACKs since are counted now, from ssthresh, into the
			// growth kept aside, as the kernel's curve ran from the
			// exit ACK (kf_44ms_2m_q5k: the kernel's last_max 4 and K
			// 1.36 s, where an epoch begun at the first ACK after this
			// burst had origin 4 and K 0).
			o.limited = pipe+seg > o.w
			if o.exitAt > 0 && o.limited {
				w := o.w
				o.w, o.cnt = max(o.unseen, o.ss), o.unseenCnt
				o.avoid(o.exitAt, o.exitDelivered, seg)
				o.unseen, o.unseenCnt, o.w, o.cnt = o.w, o.cnt, w, 0
			}
			o.exitAt, o.exitDelivered = 0, 0
		}
		return o.w
	}
	if pipe > max(o.w, o.unseen) && o.ca != caNone {
		// The window grew where unseen's count did not reach a segment:
		// Linux counts from 0 again after each segment it adds
		// (tcp_cong_avoid_ai). Carried over, the count ran a step ahead
		// of the kernel's (ke_200ms_6m_q80k_l1_reno: 18 segments 180 ms
		// before the kernel's, on a 205 ms path).
		o.unseenCnt = 0
	}
	o.w = max(o.w, pipe)
	if pipe >= o.unseen {
		o.unseen = 0
	}
	if o.heldSs > 0 {
		// A flight that reached the episode's ssthresh within a few round
		// trips of a first burst below it grew faster than congestion
		// avoidance can: the first burst was held (an application, a
		// pacing sender), Linux's cwnd stood at ssthresh, and ssthresh
		// was not lowered (k10_cubic_app2m_l07: 43 segments first, 70
		// three round trips later, ssthresh 70 through the idle restart
		// and slow start that followed).
		// Growth of Reno's segment a round trip, and two more, proves
		// nothing.
		if o.srtt <= 0 || t-o.heldAt > heldRounds*o.srtt {
			o.heldSs = 0
		} else if pipe+seg >= o.heldSs && pipe-o.heldW > seg*(2+(t-o.heldAt)/o.srtt) {
			o.ss, o.heldSs = max(o.ss, o.heldSs), 0
		}
	}
	// tcp_cwnd_validate: the burst left the window full (within a
	// segment: tcp_packets_in_flight ≥ cwnd), or a new window of data
	// began, or more went out in this one while it was not full: the
	// latch and max_packets_out start again from this burst.
	full := pipe+seg > o.w
	o.pipe = pipe
	if una >= o.usageSeq || full || !o.limited && out > o.maxOut {
		o.limited, o.maxOut, o.usageSeq = full, out, high
	}
	if o.cwndLimited() {
		o.used, o.stamp = 0, t
		// Reno's growth drawn at an ACK (see ack) stands until the flight
		// reaches it: a full burst a segment under it is the deferred send
		// (tcp_tso_should_defer), not a smaller window, where the line
		// dipped back a segment and rose again at the next ACK.
		if o.ca == caCubic {
			return o.w // CUBIC's growth kept aside is not drawn (see ack)
		}
		return max(o.w, o.unseen)
	}
	o.used = max(o.used, out)
	if t-o.stamp >= rto {
		if used := max(o.used, initialWindow*seg); used < o.w {
			o.keepSsthresh()
			o.w = (o.w + used) / 2
		}
		o.used, o.stamp = 0, t
	}
	return o.w
}

// ackDelay is hystart_ack_delay: how long four GSO bursts take at the
// pacing rate of slow start (sk_pacing_rate: twice the window per
// smoothed RTT), at most 1 ms.
func (o *openWindow) ackDelay() int64 {
	if o.w <= 0 || o.srtt <= 0 {
		return 0
	}
	return min(hystartMaxAckDelay, int64(4*gsoMaxSize*float64(o.srtt)/float64(2*max(o.w, o.maxOut))))
}

func (o *openWindow) slowStart() bool { return !o.ssOver || o.w < o.ss }

// cwndLimited is tcp_is_cwnd_limited: the window was full in this window
// of data (the latch), or, in slow start, at least half of it was used
// (cwnd < 2 × max_packets_out).
func (o *openWindow) cwndLimited() bool {
	return o.limited || o.slowStart() && o.w < 2*o.maxOut
}

// ack takes what an ACK at t newly delivered (acknowledged or SACKed),
// bytes (seg a segment; holes: it SACKs above a hole), and gives the
// window drawn after it: Linux grows it
// only while the sender was window-limited (tcp_is_cwnd_limited, at the
// top of tcp_reno_cong_avoid and cubictcp_cong_avoid): in slow start by
// what the ACK delivered, up to ssthresh (tcp_slow_start), the rest,
// and later ACKs, in congestion avoidance (avoid). A window whose
// ssthresh is unknown grows only as measured.
func (o *openWindow) ack(t, delivered, seg int64, holes bool) int64 {
	if o.w <= 0 && o.ca == caCubic && o.recovered && o.ss > 0 && delivered > 0 {
		// After a fast retransmit's episode, until the first burst
		// measures the window: what the ACKs deliver, for CUBIC's
		// epoch begun at the first of them (see burst).
		if o.exitAt == 0 {
			o.exitAt = t
		}
		o.exitDelivered += delivered
		return 0
	}
	if o.w <= 0 || delivered <= 0 || !o.cwndLimited() {
		return o.w
	}
	if o.slowStart() {
		w := o.w + delivered
		if o.ssOver {
			w = min(w, o.ss) // tcp_slow_start: up to ssthresh
		}
		delivered -= w - o.w
		o.w = w
		if !o.ssOver || delivered <= 0 {
			return o.w
		}
	}
	if o.ss > 0 && seg > 0 && o.pipe+seg < o.w {
		o.avoid(t, delivered, seg)
	} else if o.ss > 0 && seg > 0 && o.ca != caNone {
		// Where the sender fills the window the pipe measures it, but
		// not always at once: Linux's cwnd grows at the ACK and the
		// flight can stay a segment under it for a while (Linux defers
		// a send smaller than its two-segment chunks while the room is
		// under a third of the window: tcp_tso_should_defer), or the
		// next ACK enters recovery first (kb_80ms_2m_q10k_j6_reno,
		// kc_50ms_2m_q5k_reno: ssthresh a segment under the kernel's at
		// 19% and 12% of episodes of 4 to 10 segments). Reno's growth at
		// those ACKs is kept aside (unseen) for the window a fast
		// retransmit reduces (cwndBuilder.priorsAtLoss), and drawn at the
		// ACK, where Linux's cwnd grew: drawn only at the next burst, the
		// line sat a segment under the kernel's, which misses the 10% at
		// windows under ten segments (kf_56ms_3m_q9k_j5_reno 88.9% ->
		// 95.7% of probes, with burst's hold below). Not drawn at an ACK
		// that SACKs above a hole (holes): one that enters recovery
		// reduces before it could grow (tcp_fastretrans_alert comes before
		// tcp_cong_control), and drawn there the line rose a segment for
		// the 0.1 ms to the fast retransmit. CUBIC's growth is kept
		// aside too, counted as tcp_cubic.c counts it (cubicCnt's hold
		// and rounding, the epoch from the recovery's end: see burst),
		// and not drawn: Linux's cwnd grows at the ACK that enters
		// disorder (tcp_fastretrans_alert, then tcp_cong_control), and
		// the next, entering recovery, cuts 0.7 of that
		// (kb_60ms_3m_q8k, 7 to 8 then 5, where the graph cut 7 to 4:
		// ssthresh 75% -> 100% of episodes, ke_76ms_3m_q9k 88% ->
		// 100%); drawn, it ran ahead of the kernel's line under jitter
		// (kg_60ms_4m_q12k_j3: whether bictcp_update's hold let a count
		// through depends on jiffies the capture does not show).
		w, cnt := o.w, o.cnt
		o.w, o.cnt = max(o.unseen, w), o.unseenCnt
		o.avoid(t, delivered, seg)
		o.unseen, o.unseenCnt, o.w, o.cnt = o.w, o.cnt, w, cnt
		if !holes && o.ca == caReno {
			return max(o.w, o.unseen)
		}
	}
	return o.w
}

// avoid grows the window in congestion avoidance at an ACK at t that
// delivered bytes: a segment per window delivered under Reno
// (tcp_cong_avoid_ai), per cnt segments under CUBIC, cnt from its curve
// (cubicCnt); none under neither algorithm.
func (o *openWindow) avoid(t, delivered, seg int64) {
	var per int64 // segments delivered per segment of growth
	switch o.ca {
	case caReno:
		per = max(o.w/seg, 1)
	case caCubic:
		per = o.cubicCnt(t, delivered, seg)
	default:
		return
	}
	// tcp_cong_avoid_ai, in bytes.
	if o.cnt >= per*seg {
		o.cnt = 0
		o.w += seg
	}
	o.cnt += delivered
	if n := o.cnt / (per * seg); n > 0 {
		o.cnt -= n * per * seg
		o.w += n * seg
	}
}

// cubicCnt is bictcp_update's cnt for an ACK at t that delivered bytes
// (seg a segment): the segments to deliver for the window (in segments)
// to grow by one towards the curve's target an RTT (the least: ca's
// delay_min) on, W(t) = origin ± 0.4 (t − K)³ from the epoch's start (the
// first ACK in congestion avoidance after a reduction: K the time the
// curve takes back to last_max_cwnd, the plateau); no slower than Reno's
// estimate (tcp_friendliness), at least 2 (1.5 × per RTT at most), at
// most 20 before any reduction.
func (o *openWindow) cubicCnt(t, delivered, seg int64) int64 {
	c := &o.cubic
	w := max(o.w/seg, 1)
	acked := max(delivered/seg, 1)
	c.ackCnt += acked
	if c.epoch != 0 && c.lastW == w && t-c.lastT <= cubicHold {
		// bictcp_update works cnt out again only once the window
		// changed or HZ/32 passed (tcp_friendliness skipped too, its
		// ACKs counted): recomputed at every ACK, the model's count ran
		// ahead of the kernel's (in a replay of tcp_cubic.c over the
		// kernel records' ACKs, 6 → 35 steps of kb_60ms_3m_q8k's 551 and
		// 0 → 32 of kf_44ms_2m_q5k's 415 missed without the hold).
		return c.cnt
	}
	c.lastW, c.lastT = w, t
	if c.epoch == 0 {
		c.epoch, c.ackCnt, c.reno = t, acked, w
		c.k, c.origin = 0, w
		if c.lastMax > w {
			c.k, c.origin = math.Cbrt(float64(c.lastMax-w)/cubicC), c.lastMax
		}
	}
	e := float64(t-c.epoch+o.delayMin) / 1e9
	d := int64(min(cubicC*math.Pow(math.Abs(e-c.k), 3), 1<<40))
	target := c.origin + d
	if e < c.k {
		target = c.origin - d
	}
	cnt := 100 * w
	if target > w {
		cnt = w / (target - w)
	}
	if c.lastMax == 0 {
		cnt = min(cnt, 20)
	}
	// tcp_friendliness: Reno's window at 3 (1 − β) / (1 + β) of its
	// additive increase, a segment per w × beta_scale / 8 delivered,
	// added while ack_cnt is above that, not at it (while (ack_cnt >
	// delta)): a step earlier, kf_44ms_2m_q5k's ssthresh fell to 12% of
	// episodes within 10% with the growth below.
	if per := w * cubicBetaScale >> 3; per > 0 && c.ackCnt > per {
		n := (c.ackCnt - 1) / per
		c.reno += n
		c.ackCnt -= n * per
	}
	if c.reno > w {
		cnt = min(cnt, w/(c.reno-w))
	}
	c.cnt = max(cnt, 2)
	return c.cnt
}

// CUBIC's constants (tcp_cubic.c): C, the curve's scale (bic_scale 41
// × 10 / 1024, segments per s³), and beta_scale (8 (1 + β) / 3 / (1 − β):
// 15).
const (
	cubicHold      = 1e9 / 32 // HZ/32 jiffies (bictcp_update's hold), ns
	cubicC         = 410.0 / 1024
	cubicBetaScale = 8 * (1024 + cubicBeta) / 3 / (1024 - cubicBeta)
)
