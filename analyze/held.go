package analyze

// senderHeld follows, data segment by data segment of a sender's
// direction, when something other than its congestion window held it
// back: the one rule of the summary's rwnd_limited and app_limited times
// and of the cwnd graph's window-unknown bands.
//   - The receiver's window: after a data segment that left less room in
//     the window last advertised than one of the largest segments, until
//     the next data segment.
//   - The application: an ACK made room (it came after the last data
//     segment, outside loss recovery, the receiver's window not full) and
//     the next new data came later than a sender with data waiting sends
//     it (appGap), from that ACK.
type senderHeld struct {
	maxSeg              int64
	lastLimited         bool
	dataSeen            bool
	firstData, lastData int64 // times of the first and the last data segment
	// Data segments seen, and those sent with the flight more than two
	// segments past the receiver's last window (see misread).
	sent, overrun int64
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
// since when.
func (h *senderHeld) data(t, n, flight, rwnd int64, start, inEpisode, resend, ackSeen bool, lastAck, rttMin int64) (kind heldKind, from int64) {
	switch {
	case h.lastLimited:
		kind, from = heldRwnd, h.lastData
	case !h.dataSeen: // the first: nothing held it yet
	case !start && !inEpisode && ackSeen && lastAck > h.lastData && !resend && t-lastAck > appGap(rttMin):
		// An ACK made room and the sender waited: nothing to send.
		kind, from = heldApp, lastAck
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
	return kind, from
}

// appGap is how long after an ACK that made room a sender with data
// waiting has sent: an eighth of the smallest RTT, at least 2 ms (a host's
// scheduling), at most 50 ms.
func appGap(rttMin int64) int64 {
	return min(max(rttMin/8, 2e6), 50e6)
}
