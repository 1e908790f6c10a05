package analyze

import "tcpviz/reassembly"

// handshake is when a connection's handshake passed the capture: the
// client's latest SYN, the server's first SYN/ACK after it, the client's
// first ACK after that, and the SYN/ACK that ACK answered (seen: 1 to 3;
// 0 none). The server's leg of the path is from the SYN to its first
// SYN/ACK (one sent again because the client's ACK was lost does not move
// it), the client's from the SYN/ACK it answered to its ACK: the one whose
// timestamp the ACK echoes (the last, where the server sent it again for a
// lost ACK; the first, where the handshake's round trip outlasted the
// server's timer), else the first, as PathStats' trips take it.
type handshake struct {
	client                       reassembly.Direction
	seen                         uint8
	syn, synAck, lastSynAck, ack int64
	answered                     int64  // the SYN/ACK the ACK answered
	lastTS                       uint32 // the last SYN/ACK's timestamp, if hasTS (all had one)
	hasTS                        bool
	// lags are lag's answers, by direction, taken once the handshake is
	// whole (nothing changes it then but a SYN, which starts it again):
	// lag is asked of every data segment.
	lags [2]int64
}

// add takes a segment of direction d, with SYN and ACK flags and its
// timestamps (if hasTS) as given, at time t.
func (h *handshake) add(d reassembly.Direction, syn, ack bool, t int64, tsval, tsecr uint32, hasTS bool) {
	switch {
	case syn && !ack:
		*h = handshake{client: d, seen: 1, syn: t}
	case syn && (h.seen == 1 || h.seen == 2) && d != h.client:
		if h.seen == 1 {
			h.synAck, h.hasTS = t, hasTS
		}
		h.lastSynAck, h.lastTS, h.seen = t, tsval, 2
		h.hasTS = h.hasTS && hasTS
	case ack && !syn && h.seen == 2 && d == h.client:
		h.ack, h.seen, h.answered = t, 3, h.synAck
		if h.hasTS && hasTS && tsecr == h.lastTS {
			h.answered = h.lastSynAck
		}
		h.lags = [2]int64{h.lagOf(reassembly.C2S), h.lagOf(reassembly.S2C)}
	}
}

// lag is the time from the capture to the sender of direction d's data
// and back, from the handshake: an ACK seen here reaches the sender, and
// the data it releases passes here, that much later. At a capture at
// the sender (its leg of the handshake under vantageNear of the round
// trip, as PathStats.Vantage places it), or without the whole handshake,
// 0: the data follows the ACK here at once.
func (h *handshake) lag(d reassembly.Direction) int64 { return h.lags[d&1] }

// lagOf is lag, worked out.
func (h *handshake) lagOf(d reassembly.Direction) int64 {
	leg := h.leg(d)
	if rtt := h.rtt(); rtt <= 0 || float64(leg) < vantageNear*float64(rtt) {
		return 0
	}
	return leg
}

// nearerReceiver tells whether the capture is nearer the receiver of
// direction d's data than its sender: its leg to the sender is the longer
// (false without the whole handshake).
func (h *handshake) nearerReceiver(d reassembly.Direction) bool {
	return h.rtt() > 0 && h.leg(d) > h.leg(d.Reverse())
}

// leg is the time from the capture to the sender of direction d's data
// and back, 0 without the whole handshake.
func (h *handshake) leg(d reassembly.Direction) int64 {
	if h.rtt() <= 0 {
		return 0
	}
	if d == h.client {
		return h.ack - h.answered
	}
	return h.synAck - h.syn
}

// rtt is the handshake's round trip, its two legs (from the SYN to the
// client's ACK of the SYN/ACK, a SYN/ACK's resending timer left out), 0
// without the whole handshake.
func (h *handshake) rtt() int64 {
	if h.seen < 3 {
		return 0
	}
	return h.synAck - h.syn + h.ack - h.answered
}
