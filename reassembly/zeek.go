package reassembly

// Zeek's conn_state and history of a TCP connection (conn.log), computed
// as Zeek's TCP analyzer does (zeek/zeek, src/packet_analysis/protocol/
// tcp/TCPSessionAdapter.cc, TCP_Endpoint.cc, Session.cc and the
// conn_state function of scripts/base/protocols/conn/main.zeek): the two
// endpoints' states (inactive, SYN sent, SYN/ACK sent, partial,
// established, closed, reset) moved by each packet, the history letters
// (S h A D F R, T for retransmissions and W for zero windows logged at
// the 1st, 10th, 100th… one, I and Q for odd flag combinations, ^ when
// Zeek flips the roles), upper case from the originator. What Zeek
// would add beyond the TCP analyzer is left out: content gaps (G, which
// need an application analyzer), bad checksums (C; Zeek is usually run
// with -C), analyzer limits (X), and the splitting of a connection by
// timers (an attempt left 5 s without an answer) or reuse beyond
// Wireshark's tcp.stream.

// Zeek's endpoint states (TCP_ENDPOINT_*).
const (
	zInactive uint8 = iota
	zSYNSent
	zSYNACKSent
	zPartial
	zEstablished
	zClosed
	zReset
)

// Zeek's history masks (TCP_Endpoint::HistoryMasks); a responder's are
// shifted by 16.
const (
	zHistSYN     = 0x1
	zHistFIN     = 0x2
	zHistRST     = 0x4
	zHistFINRST  = 0x8
	zHistData    = 0x10
	zHistACK     = 0x20
	zHistMulti   = 0x40
	zMaxHistory  = 256 // letters kept (Zeek keeps all; a flood of SYNs with new numbers would grow it without end)
	zTooLargeSeq = 1048576
)

// zeekEnd is one endpoint as Zeek's TCP_Endpoint sees it.
type zeekEnd struct {
	state, prev uint8
	orig        bool
	finCnt      uint8 // saturating
	start       uint32
	last, ack   uint32
	lastSYN     uint32 // relative sequence numbers of the last SYN, FIN, RST
	lastFIN     uint32
	lastRST     uint32
	rxmt, win0  uint32 // retransmissions and zero windows counted
	inited      bool
}

// zeekConn is a connection's Zeek state.
type zeekConn struct {
	end  [2]zeekEnd // by Direction
	seen uint32     // hist_seen
	// The history: its first letters in hist (no allocation for the
	// connections of a dozen), the rest in more.
	hist     [22]byte
	nh       uint8
	started  bool
	more     *[]byte
	firstDir Direction // the sender of the first packet
}

// historyString is the history's letters.
func (z *zeekConn) historyString() string {
	if z.more == nil {
		return string(z.hist[:z.nh])
	}
	return string(z.hist[:z.nh]) + string(*z.more)
}

func zSeqDelta(a, b uint32) int32 { return int32(a - b) }

func (z *zeekConn) addHistory(c byte) {
	switch {
	case int(z.nh) < len(z.hist):
		z.hist[z.nh] = c
		z.nh++
	case z.more == nil:
		z.more = &[]byte{c}
	case len(*z.more) < zMaxHistory-len(z.hist):
		*z.more = append(*z.more, c)
	}
}

// checkHistory is TCP_Endpoint::CheckHistory: the letter once per mask,
// and the flip of a connection that began with a SYN/ACK once it carries
// an ACK or data.
func (z *zeekConn) checkHistory(e *zeekEnd, mask uint32, code byte) bool {
	if (code == 'A' || code == 'D') && z.nh == 1 && z.hist[0] == 'H' && z.more == nil {
		z.flip()
		z.hist[0], z.hist[1], z.nh = '^', 'h', 2
	}
	if !e.orig {
		mask <<= 16
		code += 'a' - 'A'
	}
	if z.seen&mask == 0 {
		z.seen |= mask
		z.addHistory(code)
		return false
	}
	return true
}

// letter adds an endpoint's letter (TCP_Endpoint::AddHistory).
func (z *zeekConn) letter(e *zeekEnd, code byte) {
	if !e.orig {
		code += 'a' - 'A'
	}
	z.addHistory(code)
}

// scaled is Session::ScaledHistoryEntry with base 10: the letter at the
// 1st, 10th, 100th… event.
func (z *zeekConn) scaled(e *zeekEnd, code byte, n *uint32) {
	*n++
	for t := uint32(1); t != 0 && t <= *n; t *= 10 {
		if t == *n {
			z.letter(e, code)
			return
		}
		if t > 429496729 {
			return
		}
	}
}

// flip is Connection::FlipRoles: originator and responder swap.
func (z *zeekConn) flip() {
	z.end[0].orig, z.end[1].orig = !z.end[0].orig, !z.end[1].orig
	z.addHistory('^')
}

// likelyServerPort is Zeek's likely_server_ports (the ports its
// analyzers register) for the common ones: iperf3's 5201 is none.
func likelyServerPort(p uint16) bool {
	switch p {
	case 21, 22, 23, 25, 53, 80, 88, 110, 111, 135, 137, 139, 143, 389, 443, 445, 502, 587, 636, 993, 995,
		1080, 1883, 2049, 3128, 3306, 3389, 5060, 5222, 5432, 6379, 6667, 8000, 8080:
		return true
	}
	return false
}

// packet feeds one segment of direction d, as Zeek's Process does.
func (z *zeekConn) packet(d Direction, seg *Segment) {
	// The common case, first: data or an ACK of an established
	// connection whose letter was logged, with a window: what Process
	// does of it is to move the ACK and the highest sequence number, and
	// count a retransmission.
	if f := seg.Flags; f&(SYN|FIN|RST) == 0 && f&ACK != 0 && seg.Window != 0 && seg.Ack != 0 && z.started {
		e, p := &z.end[d&1], &z.end[(d^1)&1] // (the &1 drops the bounds checks)
		mask := uint32(zHistACK)
		if seg.PayloadLen > 0 {
			mask = zHistData
		}
		if !e.orig {
			mask <<= 16
		}
		if e.state == zEstablished && p.state != zInactive && p.state != zClosed && z.seen&mask != 0 {
			if zSeqDelta(seg.Ack, p.ack) > 0 {
				p.ack = seg.Ack
			}
			onePast := seg.Seq + uint32(seg.PayloadLen)
			if zSeqDelta(onePast, e.last) > 0 {
				e.last = onePast
			} else if seg.PayloadLen > 0 {
				z.scaled(e, 'T', &e.rxmt)
			}
			return
		}
	}
	z.slow(d, seg)
}

// slow is packet's every case.
func (z *zeekConn) slow(d Direction, seg *Segment) {
	f := seg.Flags
	syn, fin, rst, ack := f&SYN != 0, f&FIN != 0, f&RST != 0, f&ACK != 0
	if !z.started {
		z.started, z.firstDir = true, d
		z.end[d].orig = true
		// NewConn: a first packet that is no pure SYN, from a likely
		// server port, makes its receiver the originator.
		if !syn || ack {
			src, dst := seg.SrcPort, seg.DstPort
			if likelyServerPort(src) && (!likelyServerPort(dst) || !syn && src < dst) {
				z.flip()
			}
		}
	}
	e, p := &z.end[d], &z.end[d.Reverse()]
	isOrig := e.orig // as Process was called: a flip on the way does not change it
	n := seg.PayloadLen
	segLen := n
	if syn {
		segLen++
	}
	if fin {
		segLen++
	}
	if rst {
		segLen -= n
	}
	seq := seg.Seq
	onePast := seq + uint32(segLen)
	z.initEnd(e, syn, seq, onePast)
	rel := seq - e.start
	z.history1(e, syn, fin, rst, ack, rel, uint32(n))
	// update_window: a zero window, but with or after a RST, or after the
	// peer's FIN.
	if seg.Window == 0 && !rst && p.state != zClosed && e.state != zReset {
		z.scaled(e, 'W', &e.win0)
	}
	if fin && e.finCnt < 255 {
		e.finCnt++
	}
	if ack {
		if p.state == zInactive {
			if !p.inited { // init_peer
				p.start, p.ack, p.last, p.inited = seg.Ack-1, seg.Ack-1, seg.Ack-1, true
			}
		} else if !rst && zSeqDelta(seg.Ack, p.ack) > 0 && !(seg.Ack == 0 && zSeqDelta(seg.Ack, p.ack) > zTooLargeSeq) {
			p.ack = seg.Ack
		}
	}
	deltaLast := z.updateLast(e, onePast, syn, fin, rst, n)
	z.stateMachine(e, p, isOrig, seg, syn, fin, rst, ack, n, deltaLast)
}

// initEnd is init_endpoint: the endpoint's numbers from its first
// segment (as if a SYN came before a partial connection's first).
func (z *zeekConn) initEnd(e *zeekEnd, syn bool, seq, onePast uint32) {
	switch e.state {
	case zInactive:
		if syn {
			e.start, e.ack = seq, seq
		} else {
			e.start, e.ack = seq-1, seq-1
			onePast = seq
		}
		e.last, e.inited = onePast, true
	case zSYNSent, zSYNACKSent:
		if syn && seq != e.start {
			e.start, e.ack, e.last = seq, seq, onePast
		}
	case zEstablished, zPartial:
		if syn {
			e.start, e.ack, e.last = seq, seq, onePast
		}
	case zReset:
		if syn && e.prev == zInactive {
			e.start, e.ack, e.last = seq, seq, onePast
		}
	}
}

// history1 is update_history.
func (z *zeekConn) history1(e *zeekEnd, syn, fin, rst, ack bool, rel, n uint32) {
	bits := btoi(syn) + btoi(fin) + btoi(rst)
	switch {
	case bits > 1:
		if fin && rst {
			z.checkHistory(e, zHistFINRST, 'I')
		} else {
			z.checkHistory(e, zHistMulti, 'Q')
		}
	case bits == 1:
		if syn {
			code := byte('S')
			if ack {
				code = 'H'
			}
			if z.checkHistory(e, zHistSYN, code) && rel != e.lastSYN {
				z.letter(e, code)
			}
			e.lastSYN = rel
		}
		if fin {
			if z.checkHistory(e, zHistFIN, 'F') && rel+n != e.lastFIN {
				z.letter(e, 'F')
			}
			e.lastFIN = rel + n
		}
		if rst {
			if z.checkHistory(e, zHistRST, 'R') && rel != e.lastRST {
				z.letter(e, 'R')
			}
			e.lastRST = rel
		}
	default:
		if n > 0 {
			z.checkHistory(e, zHistData, 'D')
		} else if ack {
			z.checkHistory(e, zHistACK, 'A')
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// updateLast is update_last_seq: the highest sequence number sent, and a
// retransmission (T) when data does not advance it.
func (z *zeekConn) updateLast(e *zeekEnd, onePast uint32, syn, fin, rst bool, n int) int32 {
	delta := zSeqDelta(onePast, e.last)
	switch {
	case (syn || rst) && (delta > zTooLargeSeq || delta < -zTooLargeSeq):
	case fin && e.last == e.start+1:
		e.last = onePast
	case e.state == zReset:
	case delta > 0:
		e.last = onePast
	case n > 0:
		z.scaled(e, 'T', &e.rxmt)
	}
	return delta
}

func (e *zeekEnd) set(s uint8) {
	if s != e.state {
		e.prev, e.state = e.state, s
	}
}

// stateMachine is UpdateStateMachine.
func (z *zeekConn) stateMachine(e, p *zeekEnd, isOrig bool, seg *Segment, syn, fin, rst, ack bool, n int, deltaLast int32) {
	switch e.state {
	case zInactive:
		if syn {
			if isOrig {
				if ack {
					e.set(zSYNACKSent)
				} else {
					e.set(zSYNSent)
				}
			} else {
				if !ack && p.state == zSYNACKSent && seg.Seq == e.start {
					// A SYN/SYN-ACK reversal: flip and establish.
					z.flip()
					p.set(zEstablished)
				}
				if p.state == zSYNSent {
					p.set(zEstablished)
				}
				e.set(zEstablished)
			}
		}
		if fin {
			e.set(zClosed)
		}
		if rst {
			e.set(zReset)
		}
		if e.state == zInactive {
			switch {
			case !isOrig && n == 0 && z.origEnd().state == zSYNSent:
				// an ACK of the SYN before the SYN/ACK: not partial
			case ack && p.state == zEstablished:
				e.set(zEstablished)
			default:
				e.set(zPartial)
			}
		}
	case zSYNSent, zSYNACKSent:
		if fin {
			e.set(zClosed)
		}
		if rst {
			e.set(zReset)
		}
	case zEstablished, zPartial:
		if syn && e.state == zPartial && p.state == zInactive && !ack {
			e.set(zSYNSent)
		}
		if fin && !rst {
			e.set(zClosed)
			if p.state == zReset && p.prev == zClosed {
				p.set(zClosed) // a FIN, then a RST: a normal close
			}
		}
		if rst {
			e.set(zReset)
		}
	case zClosed:
		if rst && p.state != zClosed {
			e.set(zReset)
		}
	}
}

// origEnd is the originator's endpoint.
func (z *zeekConn) origEnd() *zeekEnd {
	if z.end[0].orig {
		return &z.end[0]
	}
	return &z.end[1]
}

// size is TCP_Endpoint::Size: the bytes the endpoint sent, by its
// sequence numbers.
func (e *zeekEnd) size(peer *zeekEnd) int64 {
	if e.prev == zSYNSent && e.state == zReset && peer.state == zInactive {
		return 0
	}
	hi := e.last
	if zSeqDelta(e.ack, e.last) > 0 {
		hi = e.ack
	}
	s := int64(uint32(hi - e.start))
	if s != 0 {
		s--
	}
	if e.finCnt > 0 && s != 0 {
		s--
	}
	return s
}

// ZeekState returns Zeek's conn_state (S0, S1, SF, REJ, S2, S3, RSTO,
// RSTR, RSTOS0, RSTRH, SH, SHR, OTH) and history of the connection, and
// whether Zeek's originator is the connection's client.
func (c *Conn) ZeekState() (state, history string, origIsClient bool) {
	if c.lone {
		return "S0", "S", true // a SYN alone
	}
	z := &c.zeek
	if !z.started {
		return "OTH", "", true
	}
	oi := 0
	if !z.end[0].orig {
		oi = 1
	}
	o, r := &z.end[oi], &z.end[1-oi]
	os, rs := o.state, r.state
	oInactive := os == zInactive || os == zPartial
	rInactive := rs == zInactive || rs == zPartial
	h := z.historyString()
	switch {
	case rs == zReset:
		switch {
		case os == zSYNSent || os == zSYNACKSent || os == zReset && o.size(r) == 0 && r.size(o) == 0:
			state = "REJ"
		case oInactive:
			state = "RSTRH"
		default:
			state = "RSTR"
		}
	case os == zReset:
		switch {
		case rInactive && rstOS0(h):
			state = "RSTOS0"
		case rInactive:
			state = "OTH"
		default:
			state = "RSTO"
		}
	case rs == zClosed && os == zClosed:
		state = "SF"
	case os == zClosed && rInactive:
		state = "SH"
	case os == zClosed:
		state = "S2"
	case rs == zClosed && oInactive:
		state = "SHR"
	case rs == zClosed:
		state = "S3"
	case os == zSYNSent && rs == zInactive:
		state = "S0"
	case os == zEstablished && rs == zEstablished:
		state = "S1"
	default:
		state = "OTH"
	}
	return state, h, Direction(oi) == C2S
}

// rstOS0 matches Zeek's /\^?S[^HAFGIQ]*R.*/ against the whole history.
func rstOS0(h string) bool {
	if len(h) > 0 && h[0] == '^' {
		h = h[1:]
	}
	if len(h) == 0 || h[0] != 'S' {
		return false
	}
	for i := 1; i < len(h); i++ {
		switch h[i] {
		case 'R':
			return true
		case 'H', 'A', 'F', 'G', 'I', 'Q':
			return false
		}
	}
	return false
}
