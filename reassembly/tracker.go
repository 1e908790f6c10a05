package reassembly

import (
	"net/netip"
	"slices"
)

// State summarises how far a connection got, from the flags seen.
type State string

// Connection states, as `tcpviz streams` prints them.
const (
	StateSynSent     State = "syn_sent"    // only the client's SYN seen
	StateSynReceived State = "syn_recv"    // SYN and SYN/ACK, no ACK of the SYN/ACK yet
	StateEstablished State = "established" // handshake done (or data both ways), not closed
	StateMidstream   State = "midstream"   // no handshake captured, no FIN or RST
	StateClosing     State = "fin_one_way" // FIN from one side only
	StateClosed      State = "closed"      // FIN from both sides
	StateReset       State = "reset"       // RST seen
)

// DirInfo is what the tracker knows of one direction of a connection.
type DirInfo struct {
	Packets    int64 // packets sent in this direction (capture duplicates included)
	Bytes      int64 // TCP payload bytes sent (on the wire, from IP lengths)
	Duplicates int64 // packets recognised as capture duplicates
	SYN        bool  // a SYN was sent
	FIN        bool  // a FIN was sent
	RST        bool  // a RST was sent
	ISN        uint32
	// Handshake options sent by this side in its SYN or SYN/ACK.
	MSS           uint16
	WScale        int8 // -1: not offered
	SACKPermitted bool
	Timestamps    bool

	started  bool   // a segment of this direction was seen
	baseSet  bool   // Base is valid
	Base     uint64 // unwrapped number that relative sequence numbers count from
	ref      uint64 // the last unwrapped sequence number, the reference for unwrapping
	recent   [dupWindow]dupSig
	recentAt int
}

const dupWindow = 4

type dupSig struct {
	seq, ack     uint32
	tsval, tsecr uint32
	time         int64
	length       int32
	flags        Flags
	window       uint16
	ipid         uint16
	ttl          uint8
	iface        int32
	valid        bool
}

// Conn is one TCP connection: a 4-tuple from its first packet, or from a
// SYN that reused the 4-tuple with a new initial sequence number.
type Conn struct {
	Stream         int // Wireshark's tcp.stream
	Client, Server netip.AddrPort
	// Handshake is true when the client was identified by a SYN; otherwise
	// the client is the side with the higher port.
	Handshake  bool
	FirstTime  int64 // ns since the epoch
	LastTime   int64
	FirstFrame int64
	LastFrame  int64
	Dir        [2]DirInfo // indexed by Direction
	// SynAckSeen is set once the server's SYN/ACK was seen.
	SynAckSeen bool
	// HandshakeDone is set once the client acknowledged the SYN/ACK.
	HandshakeDone bool
	// ReusedPorts is set when this connection's SYN took over the 4-tuple
	// of an earlier connection (Wireshark's tcp.analysis.reused_ports).
	ReusedPorts bool
}

// State reports the connection's state from the flags seen so far.
func (c *Conn) State() State {
	d0, d1 := &c.Dir[C2S], &c.Dir[S2C]
	switch {
	case d0.RST || d1.RST:
		return StateReset
	case d0.FIN && d1.FIN:
		return StateClosed
	case d0.FIN || d1.FIN:
		return StateClosing
	case c.HandshakeDone:
		return StateEstablished
	case c.SynAckSeen:
		return StateSynReceived
	case d0.SYN:
		return StateSynSent
	}
	return StateMidstream
}

// Duration is the time from the first to the last packet, in nanoseconds.
func (c *Conn) Duration() int64 { return c.LastTime - c.FirstTime }

// RelSeq returns an unwrapped sequence number of direction d relative to
// that direction's base (the ISN when the SYN was seen), as Wireshark shows
// relative sequence numbers.
func (c *Conn) RelSeq(d Direction, abs uint64) int64 {
	return int64(abs - c.Dir[d].Base)
}

type connKey struct{ a, b netip.AddrPort }

func keyOf(src, dst netip.AddrPort) connKey {
	if lessAddrPort(dst, src) {
		src, dst = dst, src
	}
	return connKey{src, dst}
}

func lessAddrPort(a, b netip.AddrPort) bool {
	if c := a.Addr().Compare(b.Addr()); c != 0 {
		return c < 0
	}
	return a.Port() < b.Port()
}

// Tracker assigns segments to connections.
type Tracker struct {
	conns map[connKey]*Conn
	next  int
	// last is the connection of the previous segment, and lastKey its key.
	last    *Conn
	lastKey connKey
	// OnNew, if set, is called when a connection is created, before the
	// segment that created it is returned.
	OnNew func(*Conn)
	// OnRetire, if set, is called when a connection leaves the table (see
	// Expire and Flush); the tracker forgets it afterwards.
	OnRetire func(*Conn)
}

// Retirement policy. A connection stays in the table while packets may
// still come for it, so that a late packet joins its stream as in
// Wireshark; these times are of the capture's clock.
const (
	// closedIdle: a closed or reset connection idle this long is done.
	closedIdle = 120e9
	// idleTimeout: any connection idle this long is done.
	idleTimeout = 30 * 60e9
	// pressureConns: above this many live connections (a scan, a SYN
	// flood), connections idle for pressureIdle are retired too.
	pressureConns = 50000
	pressureIdle  = 30e9
)

// Expire retires connections that are finished or idle at capture time
// now, and returns how many it retired.
func (t *Tracker) Expire(now int64) int {
	n := 0
	pressure := len(t.conns) > pressureConns
	for k, c := range t.conns {
		idle := now - c.LastTime
		st := c.State()
		done := idle > idleTimeout ||
			(st == StateClosed || st == StateReset) && idle > closedIdle ||
			pressure && idle > pressureIdle
		if done {
			if c == t.last {
				t.last, t.lastKey = nil, connKey{}
			}
			delete(t.conns, k)
			if t.OnRetire != nil {
				t.OnRetire(c)
			}
			n++
		}
	}
	return n
}

// Flush retires every connection still in the table, in stream order.
func (t *Tracker) Flush() {
	rest := make([]*Conn, 0, len(t.conns))
	for _, c := range t.conns {
		rest = append(rest, c)
	}
	slices.SortFunc(rest, func(a, b *Conn) int { return a.Stream - b.Stream })
	clear(t.conns)
	t.last, t.lastKey = nil, connKey{}
	if t.OnRetire != nil {
		for _, c := range rest {
			t.OnRetire(c)
		}
	}
}

// NewTracker returns an empty tracker.
func NewTracker() *Tracker {
	return &Tracker{conns: make(map[connKey]*Conn)}
}

// Len returns the number of connections the tracker holds.
func (t *Tracker) Len() int { return len(t.conns) }

// Track assigns seg to its connection, creating it if needed, and fills
// seg's Stream, Dir, SeqAbs, AckAbs and Duplicate fields.
func (t *Tracker) Track(seg *Segment) *Conn {
	src, dst := seg.SrcAddrPort(), seg.DstAddrPort()
	key := keyOf(src, dst)
	var c *Conn
	if t.last != nil && key == t.lastKey {
		c = t.last // packets come in runs of one connection: skip the map
	} else {
		c = t.conns[key]
	}
	if c != nil && seg.Flags&(SYN|ACK) == SYN {
		// Wireshark starts a new stream when a SYN's sequence number differs
		// from the base of the conversation in that direction.
		d := c.dirOf(src)
		if di := &c.Dir[d]; di.baseSet && di.SYN && seg.Seq != di.ISN {
			c = nil
		} else if di.baseSet && !di.SYN && uint32(di.Base) != seg.Seq {
			c = nil
		}
	}
	if c == nil {
		c = &Conn{Stream: t.next, FirstTime: seg.Time, FirstFrame: seg.Frame}
		c.Dir[C2S].WScale, c.Dir[S2C].WScale = -1, -1
		t.next++
		switch {
		case seg.Flags&(SYN|ACK) == SYN:
			c.Client, c.Server, c.Handshake = src, dst, true
		case seg.Flags&(SYN|ACK) == SYN|ACK:
			c.Client, c.Server, c.Handshake = dst, src, true
		case seg.DstPort > seg.SrcPort:
			c.Client, c.Server = dst, src
		default:
			c.Client, c.Server = src, dst
		}
		if old := t.conns[key]; old != nil {
			c.ReusedPorts = true
			if t.OnRetire != nil {
				t.OnRetire(old)
			}
		}
		t.conns[key] = c
		t.last, t.lastKey = nil, connKey{}
		if t.OnNew != nil {
			t.OnNew(c)
		}
	}
	c.add(seg)
	t.last, t.lastKey = c, key
	return c
}

func (c *Conn) dirOf(src netip.AddrPort) Direction {
	if src == c.Client {
		return C2S
	}
	return S2C
}

func (c *Conn) add(seg *Segment) {
	d := c.dirOf(seg.SrcAddrPort())
	seg.Stream, seg.Dir = c.Stream, d
	c.LastTime, c.LastFrame = seg.Time, seg.Frame
	if seg.Time < c.FirstTime {
		c.FirstTime = seg.Time
	}
	fwd, rev := &c.Dir[d], &c.Dir[d.Reverse()]
	fwd.Packets++
	fwd.Bytes += int64(seg.PayloadLen)

	// Sequence number: unwrap against the direction's reference.
	if !fwd.started {
		fwd.started = true
		fwd.ref = 1<<32 | uint64(seg.Seq)
	}
	// Unwrapping against the previous segment (not the highest) keeps
	// consecutive segments of a direction within 2^31 of each other, even
	// when a stray sequence number comes in between.
	seg.SeqAbs = unwrap(seg.Seq, fwd.ref)
	fwd.ref = seg.SeqAbs
	if seg.Flags&SYN != 0 {
		if !fwd.SYN || !fwd.baseSet {
			fwd.ISN = seg.Seq
			fwd.Base = seg.SeqAbs
			fwd.baseSet = true
		}
		fwd.SYN = true
		o := &seg.Opt
		fwd.MSS, fwd.WScale, fwd.SACKPermitted, fwd.Timestamps = o.MSS, o.WScale, o.SACKPermitted, o.HasTimestamp
		if seg.Flags&ACK != 0 {
			c.SynAckSeen = true
		}
	} else if !fwd.baseSet {
		fwd.Base = seg.SeqAbs - 1
		fwd.baseSet = true
	}
	// ACK number: unwrap against the other direction's reference.
	if seg.Flags&ACK != 0 {
		if !rev.started {
			rev.started = true
			rev.ref = 1<<32 | uint64(seg.Ack)
		}
		seg.AckAbs = unwrap(seg.Ack, rev.ref)
		if !rev.baseSet {
			rev.Base = seg.AckAbs - 1
			rev.baseSet = true
		}
		if c.SynAckSeen && d == C2S && seg.Flags&SYN == 0 {
			c.HandshakeDone = true
		}
	}
	if seg.Flags&FIN != 0 {
		fwd.FIN = true
	}
	if seg.Flags&RST != 0 {
		fwd.RST = true
	}
	if c.SynAckSeen && !c.HandshakeDone && d == S2C && seg.PayloadLen > 0 {
		c.HandshakeDone = true
	}
	seg.Duplicate = fwd.checkDuplicate(seg)
	if seg.Duplicate {
		fwd.Duplicates++
	}
}

// unwrap returns the 64-bit number closest to ref whose low 32 bits are x
// (RFC 1982 serial number arithmetic).
func unwrap(x uint32, ref uint64) uint64 {
	delta := int64(int32(x - uint32(ref)))
	return uint64(int64(ref) + delta)
}

// duplicateWindow is how close in time two copies of one packet must be.
const duplicateWindow = 20e6 // 20 ms

// checkDuplicate reports whether seg is a second capture of a packet seen
// just before in the same direction: the same TCP header and IP ID, within
// a few milliseconds, seen on another interface, with another TTL (the
// forwarded copy), or with a non-zero IPv4 ID (which a retransmission
// would change).
func (di *DirInfo) checkDuplicate(seg *Segment) bool {
	sig := dupSig{
		seq: seg.Seq, ack: seg.Ack, tsval: seg.Opt.TSVal, tsecr: seg.Opt.TSEcr,
		time: seg.Time, length: int32(seg.PayloadLen), flags: seg.Flags,
		window: seg.Window, ipid: seg.IPID, ttl: seg.TTL, iface: seg.Interface, valid: true,
	}
	dup := false
	for i := range di.recent {
		r := &di.recent[i]
		if !r.valid || r.seq != sig.seq || r.ack != sig.ack || r.flags != sig.flags ||
			r.length != sig.length || r.window != sig.window || r.ipid != sig.ipid ||
			r.tsval != sig.tsval || r.tsecr != sig.tsecr {
			continue
		}
		dt := sig.time - r.time
		if dt < 0 || dt > duplicateWindow {
			continue
		}
		if r.iface != sig.iface || r.ttl != sig.ttl || (seg.IPVersion == 4 && sig.ipid != 0) {
			dup = true
			break
		}
	}
	if !dup {
		di.recent[di.recentAt] = sig
		di.recentAt = (di.recentAt + 1) % dupWindow
	}
	return dup
}
