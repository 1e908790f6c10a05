package reassembly

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"net/netip"
	"runtime"
	"slices"

	"tcpviz/internal/slab"
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

	started bool   // a segment of this direction was seen
	baseSet bool   // Base is valid
	Base    uint64 // unwrapped number that relative sequence numbers count from
	ref     uint64 // the last unwrapped sequence number, the reference for unwrapping
	// The signatures of the last dupWindow packets that were not
	// duplicates, for checkDuplicate: the first one inline, then all of
	// them in a ring allocated with the direction's second packet, so that
	// a connection of one SYN (a flood, a scan) does not pay for it.
	first dupSig
	ring  *dupRing
}

const dupWindow = 4 // (checkDuplicate compares the keys of 4)

type dupSig struct {
	seq, ack     uint32
	tsval, tsecr uint32
	time         int64
	length       int32
	iface        int32
	flags        Flags
	window       uint16
	ipid         uint16
	ttl          uint8
	valid        bool
}

type dupRing struct {
	sig [dupWindow]dupSig
	// key[i] is sig[i]'s sequence and ACK numbers, side by side: most
	// packets match none, and that is told from these alone.
	key [dupWindow]uint64
	at  uint
}

// dupKey is the sequence and ACK numbers of a packet, for dupRing.key.
func dupKey(seg *Segment) uint64 { return uint64(seg.Seq)<<32 | uint64(seg.Ack) }

// Conn is one TCP connection: a 4-tuple from its first packet, or from a
// SYN that reused the 4-tuple with a new initial sequence number.
type Conn struct {
	Stream         int // Wireshark's tcp.stream
	Client, Server netip.AddrPort
	FirstTime      int64 // ns since the epoch
	LastTime       int64
	FirstFrame     int64
	LastFrame      int64
	Dir            [2]DirInfo // indexed by Direction
	// Handshake is true when the client was identified by a SYN; otherwise
	// the client is the side with the higher port. (It is declared here,
	// beside the other flags, to keep Conn within a 320-byte size class.)
	Handshake bool
	// SynAckSeen is set once the server's SYN/ACK was seen.
	SynAckSeen bool
	// HandshakeDone is set once the client acknowledged the SYN/ACK.
	HandshakeDone bool
	// ReusedPorts is set when this connection's SYN took over the 4-tuple
	// of an earlier connection (Wireshark's tcp.analysis.reused_ports).
	ReusedPorts bool
	// lone is set while c is what the tracker kept of a connection of one
	// SYN (a loneConn), synWire that SYN's frame length: LoneSYN makes
	// the SYN again from them.
	lone    bool
	synWire uint16
	// zeek is Zeek's view of it: conn_state and history (ZeekState).
	zeek zeekConn
}

// LoneSYN returns the SYN of a connection the tracker kept as that SYN
// alone (Segment.Lone) and retired before a second packet came: the
// segment exactly as Track returned it. Otherwise it reports false.
func (c *Conn) LoneSYN() (Segment, bool) {
	if !c.lone {
		return Segment{}, false
	}
	d, sig := &c.Dir[C2S], &c.Dir[C2S].first
	ipv := uint8(6)
	if c.Client.Addr().Is4() {
		ipv = 4
	}
	return Segment{Frame: c.FirstFrame, Time: sig.time, Interface: sig.iface,
		Src: c.Client.Addr(), Dst: c.Server.Addr(), SrcPort: c.Client.Port(), DstPort: c.Server.Port(),
		IPVersion: ipv, TTL: sig.ttl, IPID: sig.ipid, Seq: sig.seq, Ack: sig.ack, Flags: sig.flags,
		Window: sig.window, WireLen: int(c.synWire),
		Opt: Options{MSS: d.MSS, WScale: d.WScale, SACKPermitted: d.SACKPermitted, HasTimestamp: d.Timestamps,
			TSVal: sig.tsval, TSEcr: sig.tsecr},
		Stream: c.Stream, SeqAbs: 1<<32 | uint64(sig.seq), ConnFirstTime: c.FirstTime,
		Base: [2]uint64{1<<32 | uint64(sig.seq), 0}, Dir: C2S, ClientSYNSeen: true, Lone: true}, true
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

// connKey is the unordered pair of endpoints of a connection, as plain
// integers: 40 bytes without pointers, cheaper to hash and for the garbage
// collector than a pair of netip.AddrPort. IPv6 zones, which no decoded
// packet has, are not part of it.
type connKey struct {
	aHi, aLo, bHi, bLo uint64
	aPort, bPort       uint16
	v4                 bool
}

// a and b are the key's endpoints.
func (k connKey) a() netip.AddrPort { return netip.AddrPortFrom(keyAddr(k.aHi, k.aLo, k.v4), k.aPort) }
func (k connKey) b() netip.AddrPort { return netip.AddrPortFrom(keyAddr(k.bHi, k.bLo, k.v4), k.bPort) }

func keyAddr(hi, lo uint64, v4 bool) netip.Addr {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], hi)
	binary.BigEndian.PutUint64(b[8:], lo)
	a := netip.AddrFrom16(b)
	if v4 {
		return a.Unmap()
	}
	return a
}

func keyOf(src netip.Addr, srcPort uint16, dst netip.Addr, dstPort uint16) connKey {
	s, d := src.As16(), dst.As16()
	k := connKey{
		aHi: binary.BigEndian.Uint64(s[:8]), aLo: binary.BigEndian.Uint64(s[8:]), aPort: srcPort,
		bHi: binary.BigEndian.Uint64(d[:8]), bLo: binary.BigEndian.Uint64(d[8:]), bPort: dstPort,
		v4: src.Is4(),
	}
	// Any fixed order of the two endpoints will do.
	if k.bHi < k.aHi || k.bHi == k.aHi && (k.bLo < k.aLo || k.bLo == k.aLo && k.bPort < k.aPort) {
		k.aHi, k.aLo, k.aPort, k.bHi, k.bLo, k.bPort = k.bHi, k.bLo, k.bPort, k.aHi, k.aLo, k.aPort
	}
	return k
}

// Tracker assigns segments to connections.
type Tracker struct {
	conns map[connKey]*Conn
	// lone finds the connections of which only a first SYN was seen, by
	// the hash of their key (loneHash): their indexes in lones, in an
	// open-addressing table outside the Go heap (16 bytes a connection
	// of a flood at most, where a Go map of the hashes took about 30,
	// doubled by the garbage collector's heap goal).
	lone     slab.Table
	lones    slab.Slab[loneConn]
	loneSeed maphash.Seed
	loneMask uint64 // of the hash bits used: all but in tests of collisions
	next     int
	// last is the connection of the previous segment.
	last *Conn
	// minLast is at most the LastTime of every connection in the table, so
	// that Expire knows when none of them can be idle long enough yet.
	minLast int64
	// clock is the capture time Expire goes by.
	clock expiryClock
	// retired keeps, for connections retired while still open, what a
	// later packet needs to continue the same stream as Wireshark does:
	// its number, endpoints, bases and options (at most maxRetired, the
	// oldest evicted first; evicted counts them; continued counts those
	// that came back).
	retired      map[connKey]*Conn
	retiredOrder []connKey
	evicted      int64
	continued    int64
	// reuseFirst marks the next connection made ReusedPorts (Scanner.Focus:
	// the connection whose 4-tuple was another's before).
	reuseFirst bool
	// expired is Expire's list of the connections it retires (kept for
	// the next sweep's).
	expired []*Conn
	// crowd, when set (by tests), replaces pressureConns.
	crowd int
	// OnNew, if set, is called when a connection is created, before the
	// segment that created it is returned.
	OnNew func(*Conn)
	// OnRetire, if set, is called when a connection leaves the table (see
	// Expire and Flush); the tracker forgets it afterwards.
	//
	// A connection whose first packet is a SYN alone is kept as a
	// loneConn until a second packet comes: the Conn that OnNew, Track
	// and OnRetire hand over for it may then be three values, equal in
	// what they say but not the same pointer. From its second packet on,
	// a connection is one Conn until it retires.
	OnRetire func(*Conn)
}

// loneConn is a connection of which only its first packet was seen, a
// SYN without ACK, FIN, RST or payload (a SYN flood, a scan): what the
// Conn would hold, and the SYN's frame length, in 96 bytes without
// pointers, where a Conn takes 320 and an allocation the garbage
// collector visits. Its endpoints are its key's. The Conn is made again
// from it (conn) on the connection's second packet or when it retires,
// and with it the SYN (Conn.LoneSYN): a connection is kept so only when
// that SYN is made again exactly (addLone), so that the analysis need
// not keep a copy.
type loneConn struct {
	key          connKey
	stream       int
	time, frame  int64 // the SYN's
	seq, ack     uint32
	tsval, tsecr uint32
	iface        uint16
	flags        Flags
	window, ipid uint16
	mss          uint16
	wireLen      uint16
	ttl          uint8
	wscale       int8
	bits         uint8 // loneSACK | loneTimestamps | loneReused | loneClientB
}

const (
	loneSACK       = 1 << iota // SACKPermitted
	loneTimestamps             // Timestamps
	loneReused                 // ReusedPorts
	loneClientB                // the client is the key's b endpoint
)

// isLone reports whether seg, the first packet of a new connection, is
// kept as a loneConn: a SYN alone, between addresses without zones.
func isLone(seg *Segment) bool {
	return seg.Flags&(SYN|ACK|FIN|RST) == SYN && seg.PayloadLen == 0 && !seg.InICMP &&
		seg.Src.Zone() == "" && seg.Dst.Zone() == ""
}

// addLone keeps c, just made by seg, a SYN alone (isLone), as a
// loneConn, if the SYN is made again from it exactly (then seg.Lone is
// set), and reports whether it did.
func (t *Tracker) addLone(k connKey, c *Conn, seg *Segment) bool {
	if seg.WireLen < 0 || seg.WireLen > math.MaxUint16 || seg.Interface < 0 || seg.Interface > math.MaxUint16 {
		return false
	}
	c.lone, c.synWire, seg.Lone = true, uint16(seg.WireLen), true
	if syn, _ := c.LoneSYN(); syn != *seg {
		c.lone, c.synWire, seg.Lone = false, 0, false
		return false
	}
	d, sig := &c.Dir[C2S], &c.Dir[C2S].first
	l := loneConn{stream: c.Stream, time: sig.time, frame: c.FirstFrame, seq: sig.seq, ack: sig.ack,
		tsval: sig.tsval, tsecr: sig.tsecr, iface: uint16(sig.iface), flags: sig.flags, window: sig.window,
		ipid: sig.ipid, mss: d.MSS, wireLen: c.synWire, ttl: sig.ttl, wscale: d.WScale}
	for _, b := range []struct {
		on  bool
		bit uint8
	}{{d.SACKPermitted, loneSACK}, {d.Timestamps, loneTimestamps}, {c.ReusedPorts, loneReused}, {c.Client != k.a(), loneClientB}} {
		if b.on {
			l.bits |= b.bit
		}
	}
	l.key = k
	t.lone.Insert(t.loneHash(k), t.lones.Add(l))
	return true
}

// loneHash is the hash of a key in Tracker.lone, seeded: a flood is made
// by someone, who cannot choose keys of one hash.
func (t *Tracker) loneHash(k connKey) uint64 {
	var b [37]byte
	binary.LittleEndian.PutUint64(b[0:], k.aHi)
	binary.LittleEndian.PutUint64(b[8:], k.aLo)
	binary.LittleEndian.PutUint64(b[16:], k.bHi)
	binary.LittleEndian.PutUint64(b[24:], k.bLo)
	binary.LittleEndian.PutUint16(b[32:], k.aPort)
	binary.LittleEndian.PutUint16(b[34:], k.bPort)
	if k.v4 {
		b[36] = 1
	}
	return maphash.Bytes(t.loneSeed, b[:]) & t.loneMask
}

// findLone returns the index in lones of the lone connection of key k.
func (t *Tracker) findLone(k connKey) (uint32, bool) {
	return t.lone.Find(t.loneHash(k), func(i uint32) bool { return t.lones.At(i).key == k })
}

// eachLone calls f with the index of every lone connection.
func (t *Tracker) eachLone(f func(i uint32)) { t.lone.All(f) }

// conn makes the Conn of lone connection l, as it was after its SYN.
func (l *loneConn) conn() *Conn {
	k := l.key
	c := &Conn{Stream: l.stream, FirstTime: l.time, LastTime: l.time, FirstFrame: l.frame, LastFrame: l.frame,
		Client: k.a(), Server: k.b(), Handshake: true, ReusedPorts: l.bits&loneReused != 0,
		lone: true, synWire: l.wireLen}
	if l.bits&loneClientB != 0 {
		c.Client, c.Server = c.Server, c.Client
	}
	d := &c.Dir[C2S]
	d.Packets, d.SYN, d.ISN = 1, true, l.seq
	d.MSS, d.WScale = l.mss, l.wscale
	d.SACKPermitted, d.Timestamps = l.bits&loneSACK != 0, l.bits&loneTimestamps != 0
	d.started, d.baseSet = true, true
	d.Base = 1<<32 | uint64(l.seq)
	d.ref = d.Base
	d.first = dupSig{seq: l.seq, ack: l.ack, tsval: l.tsval, tsecr: l.tsecr, time: l.time, flags: l.flags,
		window: l.window, ipid: l.ipid, ttl: l.ttl, iface: int32(l.iface), valid: true}
	c.Dir[S2C].WScale = -1
	return c
}

// dropLone forgets the lone connection of index i and returns its Conn.
func (t *Tracker) dropLone(i uint32) *Conn {
	l := t.lones.At(i)
	c := l.conn()
	t.lone.Delete(t.loneHash(l.key), i)
	t.lones.Free(i)
	return c
}

// Retirement policy. A connection stays in the table while packets may
// still come for it, so that a late packet joins its stream and its row
// as in Wireshark (an open connection silent for an hour, such as
// iperf3's control connection, is one row); these times are of the
// capture's clock. The table is bounded by pressureConns live
// connections plus those of the last pressureIdle.
const (
	// closedIdle: a closed or reset connection idle this long is done.
	closedIdle = 120e9
	// pressureConns: above this many live connections (a scan, a SYN
	// flood), open connections idle for pressureIdle are retired too
	// (and so are UDP flows, FlowTracker); below it, an open connection
	// is retired only at the end of the capture.
	pressureConns = 50000
	pressureIdle  = 30e9
	// maxClockStep bounds how far Expire's clock moves at one call: a
	// packet with a wild timestamp (a day ahead) moves it this much, not
	// to the packet's time, so it does not make every live connection
	// idle (they would become new streams, unlike in Wireshark).
	maxClockStep = 10 * 60e9
	// maxRetired bounds the retired connections remembered (about 330
	// bytes each).
	maxRetired = 1 << 16
)

// Expire retires connections that are finished or idle at capture time
// now, and returns how many it retired. Its clock follows now forwards by
// at most maxClockStep a call (starting from the earliest live packet),
// and never backwards.
func (t *Tracker) Expire(now int64) int {
	now = t.clock.at(now, t.minLast)
	pressure := t.Len() > t.pressureConns()
	// The shortest idle time that retires anything: without it, a sweep
	// of the whole table would find nothing to do.
	shortest := int64(closedIdle)
	if pressure {
		shortest = pressureIdle
	}
	if now-t.minLast <= shortest {
		return 0
	}
	minLast := int64(math.MaxInt64)
	done := t.expired[:0]
	for k, c := range t.conns {
		idle := now - c.LastTime
		st := c.State()
		if (st == StateClosed || st == StateReset) && idle > closedIdle || pressure && idle > pressureIdle {
			if c == t.last {
				t.last = nil
			}
			delete(t.conns, k)
			if st != StateClosed && st != StateReset {
				t.remember(k, c)
			}
			done = append(done, c)
		} else {
			minLast = min(minLast, c.LastTime)
		}
	}
	// Handed on in stream order, the lone ones among the rest, as Flush
	// does: the tables' own orders are a map's and a hash table's, another
	// at every run, and so was the order of the rows of the connections
	// one sweep retired (a crowd's).
	idle := t.lonesInOrder(0, func(i uint32) bool {
		// Neither closed nor reset: a SYN alone is syn_sent.
		last := t.lones.At(i).time
		if pressure && now-last > pressureIdle {
			return true
		}
		minLast = min(minLast, last)
		return false
	})
	slices.SortFunc(done, func(a, b *Conn) int { return a.Stream - b.Stream })
	n := t.handOn(done, idle, func(r loneRef) *Conn {
		k := t.lones.At(r.i).key
		c := t.dropLone(r.i)
		t.remember(k, c)
		return c
	})
	clear(done)
	t.expired = done[:0]
	t.minLast = minLast
	return n
}

// expiryClock is the capture time idle retirement goes by: it follows
// the times it is given forwards by at most maxClockStep a call (starting
// from the earliest live packet, minLast), never backwards, so that one
// packet with a wild timestamp does not make everything idle.
type expiryClock struct{ t int64 }

func (c *expiryClock) at(now, minLast int64) int64 {
	switch {
	case c.t == 0 && minLast != math.MaxInt64:
		c.t = min(now, minLast+maxClockStep)
	case c.t == 0 || now > c.t:
		c.t = min(now, c.t+maxClockStep)
	}
	return c.t
}

// remember keeps what a later packet of c (retired while open) needs to
// continue its stream: a copy of its identity, bases and options, not
// its counts.
func (t *Tracker) remember(k connKey, c *Conn) {
	if t.retired == nil {
		t.retired = map[connKey]*Conn{}
	}
	if len(t.retiredOrder) >= maxRetired {
		old := t.retiredOrder[0]
		t.retiredOrder = t.retiredOrder[1:]
		if _, ok := t.retired[old]; ok {
			delete(t.retired, old)
			t.evicted++
		}
	}
	r := &Conn{Stream: c.Stream, Client: c.Client, Server: c.Server, Handshake: c.Handshake,
		SynAckSeen: c.SynAckSeen, HandshakeDone: c.HandshakeDone}
	for d := range c.Dir {
		src, dst := &c.Dir[d], &r.Dir[d]
		dst.SYN, dst.ISN, dst.MSS, dst.WScale = src.SYN, src.ISN, src.MSS, src.WScale
		dst.SACKPermitted, dst.Timestamps = src.SACKPermitted, src.Timestamps
		dst.started, dst.baseSet, dst.Base, dst.ref = src.started, src.baseSet, src.Base, src.ref
	}
	t.retired[k] = r
	t.retiredOrder = append(t.retiredOrder, k)
}

// pressureConns is the live connections above which open ones are
// retired when idle (crowd, when set by a test).
func (t *Tracker) pressureConns() int {
	if t.crowd > 0 {
		return t.crowd
	}
	return pressureConns
}

// Continued returns how many connections retired while open came back
// (a packet after their retirement): each is reported in parts, rows or
// results that share one stream number, where Wireshark has one
// conversation.
func (t *Tracker) Continued() int64 { return t.continued }

// Evicted returns how many retired connections were forgotten (beyond
// maxRetired): a later packet of one of them starts a new stream, where
// Wireshark would continue the old one.
func (t *Tracker) Evicted() int64 { return t.evicted }

// loneRef is a lone connection's stream and index in Tracker.lones.
type loneRef struct {
	stream int
	i      uint32
}

// loneOrder is lone connections in stream order, each as stream<<32 |
// index (8 bytes a connection: a flood's are many) while streams stay
// below 2^32, else as a loneRef.
type loneOrder struct {
	packed []uint64
	wide   []loneRef
}

// lonesInOrder returns the lone connections take keeps, in stream order
// (n: how many there may be, 0 unknown).
func (t *Tracker) lonesInOrder(n int, take func(i uint32) bool) *loneOrder {
	o := &loneOrder{}
	if uint64(t.next) <= math.MaxUint32 {
		o.packed = make([]uint64, 0, n)
		t.eachLone(func(i uint32) {
			if take(i) {
				o.packed = append(o.packed, uint64(t.lones.At(i).stream)<<32|uint64(i))
			}
		})
		slices.Sort(o.packed)
		return o
	}
	t.eachLone(func(i uint32) {
		if take(i) {
			o.wide = append(o.wide, loneRef{t.lones.At(i).stream, i})
		}
	})
	slices.SortFunc(o.wide, func(a, b loneRef) int { return a.stream - b.stream })
	return o
}

// first is the first connection left, false when none is.
func (o *loneOrder) first() (loneRef, bool) {
	switch {
	case len(o.packed) > 0:
		return loneRef{int(o.packed[0] >> 32), uint32(o.packed[0])}, true
	case len(o.wide) > 0:
		return o.wide[0], true
	}
	return loneRef{}, false
}

func (o *loneOrder) pop() {
	if len(o.packed) > 0 {
		o.packed = o.packed[1:]
	} else {
		o.wide = o.wide[1:]
	}
}

// handOn retires the connections of full (in stream order) and the lone
// ones of lone, merged by stream (OnRetire, when set), and returns how
// many: conn makes a lone one's Conn as it comes, so that a flood's are
// not made all at once.
func (t *Tracker) handOn(full []*Conn, lone *loneOrder, conn func(loneRef) *Conn) (n int) {
	for ; ; n++ {
		r, ok := lone.first()
		var c *Conn
		switch {
		case !ok && len(full) == 0:
			return n
		case !ok || len(full) > 0 && full[0].Stream < r.stream:
			c, full = full[0], full[1:]
		default:
			c = conn(r)
			lone.pop()
		}
		if t.OnRetire != nil {
			t.OnRetire(c)
		}
	}
}

// Flush retires every connection still in the table, in stream order.
// The Conn of a lone connection is made as it is retired, so that a flood
// of them is not made all at once.
func (t *Tracker) Flush() {
	full := make([]*Conn, 0, len(t.conns))
	for _, c := range t.conns {
		full = append(full, c)
	}
	slices.SortFunc(full, func(a, b *Conn) int { return a.Stream - b.Stream })
	lone := t.lonesInOrder(t.lones.Len(), func(uint32) bool { return true })
	lones := t.lones
	t.lones = slab.Slab[loneConn]{}
	clear(t.conns)
	t.lone.Reset()
	t.last, t.minLast = nil, math.MaxInt64
	if t.OnRetire == nil {
		return
	}
	t.handOn(full, lone, func(r loneRef) *Conn { return lones.At(r.i).conn() })
	runtime.KeepAlive(lones) // its memory is freed with it
}

// NewTracker returns an empty tracker.
func NewTracker() *Tracker {
	return &Tracker{conns: make(map[connKey]*Conn), loneSeed: maphash.MakeSeed(),
		loneMask: ^uint64(0), minLast: math.MaxInt64}
}

// Len returns the number of connections the tracker holds.
func (t *Tracker) Len() int { return len(t.conns) + t.lones.Len() }

// Track assigns seg to its connection, creating it if needed, and fills
// seg's Stream, Dir, SeqAbs, AckAbs and Duplicate fields.
func (t *Tracker) Track(seg *Segment) *Conn {
	seg.Lone, seg.First = false, nil
	// Packets come in runs of one connection: a packet of the previous
	// one's that is no SYN alone (which may start a new stream) is added
	// to it at once, its direction known from the comparison.
	if c := t.last; c != nil && seg.Flags&(SYN|ACK) != SYN {
		// dirOf without making the endpoints' AddrPorts, the ports
		// (which differ most often) compared first.
		cp, sp := c.Client.Port(), c.Server.Port()
		d, ok := C2S, false
		switch {
		case seg.SrcPort == cp && seg.DstPort == sp && seg.Src == c.Client.Addr() && seg.Dst == c.Server.Addr():
			ok = true
		case seg.SrcPort == sp && seg.DstPort == cp && seg.Src == c.Server.Addr() && seg.Dst == c.Client.Addr():
			d, ok = S2C, true
		}
		if ok {
			c.add(seg, d)
			if !seg.InICMP {
				c.zeek.packet(d, seg)
			}
			t.minLast = min(t.minLast, seg.Time)
			return c
		}
	}
	src, dst := seg.SrcAddrPort(), seg.DstAddrPort()
	var key connKey
	haveKey := false
	c := t.last
	// Packets come in runs of one connection: compare with the previous
	// one's endpoints before building a key and looking in the map.
	if c == nil || !(src == c.Client && dst == c.Server || src == c.Server && dst == c.Client) {
		key, haveKey = keyOf(seg.Src, seg.SrcPort, seg.Dst, seg.DstPort), true
		c = t.conns[key]
		if c == nil {
			if i, ok := t.findLone(key); ok {
				// Its second packet: the connection becomes a Conn for good.
				c = t.dropLone(i)
				t.conns[key] = c
			}
		}
	}
	prev := c // the connection in the table, if any
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
	if c == nil && t.retired != nil {
		if !haveKey {
			key, haveKey = keyOf(seg.Src, seg.SrcPort, seg.Dst, seg.DstPort), true
		}
		if r := t.retired[key]; r != nil && prev == nil {
			// A later packet of a connection retired while open continues
			// its stream (Wireshark keeps one conversation), unless it is a
			// SYN with another initial sequence number.
			delete(t.retired, key)
			if di := &r.Dir[r.dirOf(src)]; seg.Flags&(SYN|ACK) == SYN && di.baseSet &&
				(di.SYN && seg.Seq != di.ISN || !di.SYN && uint32(di.Base) != seg.Seq) {
				r = nil // the same rule as for a live connection, above
			}
			if r != nil {
				t.continued++
				r.FirstTime, r.FirstFrame = seg.Time, seg.Frame
				c = r
				t.conns[key] = c
				t.last = nil
			}
		}
	}
	if c == nil {
		if !haveKey {
			key = keyOf(seg.Src, seg.SrcPort, seg.Dst, seg.DstPort)
		}
		c = &Conn{Stream: t.next, FirstTime: seg.Time, FirstFrame: seg.Frame}
		c.Dir[C2S].WScale, c.Dir[S2C].WScale = -1, -1
		t.next++
		c.ReusedPorts, t.reuseFirst = t.reuseFirst, false
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
		if prev != nil {
			c.ReusedPorts = true
			if t.OnRetire != nil {
				t.OnRetire(prev)
			}
		}
		t.last = nil
		if t.OnNew != nil {
			t.OnNew(c)
		}
		if isLone(seg) {
			c.add(seg, c.dirOf(src))
			t.minLast = min(t.minLast, seg.Time)
			if t.addLone(key, c, seg) {
				if prev != nil {
					delete(t.conns, key)
				}
				return c // its SYN is Zeek's when a second packet comes (add)
			}
			c.zeek.packet(seg.Dir, seg)
			t.conns[key] = c
			t.last = c
			return c
		}
		t.conns[key] = c
	}
	c.add(seg, c.dirOf(src))
	if !seg.InICMP {
		c.zeek.packet(seg.Dir, seg)
	}
	t.last = c
	t.minLast = min(t.minLast, seg.Time)
	return c
}

func (c *Conn) dirOf(src netip.AddrPort) Direction {
	if src == c.Client {
		return C2S
	}
	return S2C
}

// add adds seg, of direction d (dirOf its source), to c.
func (c *Conn) add(seg *Segment, d Direction) {
	if c.lone {
		// The second packet of a connection kept as its SYN alone: the
		// SYN goes with it (Segment.First), for the analysis to replay.
		syn, _ := c.LoneSYN()
		seg.First, c.lone, c.synWire = &syn, false, 0
		c.zeek = zeekConn{}
		c.zeek.packet(C2S, &syn)
	}
	seg.Stream, seg.Dir = c.Stream, d
	c.LastTime, c.LastFrame = seg.Time, seg.Frame
	if seg.Time < c.FirstTime {
		c.FirstTime = seg.Time
	}
	fwd, rev := &c.Dir[d&1], &c.Dir[(d^1)&1] // (the &1 drops the bounds checks)
	fwd.Packets++
	fwd.Bytes += int64(seg.PayloadLen)
	if seg.InICMP {
		// A packet of the connection, as Wireshark counts it, quoting
		// numbers of the past: no state of the connection changes.
		seg.SeqAbs, seg.AckAbs = unwrap(seg.Seq, max(fwd.ref, 1<<32)), 0
		seg.ConnFirstTime, seg.ClientSYNSeen = c.FirstTime, c.Dir[C2S].SYN
		seg.Base = [2]uint64{c.Dir[C2S].Base, c.Dir[S2C].Base}
		return
	}

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
	} else {
		seg.AckAbs = 0 // no acknowledgement number in this segment
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
	// checkDuplicate's common case inline: a ring whose keys seg matches
	// none of, the signature written over the oldest.
	if r, k := fwd.ring, dupKey(seg); r != nil && r.key[0] != k && r.key[1] != k && r.key[2] != k && r.key[3] != k {
		i := r.at % dupWindow
		r.sig[i].set(seg)
		r.key[i] = k
		r.at++
		seg.Duplicate = false
	} else if seg.Duplicate = fwd.checkDuplicate(seg); seg.Duplicate {
		fwd.Duplicates++
	}
	seg.ConnFirstTime, seg.ClientSYNSeen = c.FirstTime, c.Dir[C2S].SYN
	seg.Base = [2]uint64{c.Dir[C2S].Base, c.Dir[S2C].Base}
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
	// The signatures are compared with the segment and written in place:
	// most packets match none, and this runs for every one of them.
	r := di.ring
	if r == nil {
		if !di.first.valid { // the direction's first packet
			di.first.set(seg)
			return false
		}
		if di.first.duplicatedBy(seg) {
			return true
		}
		r = &dupRing{at: 1}
		r.sig[0], di.first = di.first, dupSig{}
		r.key[0] = uint64(r.sig[0].seq)<<32 | uint64(r.sig[0].ack)
		di.ring = r
	} else if k := dupKey(seg); r.key[0] == k || r.key[1] == k || r.key[2] == k || r.key[3] == k { // dupWindow of them
		for i := range r.sig {
			if r.sig[i].duplicatedBy(seg) {
				return true
			}
		}
	}
	i := r.at % dupWindow // over the oldest
	r.sig[i].set(seg)
	r.key[i] = dupKey(seg)
	r.at++
	return false
}

// set makes r the signature of seg.
func (r *dupSig) set(seg *Segment) {
	r.seq, r.ack, r.tsval, r.tsecr = seg.Seq, seg.Ack, seg.Opt.TSVal, seg.Opt.TSEcr
	r.time, r.length, r.flags = seg.Time, int32(seg.PayloadLen), seg.Flags
	r.window, r.ipid, r.ttl, r.iface, r.valid = seg.Window, seg.IPID, seg.TTL, seg.Interface, true
}

// duplicatedBy reports whether s is a capture duplicate of the earlier
// packet of signature r (see checkDuplicate).
func (r *dupSig) duplicatedBy(s *Segment) bool {
	if r.seq != s.Seq || r.ack != s.Ack || !r.valid || r.flags != s.Flags ||
		r.length != int32(s.PayloadLen) || r.window != s.Window || r.ipid != s.IPID ||
		r.tsval != s.Opt.TSVal || r.tsecr != s.Opt.TSEcr {
		return false
	}
	if dt := s.Time - r.time; dt < 0 || dt > duplicateWindow {
		return false
	}
	return r.iface != s.Interface || r.ttl != s.TTL || (s.IPVersion == 4 && s.IPID != 0)
}
