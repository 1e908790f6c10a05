package analyze

// openWindow follows a Linux sender's congestion window outside loss
// recovery where the capture cannot measure it because the sender did not
// fill it (the application or the receiver's window held it back). There
// Linux's cwnd does not fall with the flight; it
//   - grows in slow start while at least half of it was used
//     (tcp_is_cwnd_limited: cwnd < 2 × max_packets_out; tcp_slow_start:
//     by the segments each ACK of new data delivers),
//     until a loss or HyStart (hystart) ends it; later below ssthresh
//     again (tcp_in_slow_start: cwnd < ssthresh), up to ssthresh;
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
	if o.ssOver || !o.slowStart() || o.w < hystartLowWindow*seg {
		return
	}
	if una > o.roundEnd {
		o.roundStart, o.trainAck, o.roundEnd, o.roundRTT, o.samples = t, t, high, 0, 0
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
func (o *openWindow) reset(ss int64) {
	*o = openWindow{lastSend: o.lastSend, sent: o.sent, ssOver: true, ss: ss}
}

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
	if o.sent && out == 0 && o.w > 0 && t-o.lastSend > rto {
		o.keepSsthresh()
		restart := min(initialWindow*seg, o.w)
		c := o.w
		for d := t - o.lastSend - rto; d > 0 && c > restart; d -= rto {
			c >>= 1
		}
		o.w, o.stamp, o.used = max(c, restart), t, 0
	}
	o.lastSend, o.sent = t, true
}

// burst takes the pipe measured after a burst of sends at t (the window
// the sender used; measured: the largest of the last round trips), out
// bytes outstanding (high − una, at una), of seg bytes at most, and gives
// the window.
func (o *openWindow) burst(t, pipe, measured, out, high, una, seg, rto int64) int64 {
	if o.w == 0 {
		o.w, o.stamp, o.used = max(pipe, measured), t, 0
		o.maxOut, o.usageSeq = out, high
		if o.ss > o.w {
			// The flight after the episode is the window it settled at
			// (see lossEpisodes.settle), as it is drawn.
			o.ss = o.w
		}
		return o.w
	}
	if una >= o.usageSeq || out > o.maxOut {
		o.maxOut, o.usageSeq = out, high
	}
	o.w = max(o.w, pipe)
	if pipe+seg > o.w || o.slowStart() && o.w < 2*o.maxOut {
		o.used, o.stamp = 0, t
		return o.w
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

// ack takes what an ACK newly delivered (acknowledged or SACKed), bytes,
// and gives the window after it: slow start grows it while at least half
// was used.
func (o *openWindow) ack(delivered int64) int64 {
	if o.w > 0 && delivered > 0 && o.slowStart() && o.w < 2*o.maxOut {
		o.w += delivered
		if o.ssOver {
			o.w = min(o.w, o.ss) // tcp_slow_start: up to ssthresh
		}
	}
	return o.w
}
