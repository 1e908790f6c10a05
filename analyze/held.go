package analyze

// senderHeld follows, data segment by data segment of a sender's
// direction, when something other than its congestion window held it
// back: the one rule of the summary's rwnd_limited and app_limited times
// and of the cwnd graph's window-unknown bands.
//   - The receiver's window: after a data segment that left less room in
//     the window last advertised than one of the largest segments, until
//     the next data segment, or until the first ACK that left room for
//     one under its window when the sender then waited as below.
//   - The application: an ACK made room (it came after the last data
//     segment, outside loss recovery, the receiver's window not full) and
//     the next new data came later than a sender with data waiting sends
//     it (appGap), from that ACK. Where the receiver's window held the
//     last data segment and the sender then let all it had sent be
//     acknowledged before its next full-sized segment, from the first
//     ACK that left room under the window:
//     a sender with data waiting keeps data out (an application that
//     writes in bursts fills the window with each, and then waits with
//     it open: mx_220ms_1m_w20_a500k, an application at 500 kbit/s whose
//     38 KB writes filled a 23 KB window). With data still out, the
//     window stays what held it: Linux may wait for more room than a
//     segment's (kx_reno_rwnd: 28 ms with room for five, its send
//     buffer's doing or TSO's deferral).
type senderHeld struct {
	maxSeg              int64
	lastLimited         bool
	dataSeen            bool
	firstData, lastData int64 // times of the first and the last data segment
	// Data segments seen, and those sent with the flight more than two
	// segments past the receiver's last window (see misread).
	sent, overrun int64
	// idles: the application's waits with nothing outstanding longer
	// than a round trip (see data).
	idles int
	// roomAt is the time (and roomFrame the frame) of the first ACK,
	// after a data segment that filled the receiver's window
	// (lastLimited), that left room for one of the largest segments under
	// the window it advertised, outside loss recovery; 0: none.
	roomAt, roomFrame int64
	// ACKs that moved the cumulative ACK outside loss recovery, the
	// receiver's window not full (acks), and those of them the sender
	// answered with no new data before the next such ACK (unanswered;
	// see ack).
	acks, unanswered int
	answerDue        bool
	// The ACKs since the last new data, and of them those unanswered:
	// counted once new data comes (those after the last cannot be
	// answered).
	pendingACKs, pendingUnanswered int
}

// ack takes an ACK of the direction's data: whether it moved the
// cumulative ACK and whether a loss episode is under way. Reno and
// CUBIC are clocked by ACKs: with data waiting, an ACK that makes room
// (outside recovery, the receiver's window not full) sends new data
// before the next one comes; an application that gives its data in
// bursts lets most pass (see unansweredShare).
// It came at t in frame, with flight bytes outstanding after it (-1
// unknown) and the window rwnd it advertised.
func (h *senderHeld) ack(t, frame, flight, rwnd int64, moved, inEpisode bool) {
	room := flight >= 0 && rwnd >= 0 && flight+h.maxSeg <= rwnd
	if h.lastLimited && moved && !inEpisode && room && h.roomAt <= h.lastData {
		h.roomAt, h.roomFrame = t, frame
	}
	if !moved || inEpisode || h.lastLimited || !h.dataSeen {
		return
	}
	if h.answerDue {
		h.pendingUnanswered++
	}
	h.answerDue = true
	h.pendingACKs++
}

// unansweredShare is the share of the ACKs that made room that the
// sender let pass without new data (ack), and how many there were.
func (h *senderHeld) unansweredShare() (float64, int) {
	if h.acks == 0 {
		return 0, 0
	}
	return float64(h.unanswered) / float64(h.acks), h.acks
}

// misread tells whether more than a tenth of the data went out with the
// flight past the receiver's window as read, which no sender does: the
// window's scale is not what the capture shows (no SYN, or a SYN whose
// options the snapshot length cut: gt_v6_any_loss, 1.3 KB windows read
// raw for 60 KB in flight). The window then tells nothing of what held
// the sender (DirStats.WindowMisread; the cwnd graph draws no band of it).
func (h *senderHeld) misread() bool { return h.overrun*10 > h.sent }

// heldKind is what held a sender back (senderHeld).
type heldKind uint8

const (
	heldNo heldKind = iota
	heldRwnd
	heldApp
)

// data takes a data segment at t of n bytes, with flight bytes in flight
// (-1 unknown) and rwnd the receiver's last window (-1 none); start: it
// began a loss episode, inEpisode: one is under way, resend: it is a
// retransmission; lastAck is the last new ACK's time (if ackSeen) and
// rttMin the least RTT. It tells what held the sender until t, and
// since when; where the receiver's window held it before the
// application did, rwndFrom (else 0) is when the window began to, until
// from.
func (h *senderHeld) data(t, n, flight, rwnd int64, start, inEpisode, resend, ackSeen bool, lastAck, rttMin int64) (kind heldKind, from, rwndFrom int64) {
	switch {
	case h.lastLimited && h.roomAt > h.lastData && !start && !inEpisode && !resend && flight >= 0 && flight <= n && n >= h.maxSeg && t-h.roomAt > appGap(rttMin):
		// The window held the sender until an ACK left room, and the
		// sender then let everything it had sent be acknowledged (the
		// flight is this segment) before it sent a full one: nothing to
		// send. A smaller segment is Nagle's, held until all was
		// acknowledged whatever the application (kn_rwnd_limited's last
		// 608 bytes).
		kind, from, rwndFrom = heldApp, h.roomAt, h.lastData
	case h.lastLimited:
		kind, from = heldRwnd, h.lastData
	case !h.dataSeen: // the first: nothing held it yet
	case !start && !inEpisode && ackSeen && lastAck > h.lastData && !resend && t-lastAck > appGap(rttMin):
		// An ACK made room and the sender waited: nothing to send.
		kind, from = heldApp, lastAck
		if flight >= 0 && flight <= n && t-lastAck > max(rttMin, 50e6) {
			// With nothing outstanding (the flight is this segment) for
			// more than a round trip: a sender whose window held it
			// always has data out; only an application leaves the path
			// empty (on the labelled sender captures: every one whose
			// application was limiting did so 3 to 33 times, none
			// other ever).
			h.idles++
		}
	}
	if !resend {
		h.acks += h.pendingACKs
		h.unanswered += h.pendingUnanswered
		h.answerDue, h.pendingACKs, h.pendingUnanswered = false, 0, 0
	}
	if !h.dataSeen {
		h.dataSeen, h.firstData = true, t
	}
	if n > 0 {
		h.sent++
		if rwnd >= 0 && flight > rwnd+2*max(n, 536) {
			h.overrun++
		}
	}
	h.maxSeg = max(h.maxSeg, n)
	h.lastLimited = flight >= 0 && rwnd >= 0 && flight+h.maxSeg > rwnd
	h.lastData = t
	return kind, from, rwndFrom
}

// appGap is how long after an ACK that made room a sender with data
// waiting has sent: an eighth of the smallest RTT, at least 2 ms (a host's
// scheduling), at most 50 ms.
func appGap(rttMin int64) int64 {
	return min(max(rttMin/8, 2e6), 50e6)
}

// startupDrain finds, data segment by data segment of a sender's
// direction before any loss signal, BBR's drain after its startup: once
// the bandwidth stopped growing, BBR paces at 1/2.89 of it until the
// flight is down to its BDP estimate (bbr_check_drain), from the 2 to 3
// times that its startup left in flight. A drain counts where the flight,
// at drainPeak segments or more, fell to half or less of that peak (or of
// the receiver's window, if less) within four least RTTs of being within
// 10% of it, and stayed there over three sends or more for half a least
// RTT, the sender sending at least every half RTT. Reno and CUBIC never
// lower their window without a loss: with data waiting their flight
// stays at the least of cwnd and the receiver's window. An application
// that stops feeding the sender lowers it too, which the guards of
// ccFacts.drainTells leave out. On the kernel and labelled senders: the
// three lossless BBR runs of k36_ (two down to 0.38–0.39 of 107 and 129
// segments, sends 0.14–0.17 RTT apart), no lossless Reno or CUBIC run;
// a Reno sender held by its application at 6 Mbit/s
// (ap_300ms_12m_a6m_reno) and the client leg to a proxy
// (pp_18ms_13m_nots) besides.
type startupDrain struct {
	maxSeg        int64
	over, found   bool  // a loss signal came (nothing more to find); a drain was found
	peak, nearAt  int64 // the most in flight; the last send within 10% of it
	last, lowFrom int64 // the last send; the first of those low since (0 none)
	lowSends      int
}

// data takes a data segment at t of n bytes with flight bytes in flight
// (-1 unknown), the receiver's last window rwnd (-1 none), the least RTT
// so far, and whether a loss signal came by now (a resend, a duplicate
// ACK or a SACK, or CWR: the sender halved its window at an ECN echo,
// tcp_enter_cwr, with nothing lost).
func (d *startupDrain) data(t, n, flight, rwnd, rttMin int64, lossSignal bool) {
	if d.over = d.over || lossSignal; d.over || d.found {
		return
	}
	d.maxSeg = max(d.maxSeg, n)
	gap := t - d.last
	d.last = t
	if flight < 0 || rttMin <= 0 {
		return
	}
	d.peak = max(d.peak, flight)
	if 10*flight >= 9*d.peak {
		d.nearAt = t
	}
	ref := d.peak
	if rwnd >= 0 {
		ref = min(ref, rwnd)
	}
	if d.peak < drainPeak*d.maxSeg || 2*flight > ref || t-d.nearAt > 4*rttMin || gap >= rttMin/2 {
		d.lowFrom, d.lowSends = 0, 0
		return
	}
	if d.lowFrom == 0 {
		d.lowFrom = t
	}
	if d.lowSends++; d.lowSends >= 3 && t-d.lowFrom >= rttMin/2 {
		d.found = true
	}
}

// drainPeak: see startupDrain.
const drainPeak = 20

// probeRTT finds, data segment by data segment of a sender's direction,
// BBR's ProbeRTT: where no lower RTT came for 10 s, BBR caps its flight
// at four segments for 200 ms and a round trip, then takes its window
// back. A dip counts where the flight, at 12 segments or more within the
// second before, stayed at four segments (and half one) over three sends
// or more for 150 ms to 200 ms and two least RTTs (and 50 ms), with no
// resend from half a second before, the receiver's window open to 12
// segments, and came back to 12 segments within the second after.
// Reno and CUBIC cut the flight only at a loss; a receiver's window or
// an application that held the flight there held it longer, or did not
// give it back at once (on the kernel and labelled runs: the five
// lossless BBR runs dip once or twice each, 0.21–0.26 s at about 10 s;
// the lossless Reno and CUBIC runs never, a proxy's closed window 0.46 s
// to 5.6 s).
type probeRTT struct {
	maxSeg              int64
	lastBig, lastResend int64 // the flight last at 12 segments or more; the last resend (0: none)
	in, pending         bool  // a dip under way; one ended, waiting for the flight to come back
	from, last, end     int64 // the dip's first and last send; when it ended
	sends               int
	dips                int // dips counted
}

// data takes a data segment at t of n bytes with flight bytes in flight
// (-1 unknown), the receiver's last window rwnd (-1 none), whether it
// resends, and the least RTT so far.
func (p *probeRTT) data(t, n, flight, rwnd int64, resend bool, rttMin int64) {
	p.maxSeg = max(p.maxSeg, n)
	if resend {
		p.lastResend, p.in, p.pending = t, false, false
		return
	}
	if flight < 0 || p.maxSeg <= 0 {
		return
	}
	small, big := 4*p.maxSeg+p.maxSeg/2, 12*p.maxSeg
	if p.pending && t-p.end > 1e9 {
		p.pending = false
	}
	switch {
	case flight <= small:
		if !p.in {
			quiet := p.lastResend == 0 || t-p.lastResend > 5e8
			p.in = p.lastBig > 0 && t-p.lastBig <= 1e9 && quiet
			p.from, p.sends, p.pending = t, 0, false
		}
		if p.in && rwnd >= 0 && rwnd < big {
			p.in = false // the receiver's window held it
		}
		p.last = t
		p.sends++
	case p.in:
		p.in = false
		if d := p.last - p.from; p.sends >= 3 && d >= 150e6 && d <= 200e6+2*rttMin+50e6 {
			p.pending, p.end = true, t
		}
	}
	if flight >= big {
		if p.pending {
			p.dips++
			p.pending = false
		}
		p.lastBig = t
	}
}
