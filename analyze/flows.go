package analyze

import (
	"encoding/binary"
	"net/netip"
	"slices"

	"tcpviz/reassembly"
)

// FlowResult is one flow of any transport at the end of its life, as
// `tcpviz flows` shows it: a TCP connection (Flow is its tcp.stream), a
// UDP flow (udp.stream) or the packets of another IP protocol between two
// addresses (numbered per protocol).
type FlowResult struct {
	Proto uint8 // IP protocol number
	Flow  int
	// Src sent the flow's first packet. Ports are 0 but for TCP and UDP.
	Src, Dst  netip.AddrPort
	FirstTime int64 // ns since the epoch
	Duration  int64 // ns
	// Packets and Bytes (transport payload: tcp.len, udp.length − 8, the
	// IP payload for other protocols) are indexed 0 from Src, 1 from Dst.
	Packets, Bytes [2]int64
	// Fragmented counts datagrams reassembled from IP fragments.
	Fragmented int64
	// App is what the application's own headers say, when the flow was
	// recognised (iperf3 UDP); nil otherwise.
	App *AppStats
}

// View is what a flow filter (reassembly.Filter) sees of f.
func (f *FlowResult) View() reassembly.FlowView {
	return reassembly.FlowView{A: f.Src, B: f.Dst, Sent: [2]bool{f.Packets[0] > 0, f.Packets[1] > 0}, Proto: reassembly.ProtoName(f.Proto), Stream: f.Flow}
}

// AppStats are an application's own measurements, recomputed from its
// headers in the capture.
type AppStats struct {
	Name string // "iperf3"
	// FromDst is set when the application's data went from Dst to Src
	// (iperf3 --reverse: the client's first datagram opens the flow).
	FromDst bool
	// Packets is the number of datagrams the sender numbered: the highest
	// sequence number seen (counted from the first one seen when the
	// capture starts after the test did), iperf3's "Total Datagrams".
	Packets int64
	// Received counts datagrams that carried the application's header.
	Received   int64
	Lost       int64 // iperf3's lost datagrams: sequence gaps, less late arrivals
	OutOfOrder int64 // datagrams whose sequence number was not above every earlier one
	// JitterMs is RFC 3550's interarrival jitter, as iperf3 computes it
	// from its send timestamps and the capture's arrival times.
	JitterMs float64
	// Counters64 is set for iperf3 --udp-counters-64bit.
	Counters64 bool
}

// flowRun follows the flows of one Run: it numbers them in order of first
// packet across protocols (TCP connections and datagram flows), runs the
// iperf3 analysis on UDP flows, and releases each flow's result in that
// order.
type flowRun struct {
	ord   int                          // the next ordinal
	tcp   map[int]*tcpFlow             // by tcp.stream
	dgram map[*reassembly.Flow]*dgFlow // live datagram flows
	ro    ordered[*FlowResult]
}

type tcpFlow struct {
	ord      int
	firstDir reassembly.Direction
	dirSet   bool
}

type dgFlow struct {
	ord   int
	iperf [2]*iperfDir // by direction, allocated with the first candidate datagram
}

func newFlowRun(sink func(*FlowResult)) *flowRun {
	return &flowRun{tcp: map[int]*tcpFlow{}, dgram: map[*reassembly.Flow]*dgFlow{},
		ro: ordered[*FlowResult]{pending: map[int]*FlowResult{}, sink: sink}}
}

func (fr *flowRun) newConn(c *reassembly.Conn) {
	fr.tcp[c.Stream] = &tcpFlow{ord: fr.ord}
	fr.ord++
}

// segment notes the direction of a connection's first packet. A
// connection retired while open that came back (reassembly.Tracker.
// Continued: no OnNew) is a flow again from its first packet back, in
// that packet's place, as the other tables list it in parts.
func (fr *flowRun) segment(c *reassembly.Conn, seg *reassembly.Segment) {
	if seg.Frame != c.FirstFrame {
		return
	}
	t := fr.tcp[c.Stream]
	if t == nil {
		t = &tcpFlow{ord: fr.ord}
		fr.ord++
		fr.tcp[c.Stream] = t
	}
	if !t.dirSet {
		t.firstDir, t.dirSet = seg.Dir, true
	}
}

func (fr *flowRun) retireConn(c *reassembly.Conn) {
	t := fr.tcp[c.Stream]
	if t == nil {
		return
	}
	delete(fr.tcp, c.Stream)
	r := &FlowResult{Proto: reassembly.ProtoTCP, Flow: c.Stream, Src: c.Client, Dst: c.Server,
		FirstTime: c.FirstTime, Duration: c.Duration()}
	for d := range 2 {
		r.Packets[d], r.Bytes[d] = c.Dir[d].Packets, c.Dir[d].Bytes
	}
	if t.firstDir == reassembly.S2C {
		r.Src, r.Dst = r.Dst, r.Src
		r.Packets[0], r.Packets[1] = r.Packets[1], r.Packets[0]
		r.Bytes[0], r.Bytes[1] = r.Bytes[1], r.Bytes[0]
	}
	fr.ro.add(t.ord, r)
}

func (fr *flowRun) newFlow(f *reassembly.Flow) {
	fr.dgram[f] = &dgFlow{ord: fr.ord}
	fr.ord++
}

func (fr *flowRun) datagram(dg *reassembly.Datagram, f *reassembly.Flow) {
	if dg.Proto != reassembly.ProtoUDP || len(dg.Payload) < iperfHeader {
		return
	}
	s := fr.dgram[f]
	if s == nil {
		return
	}
	ip := s.iperf[dg.Dir]
	if ip == nil {
		ip = &iperfDir{}
		s.iperf[dg.Dir] = ip
	}
	ip.add(dg.Time, dg.Payload)
}

func (fr *flowRun) retireFlow(f *reassembly.Flow) {
	s := fr.dgram[f]
	if s == nil {
		return
	}
	delete(fr.dgram, f)
	r := &FlowResult{Proto: f.Proto, Flow: f.Index, Src: f.Src, Dst: f.Dst, FirstTime: f.FirstTime,
		Duration: f.Duration(), Packets: f.Packets, Bytes: f.Bytes, Fragmented: f.Fragmented}
	var best *AppStats
	for d, ip := range s.iperf {
		if ip == nil {
			continue
		}
		if a := ip.result(); a != nil && (best == nil || a.Received > best.Received) {
			a.FromDst = d == int(reassembly.S2C)
			best = a
		}
	}
	r.App = best
	fr.ro.add(s.ord, r)
}

// ordered releases values in ordinal order, each as soon as every lower
// ordinal has been released; above maxPendingConns waiting, what is
// pending is let go in order (a flow that lives long holds back nothing
// for ever).
type ordered[T any] struct {
	next    int
	pending map[int]T
	sink    func(T)
	// again holds the later parts of a stream that came again (retired
	// while open, then continued) and was retired again while its first
	// part still waited: each goes after the one before it. nAgain counts
	// them, towards maxPendingConns.
	again  map[int][]T
	nAgain int
}

func (o *ordered[T]) add(ord int, v T) {
	if ord < o.next {
		// Already past it: a stream that continued after its retirement
		// (reassembly's retired records) comes again, at once.
		o.sink(v)
		return
	}
	if _, waits := o.pending[ord]; waits {
		if o.again == nil {
			o.again = map[int][]T{}
		}
		o.again[ord] = append(o.again[ord], v)
		if o.nAgain++; len(o.pending)+o.nAgain > maxPendingConns {
			o.flush()
		}
		return
	}
	o.pending[ord] = v
	for {
		v, ok := o.pending[o.next]
		if !ok {
			break
		}
		delete(o.pending, o.next)
		o.emit(o.next, v)
		o.next++
	}
	if len(o.pending)+o.nAgain > maxPendingConns {
		o.flush()
	}
}

func (o *ordered[T]) flush() {
	ords := make([]int, 0, len(o.pending))
	for k := range o.pending {
		ords = append(ords, k)
	}
	slices.Sort(ords)
	for _, k := range ords {
		o.emit(k, o.pending[k])
		delete(o.pending, k)
		o.next = max(o.next, k+1)
	}
}

// emit sinks v, the first part of stream ord, and its later parts.
func (o *ordered[T]) emit(ord int, v T) {
	o.sink(v)
	if more, ok := o.again[ord]; ok {
		delete(o.again, ord)
		o.nAgain -= len(more)
		for _, w := range more {
			o.sink(w)
		}
	}
}

// The iperf3 UDP header (iperf_udp.c): the sender's clock at sending, in
// seconds and microseconds (32 bits each, network order; a monotonic
// clock in recent versions, so not comparable with the capture's), then
// the datagram's sequence number, counted from 1: 32 bits, or 64 with
// --udp-counters-64bit.
const iperfHeader = 12

// Recognition: a direction is iperf3 when nearly all its datagrams of at
// least iperfHeader bytes have a valid microsecond field, their send times
// advance with their arrival times (the transit time changes by less than
// iperfSteady between neighbours), and their sequence numbers, read as 32
// or as 64 bits, run nearly in order (each within iperfNear of the
// highest so far). iperf3's 4-byte connect messages are too short to
// count.
const (
	iperfMinDatagrams = 8
	iperfSteady       = 1e9     // ns
	iperfNear         = 1 << 16 // sequence numbers
	iperfShare        = 0.9
	// iperfStartSeq: when the first sequence number seen is at most this,
	// the capture saw the test start and, as iperf3, counts from 0 (a
	// datagram overtaken at the very start is then out of order, not a
	// loss); above, the capture started mid-test and counting starts at
	// the first one.
	iperfStartSeq = 64
)

// iperfDir computes iperf3's receiver statistics for one direction of a
// UDP flow, for both widths of the sequence number at once (which one the
// sender used shows only in the result), in constant memory.
type iperfDir struct {
	candidates  int64 // datagrams long enough for the header
	validUsec   int64
	steady      int64 // of the pairs of neighbours
	pairs       int64
	prevTransit int64 // ns: arrival − send, as iperf3 takes its absolute value
	started     bool
	jitter      float64     // ns
	seq         [2]iperfSeq // 32-bit, 64-bit
}

// iperfSeq is iperf3's loss and reordering count (iperf_udp_recv).
type iperfSeq struct {
	started    bool
	base       uint64 // highest sequence number before the first seen
	highest    uint64 // iperf3's packet_count
	lost       int64  // iperf3's cnt_error
	outOfOrder int64
	near       int64
}

func (s *iperfSeq) add(seq uint64) {
	if !s.started {
		s.started = true
		if seq > iperfStartSeq {
			s.base = seq - 1
		}
		s.highest = s.base
	}
	if seq+iperfNear > s.highest && seq <= s.highest+iperfNear {
		s.near++
	}
	if seq >= s.highest+1 {
		if seq > s.highest+1 { // a gap: counted lost until it arrives late
			s.lost += int64(seq - 1 - s.highest)
		}
		s.highest = seq
		return
	}
	s.outOfOrder++
	if s.lost > 0 {
		s.lost--
	}
}

func (d *iperfDir) add(arrival int64, b []byte) {
	d.candidates++
	sec, usec := binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:])
	if usec >= 1e6 {
		return
	}
	d.validUsec++
	d.seq[0].add(uint64(binary.BigEndian.Uint32(b[8:])))
	if len(b) >= 16 {
		d.seq[1].add(binary.BigEndian.Uint64(b[8:]))
	}
	// RFC 3550 jitter as iperf3 computes it: transit = |arrival − sent|,
	// J += (|D| − J)/16, the first datagram's transit as the previous one.
	transit := arrival - (int64(sec)*1e9 + int64(usec)*1e3)
	if transit < 0 {
		transit = -transit
	}
	if !d.started {
		d.started = true
		d.prevTransit = transit
	} else {
		d.pairs++
		if diff := transit - d.prevTransit; diff < iperfSteady && diff > -iperfSteady {
			d.steady++
		}
	}
	diff := transit - d.prevTransit
	if diff < 0 {
		diff = -diff
	}
	d.prevTransit = transit
	d.jitter += (float64(diff) - d.jitter) / 16
}

// result is the direction's iperf3 statistics, or nil when its
// datagrams are not iperf3's.
func (d *iperfDir) result() *AppStats {
	if d.validUsec < iperfMinDatagrams ||
		float64(d.validUsec) < iperfShare*float64(d.candidates) ||
		float64(d.steady) < iperfShare*float64(d.pairs) {
		return nil
	}
	pick := -1
	for i := range d.seq {
		s := &d.seq[i]
		if float64(s.near) >= iperfShare*float64(d.validUsec) && (pick < 0 || s.outOfOrder < d.seq[pick].outOfOrder) {
			pick = i
		}
	}
	if pick < 0 {
		return nil
	}
	s := &d.seq[pick]
	return &AppStats{Name: "iperf3", Packets: int64(s.highest - s.base), Received: d.validUsec,
		Lost: s.lost, OutOfOrder: s.outOfOrder, JitterMs: d.jitter / 1e6, Counters64: pick == 1}
}
