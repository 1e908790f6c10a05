package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"tcpviz/internal/words"
	"tcpviz/reassembly"
)

// IOOptions choose what IO counts.
type IOOptions struct {
	// Interval is the width of each bin in ns (> 0).
	Interval int64
	// Top is how many flows, those that carried the most payload, are
	// named; the others are summed as one, "other" (0: all named).
	Top int
	// Keep, if set, is the flows counted (a --filter); the others are
	// left out of every bin.
	Keep func(*FlowResult) bool
}

// IOFlow is one flow of an I/O table: a TCP connection or a flow of
// another transport, both directions together.
type IOFlow struct {
	Proto    uint8
	Index    int // tcp.stream, udp.stream, or the flow's number
	Src, Dst string
	Packets  int64
	Bytes    int64 // transport payload, both directions
	// Other is set on the sum of the flows not among the Top.
	Other bool
	// Flows is how many flows this one is (more than 1 for Other).
	Flows int
}

// IOBin is one interval: what each flow carried in it, and how fairly
// the flows active in it shared it.
type IOBin struct {
	Start   int64   // ns after the capture's first packet
	Packets []int64 // by IOResult.Flows
	Bytes   []int64
	// Active is how many flows (every one, not only the Top) carried at
	// least 1% of its payload; Jain is Jain's fairness index of their bytes,
	// (Σx)²/(n·Σx²): 1 when they shared equally, 1/n when one took all
	// (NaN with none).
	Active int
	Jain   float64
}

// IOResult is an I/O table: every interval of the capture, the flows.
type IOResult struct {
	Origin   int64 // the capture's first packet, ns since the epoch
	Interval int64
	Flows    []IOFlow // the Top by payload, most first, then Other if any
	Bins     []IOBin
	Warnings []Warning
}

// ioCompeting is the part of an interval's payload a flow must carry to
// count among the flows sharing it (Jain's index).
const ioCompeting = 0.01

// ioKey names a flow while the capture is read.
type ioKey struct {
	proto uint8
	index int
}

// ioCount is one flow's count in one bin.
type ioCount struct{ packets, bytes int64 }

// maxIOBins and maxIOCells bound the intervals of an I/O graph (1 M:
// twelve days of seconds), and the intervals times the flows drawn (a
// count each, a row of the table: 2 M, about 170 MB of CSV). At 4 M and
// 16 M, a 2.6 KB capture with an 18-day clock step wrote 1.36 GB of CSV
// in 25 s.
const (
	maxIOBins  = 1 << 20
	maxIOCells = 1 << 21
)

// IO reads a capture and counts, for every flow of every transport and
// every interval, the packets and the transport payload that passed the
// capture point (TCP retransmissions included: what was on the wire),
// as Wireshark's I/O graphs and tcptrace's traffic module do.
func IO(r *reassembly.Reader, o IOOptions) (*IOResult, error) {
	if o.Interval <= 0 {
		return nil, fmt.Errorf("interval %d ns: want more than 0", o.Interval)
	}
	origin, seen := int64(0), false
	bins := map[ioKey]map[int64]ioCount{}
	add := func(k ioKey, t int64, n int) {
		if !seen {
			origin, seen = t, true
		}
		b := (t - origin) / o.Interval
		if t < origin {
			b = -1 - (origin-t-1)/o.Interval // a packet before the first (clock steps): its own bin
		}
		m := bins[k]
		if m == nil {
			m = map[int64]ioCount{}
			bins[k] = m
		}
		c := m[b]
		c.packets++
		c.bytes += int64(n)
		m[b] = c
	}
	var flows []*FlowResult
	res, err := Run(r, RunOptions{Keep: -1,
		OnSegment: func(c *reassembly.Conn, s *reassembly.Segment, _ *Record) {
			add(ioKey{reassembly.ProtoTCP, s.Stream}, s.Time, s.PayloadLen)
		},
		OnDatagram: func(d *reassembly.Datagram, f *reassembly.Flow) {
			add(ioKey{f.Proto, f.Index}, d.Time, d.Length)
		},
		OnFlow: func(f *FlowResult) {
			cp := *f
			cp.App = nil
			flows = append(flows, &cp)
		}})
	out := &IOResult{Origin: origin, Interval: o.Interval}
	if res != nil {
		out.Warnings = res.Warnings
	}
	// The flows, most payload first; the Top named.
	var kept []*FlowResult
	for _, f := range flows {
		if _, ok := bins[ioKey{f.Proto, f.Flow}]; ok && (o.Keep == nil || o.Keep(f)) {
			kept = append(kept, f)
		}
	}
	total := func(f *FlowResult) int64 { return f.Bytes[0] + f.Bytes[1] }
	slices.SortStableFunc(kept, func(a, b *FlowResult) int {
		if c := cmp.Compare(total(b), total(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.FirstTime, b.FirstTime)
	})
	col := map[ioKey]int{}
	named := len(kept)
	if o.Top > 0 && o.Top < named {
		named = o.Top
	}
	for i, f := range kept {
		k := ioKey{f.Proto, f.Flow}
		if i < named {
			col[k] = i
			out.Flows = append(out.Flows, IOFlow{Proto: f.Proto, Index: f.Flow, Src: f.Src.String(), Dst: f.Dst.String(),
				Packets: f.Packets[0] + f.Packets[1], Bytes: total(f), Flows: 1})
			continue
		}
		if len(out.Flows) == named {
			out.Flows = append(out.Flows, IOFlow{Other: true})
		}
		col[k] = named
		of := &out.Flows[named]
		of.Packets += f.Packets[0] + f.Packets[1]
		of.Bytes += total(f)
		of.Flows++
	}
	// The bins, from the first packet's to the last's, empty ones too.
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, f := range kept {
		for b := range bins[ioKey{f.Proto, f.Flow}] {
			lo, hi = min(lo, b), max(hi, b)
		}
	}
	if lo > hi {
		return out, err
	}
	// A clock step (a packet years away from the others) would make
	// more intervals than memory holds: refused, with an interval that
	// fits.
	if n := uint64(hi - lo + 1); n > maxIOBins || n*uint64(len(out.Flows)+1) > maxIOCells {
		per := min(maxIOBins, maxIOCells/uint64(len(out.Flows)+1))
		step := "" // a span of days asks whether the clock stepped; seconds at 1 ns do not
		if float64(hi-lo+1)*float64(o.Interval) > 24*3600e9 {
			step = " (a clock step in the capture?)"
		}
		return nil, fmt.Errorf("%d intervals of %s from the first packet to the last%s: more than the %d that fit; an --interval of %s or more fits",
			n, words.Duration(o.Interval), step, per, words.Duration(o.Interval*int64((n+per-1)/per)))
	}
	out.Bins = make([]IOBin, hi-lo+1)
	for i := range out.Bins {
		out.Bins[i] = IOBin{Start: (lo + int64(i)) * o.Interval, Packets: make([]int64, len(out.Flows)), Bytes: make([]int64, len(out.Flows))}
	}
	all := make([]int64, len(out.Bins))
	for _, f := range kept {
		k := ioKey{f.Proto, f.Flow}
		j := col[k]
		for b, c := range bins[k] {
			bin := &out.Bins[b-lo]
			bin.Packets[j] += c.packets
			bin.Bytes[j] += c.bytes
			all[b-lo] += c.bytes
		}
	}
	// The flows competing in an interval: those that carried at least
	// ioCompeting of its payload (a control connection's few bytes beside
	// bulk transfers are not a competitor that got nothing).
	sum, sq := make([]float64, len(out.Bins)), make([]float64, len(out.Bins))
	for _, f := range kept {
		for b, c := range bins[ioKey{f.Proto, f.Flow}] {
			if i := b - lo; c.bytes > 0 && float64(c.bytes) >= ioCompeting*float64(all[i]) {
				x := float64(c.bytes)
				out.Bins[i].Active++
				sum[i] += x
				sq[i] += x * x
			}
		}
	}
	for i := range out.Bins {
		out.Bins[i].Jain = math.NaN()
		if n := out.Bins[i].Active; n > 0 {
			out.Bins[i].Jain = sum[i] * sum[i] / (float64(n) * sq[i])
		}
	}
	return out, err
}
