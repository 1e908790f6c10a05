package analyze

import (
	"cmp"
	"maps"
	"slices"

	"tcpviz/analyze/internal/stat"
	"tcpviz/reassembly"
)

// minWindowRTTs: an averaging window shorter than this many round trips
// follows the bursts of each round trip (a window-limited sender sends a
// burst per RTT) and draws a sawtooth that is not in the path.
const minWindowRTTs = 4

// median is stat.Median: the one median of the analysis.
var median = stat.Median

// resolveWindow sets t.Window from t.RTTs and the median of the ack_rtt
// samples of the direction's data (rtts), and says what is wrong with the
// window chosen: a time shorter than four median RTTs, or no RTT to
// scale by (a window asked for in RTTs is taken as meant).
func resolveWindow(rtts []int64, t *GraphParams) []Warning {
	if t.Segments >= 2 {
		return nil
	}
	rtt, ok := median(rtts)
	if t.RTTs > 0 {
		if !ok {
			t.Window = 1e9
			return []Warning{{Kind: WarnNoRTTWindow}}
		}
		t.Window = int64(t.RTTs * float64(rtt))
	}
	if t.Window <= 0 {
		t.Window = 1e9
	}
	if ok && t.RTTs == 0 && t.Window < minWindowRTTs*rtt {
		return []Warning{{Kind: WarnShortWindow, Window: t.Window, RTT: rtt}}
	}
	return nil
}

// throughputGraph builds the throughput graph of direction o.Dir: at each data
// segment, the bits per second sent over the averaging window (all bytes,
// retransmissions included); at each ACK that acknowledges new data, the
// goodput: newly acknowledged bits per second over the same window; and at
// each ACK that reports new data delivered, the delivery rate: the bytes
// newly delivered, SACKed ones included and each counted once (as Linux's
// rate samples count them), so that a cumulative ACK jumping over what the
// SACK blocks already reported after a repair does not spike above the
// link's rate.
func throughputGraph(recs []Record, o SeriesOptions, t GraphParams) *Graph {
	return feed(newThroughput(o, t), recs)
}

// tputEvent is what a record adds to the throughput graph: n bytes sent
// (k 0), newly acknowledged (k 1) or newly delivered (k 2).
type tputEvent struct {
	frame, time, n int64
	k              int
}

// tputBuilder builds Throughput's graph record by record. A window in
// RTTs is known only at the end: until then the events wait.
type tputBuilder struct {
	f       *frame
	t       GraphParams
	rtts    []int64 // ack_rtt samples of the direction's data
	highAck int64
	haveAck bool
	wait    []tputEvent
	// The moving averages, or the bins.
	set                    seriesSet
	sent, acked, delivered *mover
	bins                   [3]map[int64]*tputBin // throughput, goodput, delivery rate: the bins holding data
	sackBoard
	reno renoDelivery
}

// renoDelivery counts delivery without SACK, for the delivery rates of
// tput and cwnd (senderPipe.rated), as Linux does for a sender
// whose peer did not agree to SACK (tcp_add_reno_sack,
// tcp_remove_reno_sacks): each duplicate ACK stands for a segment that
// arrived (sacked_out, no more than the segments outstanding less the
// hole), counted delivered when it comes; the cumulative ACK that ends a
// repair then delivers what it covers less those, at least a segment.
// Counted at the cumulative ACK alone, a NewReno repair's ACK jumped over
// a window of data at once, and the delivery rate spiked above the link's
// rate as goodput does (kn_vsat_cubic_rto: 498 kbit/s on a 384 kbit/s
// link).
type renoDelivery struct {
	sackOK    [2]bool // each direction's SYN offered SACK
	sack      bool    // SACK in use: both SYNs offered it, or a block came
	maxSeg    int64   // the largest data segment sent
	highSent  int64   // the highest end sent
	sackedOut int64   // segments the duplicate ACKs since the last new ACK stood for
}

// dupack counts the duplicate ACK of a repair (Wireshark's rule: same
// ACK, same window, no data, outstanding data) as a segment delivered,
// and returns the bytes (0: none counted: no more outstanding than the
// hole).
func (d *renoDelivery) dupack(ack int64) int64 {
	if d.maxSeg <= 0 {
		return 0
	}
	out := (d.highSent - ack + d.maxSeg - 1) / d.maxSeg
	if d.sackedOut+1 >= out {
		return 0
	}
	d.sackedOut++
	return d.maxSeg
}

// advance returns the bytes a cumulative ACK that moved n bytes delivered:
// n less the segments the duplicate ACKs counted, at least a segment (or
// n where less).
func (d *renoDelivery) advance(n int64) int64 {
	if d.maxSeg <= 0 || d.sackedOut == 0 {
		return n
	}
	acked := (n + d.maxSeg - 1) / d.maxSeg
	got := max(n-d.sackedOut*d.maxSeg, min(n, d.maxSeg))
	d.sackedOut = max(d.sackedOut-(acked-1), 0)
	return got
}

// sackBoard is the receiver's scoreboard of one direction's data as its
// ACKs report it: the ranges above the cumulative ACK that SACK blocks
// reported delivered (sorted, disjoint, at most maxSACKed), for the
// delivery rate (tputBuilder) and the bytes in flight not SACKed
// (windowBuilder).
type sackBoard struct {
	sacked, spare [][2]int64
	// forgot: the end of the highest range forgotten past maxSACKed;
	// below it a gap may be data SACKed (filled tells no hole there).
	forgot int64
}

// maxSACKed bounds the SACKed ranges kept above the cumulative ACK.
const maxSACKed = 64

// deliver returns the bytes an ACK of cumulative ack (above the previous,
// prev, when advanced) and SACK blocks reports delivered for the first
// time, and updates the SACKed ranges.
func (b *sackBoard) deliver(prev int64, advanced bool, ack int64, blocks [][2]int64) int64 {
	var n int64
	if advanced {
		n = ack - prev
		keep := b.sacked[:0]
		for _, r := range b.sacked {
			if r[1] <= ack {
				n -= r[1] - max(r[0], prev)
				continue
			}
			if r[0] < ack {
				n -= ack - max(r[0], prev)
				r[0] = ack
			}
			keep = append(keep, r)
		}
		b.sacked = keep
	}
	for _, blk := range blocks {
		lo, hi := max(blk[0], ack), blk[1]
		if hi <= lo {
			continue // below the cumulative ACK: a D-SACK, or old news
		}
		n += hi - lo - b.sackAdd(lo, hi)
	}
	return max(n, 0)
}

// filled calls hole(lo, hi), before deliver is given the same ACK, for
// each part [lo, hi) of a hole that the ACK acknowledges (a gap below the
// highest range SACKed, cumulatively acknowledged or SACKed now by
// blocks, which hold no D-SACK).
func (b *sackBoard) filled(prev int64, advanced bool, ack int64, blocks [][2]int64, hole func(lo, hi int64)) {
	if len(b.sacked) == 0 {
		return
	}
	// gaps calls hole for each gap of the ranges in [lo, hi), above
	// the ranges forgotten.
	gaps := func(lo, hi int64) {
		lo = max(lo, b.forgot)
		for _, r := range b.sacked {
			if lo >= hi {
				return
			}
			if r[1] <= lo {
				continue
			}
			if r[0] > lo {
				hole(lo, min(r[0], hi))
			}
			lo = r[1]
		}
	}
	if advanced {
		gaps(prev, min(ack, b.sacked[len(b.sacked)-1][0]))
	}
	for _, blk := range blocks {
		gaps(max(blk[0], ack), min(blk[1], b.sacked[len(b.sacked)-1][0]))
	}
}

// sackAdd adds [lo, hi) to the SACKed ranges and returns how much of it
// they held already.
func (b *sackBoard) sackAdd(lo, hi int64) int64 {
	var had int64
	out := b.spare[:0] // the other buffer: sacked and spare swap

	nlo, nhi := lo, hi
	for _, r := range b.sacked {
		switch {
		case r[1] < lo || r[0] > hi:
			out = append(out, r)
		default:
			had += max(0, min(r[1], hi)-max(r[0], lo))
			nlo, nhi = min(nlo, r[0]), max(nhi, r[1])
		}
	}
	i, _ := slices.BinarySearchFunc(out, nlo, func(r [2]int64, v int64) int { return cmp.Compare(r[0], v) })
	out = slices.Insert(out, i, [2]int64{nlo, nhi})
	if len(out) > maxSACKed {
		b.forgot = max(b.forgot, out[len(out)-maxSACKed-1][1])
		out = out[len(out)-maxSACKed:] // forget the lowest: they will be counted again when acknowledged
	}
	b.spare, b.sacked = b.sacked, out
	return had
}

// sackedBelow is the bytes under end the ranges hold (those forgotten
// past maxSACKed not among them).
func (b *sackBoard) sackedBelow(end int64) (n int64) {
	for _, r := range b.sacked {
		if r[0] >= end {
			break
		}
		n += min(r[1], end) - r[0]
	}
	return n
}

// tputBin is one bin of throughputBins.
type tputBin struct{ bytes, frame int64 }

func newThroughput(o SeriesOptions, t GraphParams) graphBuilder {
	f := newFrame(GraphThroughput, o)
	f.g.Y = Axis{Label: "throughput", Unit: "bit/s"}
	f.g.Columns = []string{"bps"}
	b := &tputBuilder{f: f, t: t, set: seriesSet{thin: o.Thin}}
	if !b.waits() {
		t := b.t
		resolveWindow(nil, &t) // the window, without RTTs
		b.start(t.Window)
	}
	return b
}

// waits reports whether the window is known only at the end.
func (b *tputBuilder) waits() bool { return b.t.Segments < 2 && b.t.RTTs > 0 }

// start readies the averages or the bins for a window of w ns.
func (b *tputBuilder) start(w int64) {
	b.t.Window = w
	b.sent, b.acked, b.delivered = newMover(b.t), newMover(b.t), newMover(b.t)
}

func (b *tputBuilder) add(r *Record) {
	d := b.f.o.Dir
	if r.Dir != d && r.Info.AckRTT > 0 && r.Info.AckedFrame > 0 {
		b.rtts = append(b.rtts, r.Info.AckRTT)
	}
	if r.Flags&reassembly.SYN != 0 {
		b.reno.sackOK[r.Dir] = r.SACKOK
		b.reno.sack = b.reno.sack || b.reno.sackOK[0] && b.reno.sackOK[1]
	}
	e := tputEvent{frame: r.Frame, time: r.Time, k: -1}
	switch {
	case r.Dir == d && r.Len > 0:
		e.k, e.n = 0, int64(r.Len)
		b.reno.maxSeg = max(b.reno.maxSeg, int64(r.Len))
		b.reno.highSent = max(b.reno.highSent, r.Seq+int64(r.Len))
	case r.Dir == d.Reverse() && r.HasAck && r.Flags&reassembly.SYN == 0:
		advanced := b.haveAck && r.Ack > b.highAck
		if advanced {
			e.k, e.n = 1, r.Ack-b.highAck
		}
		b.reno.sack = b.reno.sack || r.NSACK > 0 || r.SACKCut
		if b.haveAck {
			top := max(r.Ack, b.highAck)
			dn := b.deliver(b.highAck, advanced, top, r.SACK[:min(r.NSACK, len(r.SACK))])
			switch {
			case b.reno.sack:
			case advanced:
				dn = b.reno.advance(dn)
			case r.Info.DupAckNum > 0:
				dn = b.reno.dupack(r.Ack)
			}
			if dn > 0 {
				b.push(tputEvent{frame: r.Frame, time: r.Time, k: 2, n: dn})
			}
		}
		if !b.haveAck || r.Ack > b.highAck {
			b.highAck, b.haveAck = r.Ack, true
		}
	}
	if e.k < 0 {
		return
	}
	b.push(e)
}

// push adds e, or keeps it until the window is known.
func (b *tputBuilder) push(e tputEvent) {
	if b.sent == nil {
		b.wait = append(b.wait, e)
		return
	}
	b.event(e)
}

// event adds e to the averages or the bins.
func (b *tputBuilder) event(e tputEvent) {
	f := b.f
	if b.t.Bins && b.t.Segments < 2 {
		if !f.inTime(e.time) {
			return
		}
		k, bn := e.k, (e.time-f.start)/b.t.Window
		if b.bins[k] == nil {
			b.bins[k] = map[int64]*tputBin{}
		}
		if b.bins[k][bn] == nil {
			b.bins[k][bn] = &tputBin{frame: e.frame}
		}
		b.bins[k][bn].bytes += e.n
		return
	}
	m, name := b.sent, SeriesThroughput
	switch e.k {
	case 1:
		m, name = b.acked, SeriesGoodput
	case 2:
		m, name = b.delivered, SeriesDelivery
	}
	// After a pause longer than the window the average has fallen to
	// zero: say so at the moment it did (on the last packet counted),
	// so that the line does not slope down across the pause.
	if last, ok := m.emptiedBefore(e.time); ok && f.inTime(last+m.window) {
		b.set.add(name, Lines, Point{Frame: m.lastFrame, Time: last + m.window})
	}
	bps, ok := m.add(e.time, e.n)
	m.lastFrame = e.frame
	if ok && f.inTime(e.time) && finite(bps) {
		b.set.add(name, Lines, Point{Frame: e.frame, Time: e.time, V: [3]float64{bps}})
	}
}

func (b *tputBuilder) graph() *Graph {
	g := b.f.g
	t := b.t
	g.Warnings = resolveWindow(b.rtts, &t)
	if b.sent == nil {
		b.start(t.Window)
		for _, e := range b.wait {
			b.event(e)
		}
		b.wait = nil
	}
	if b.t.Bins && b.t.Segments < 2 {
		g.Series = b.binSeries()
	} else {
		g.Series = b.set.list(SeriesThroughput, SeriesGoodput, SeriesDelivery)
	}
	return g
}

// mover is a moving average of byte counts over a time window or over the
// last few events.
type mover struct {
	lastFrame int64 // frame of the last event added
	window    int64
	segments  int
	times     []int64
	bytes     []int64
	head      int
	sum       int64
}

func newMover(t GraphParams) *mover {
	return &mover{window: t.Window, segments: t.Segments}
}

// add records n bytes at time t and returns the rate in bits per second,
// and false when there is no rate yet (a single event, or no time
// elapsed).
func (m *mover) add(t, n int64) (float64, bool) {
	m.times = append(m.times, t)
	m.bytes = append(m.bytes, n)
	m.sum += n
	if m.segments >= 2 {
		for len(m.times)-m.head > m.segments {
			m.sum -= m.bytes[m.head]
			m.head++
		}
		m.compact()
		// The bytes sent after the oldest event, over the time since it.
		span := t - m.times[m.head]
		if len(m.times)-m.head < 2 || span <= 0 {
			return 0, false
		}
		return float64(m.sum-m.bytes[m.head]) * 8 / (float64(span) / 1e9), true
	}
	for m.head < len(m.times) && m.times[m.head] <= t-m.window {
		m.sum -= m.bytes[m.head]
		m.head++
	}
	m.compact()
	return float64(m.sum) * 8 / (float64(m.window) / 1e9), true
}

// emptiedBefore reports whether, in window mode, the window emptied
// before time t: the last event is more than a window before t. It returns
// the last event's time.
func (m *mover) emptiedBefore(t int64) (int64, bool) {
	if m.segments >= 2 || len(m.times) == 0 {
		return 0, false
	}
	last := m.times[len(m.times)-1]
	return last, t-last > m.window
}

// compact drops consumed events once they are half the queue.
func (m *mover) compact() {
	if m.head > 1024 && m.head*2 > len(m.times) {
		n := copy(m.times, m.times[m.head:])
		copy(m.bytes, m.bytes[m.head:])
		m.times, m.bytes, m.head = m.times[:n], m.bytes[:n], 0
	}
}

// binSeries draws the bins: the bytes sent (and newly acknowledged) in
// fixed bins of the window's width from the connection's first packet,
// within the time window, each bin as a step at its start, closed by a
// point at the last bin's end. A run of empty bins between is one step to
// zero at the run's start (a step holds until the next point), so the
// points, and the time to draw them, grow with the bins that hold data,
// never with the connection's duration over the window (1 ns windows over
// a 10 s transfer are 10^10 bins). A point's frame is the first packet
// counted in its bin (or the last one before, for an empty run).
func (b *tputBuilder) binSeries() []Series {
	w := b.t.Window
	var out []Series
	for k, name := range []string{SeriesThroughput, SeriesGoodput, SeriesDelivery} {
		if b.bins[k] == nil {
			continue
		}
		s := Series{Name: name, Kind: Steps}
		full := slices.Sorted(maps.Keys(b.bins[k]))
		var frame int64
		for i, bn := range full {
			if i > 0 && bn > full[i-1]+1 { // empty bins before this one
				s.Points = append(s.Points, Point{Frame: frame, Time: b.f.start + (full[i-1]+1)*w})
			}
			x := b.bins[k][bn]
			frame = x.frame
			bps := float64(x.bytes) * 8 / (float64(w) / 1e9)
			s.Points = append(s.Points, Point{Frame: frame, Time: b.f.start + bn*w, V: [3]float64{bps}})
		}
		last := s.Points[len(s.Points)-1]
		last.Time += w
		s.Points = append(s.Points, last)
		out = append(out, s)
	}
	return out
}
