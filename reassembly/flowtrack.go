package reassembly

import (
	"math"
	"net/netip"
	"slices"
)

// Flow is the datagrams between two endpoints of one IP protocol other
// than TCP, both ways: for UDP a 5-tuple, numbered as Wireshark numbers
// udp.stream (in order of first packet, one number per address and port
// pair for the whole capture); for other protocols an address pair,
// numbered per protocol the same way.
type Flow struct {
	Proto uint8
	Index int // udp.stream for UDP; per protocol otherwise
	// Src sent the flow's first packet; ports are 0 but for UDP.
	Src, Dst              netip.AddrPort
	FirstTime, LastTime   int64 // ns since the epoch
	FirstFrame, LastFrame int64
	// Packets and Bytes (Datagram.Length) are indexed by Direction: C2S
	// from Src, S2C from Dst.
	Packets, Bytes [2]int64
	// Fragmented counts datagrams reassembled from IP fragments.
	Fragmented int64
}

// Duration is the time from the first to the last packet, in ns.
func (f *Flow) Duration() int64 { return f.LastTime - f.FirstTime }

type flowKey struct {
	connKey
	proto uint8
}

// FlowTracker assigns datagrams to flows. Flows stay in the table for the
// whole capture, as Wireshark's conversations do, so a 5-tuple that comes
// back after a pause keeps its number; only above pressureConns live
// flows (a scan, a flood) are those idle for pressureIdle retired, and a
// retired 5-tuple that comes back then starts a new flow.
type FlowTracker struct {
	flows   map[flowKey]*Flow
	next    [256]int // the next number, per protocol
	last    *Flow
	minLast int64
	clock   expiryClock // the capture time Expire goes by
	// OnNew, if set, is called when a flow is created, before its first
	// datagram is handed over.
	OnNew func(*Flow)
	// OnRetire, if set, is called when a flow leaves the table.
	OnRetire func(*Flow)
}

// NewFlowTracker returns an empty flow tracker.
func NewFlowTracker() *FlowTracker {
	return &FlowTracker{flows: make(map[flowKey]*Flow), minLast: math.MaxInt64}
}

// Len returns the number of flows in the table.
func (t *FlowTracker) Len() int { return len(t.flows) }

// Track assigns dg to its flow, creating it if needed, and sets dg's Flow
// and Dir.
func (t *FlowTracker) Track(dg *Datagram) *Flow {
	src, dst := netip.AddrPortFrom(dg.Src, dg.SrcPort), netip.AddrPortFrom(dg.Dst, dg.DstPort)
	f := t.last
	if f == nil || f.Proto != dg.Proto || !(src == f.Src && dst == f.Dst || src == f.Dst && dst == f.Src) {
		key := flowKey{keyOf(dg.Src, dg.SrcPort, dg.Dst, dg.DstPort), dg.Proto}
		f = t.flows[key]
		if f == nil {
			f = &Flow{Proto: dg.Proto, Index: t.next[dg.Proto], Src: src, Dst: dst, FirstTime: dg.Time, FirstFrame: dg.Frame}
			t.next[dg.Proto]++
			t.flows[key] = f
			if t.OnNew != nil {
				t.OnNew(f)
			}
		}
	}
	d := C2S
	if src != f.Src || dst != f.Dst {
		d = S2C
	}
	dg.Flow, dg.Dir = f.Index, d
	f.Packets[d]++
	f.Bytes[d] += int64(dg.Length)
	if dg.Fragments > 0 {
		f.Fragmented++
	}
	f.LastTime, f.LastFrame = dg.Time, dg.Frame
	if dg.Time < f.FirstTime {
		f.FirstTime = dg.Time
	}
	t.last = f
	t.minLast = min(t.minLast, dg.Time)
	return f
}

// Expire retires idle flows when the table is under pressure, and returns
// how many it retired; its clock is the connection tracker's kind.
func (t *FlowTracker) Expire(now int64) int {
	now = t.clock.at(now, t.minLast) // a wild timestamp retires nothing
	if len(t.flows) <= pressureConns || now-t.minLast <= pressureIdle {
		return 0
	}
	n := 0
	minLast := int64(math.MaxInt64)
	for k, f := range t.flows {
		if now-f.LastTime > pressureIdle {
			if f == t.last {
				t.last = nil
			}
			delete(t.flows, k)
			if t.OnRetire != nil {
				t.OnRetire(f)
			}
			n++
		} else {
			minLast = min(minLast, f.LastTime)
		}
	}
	t.minLast = minLast
	return n
}

// Flush retires every flow still in the table, in order of first packet.
func (t *FlowTracker) Flush() {
	rest := make([]*Flow, 0, len(t.flows))
	for _, f := range t.flows {
		rest = append(rest, f)
	}
	slices.SortFunc(rest, func(a, b *Flow) int {
		if a.FirstFrame != b.FirstFrame {
			return int(a.FirstFrame - b.FirstFrame)
		}
		return int(a.Proto) - int(b.Proto)
	})
	clear(t.flows)
	t.last, t.minLast = nil, math.MaxInt64
	if t.OnRetire != nil {
		for _, f := range rest {
			t.OnRetire(f)
		}
	}
}
