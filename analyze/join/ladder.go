package join

import (
	"cmp"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// The ladder (sequence) diagram: time running down, one vertical line per
// capture point, one arrow per packet from where it was seen first to
// where it was seen next, labelled with its flags, numbers and length, as
// Wireshark's Flow Graph draws one — but with each end's real time where
// the packet was captured at both, and, from one capture, the far end's
// estimated (dashed).

// GraphLadder is the ladder diagram.
const GraphLadder analyze.GraphKind = "ladder"

// Ladder series: each packet's arrow by what it carries; lost ones end
// half way; estimated ones (the far end of a single capture) are dashed.
const (
	SeriesLadderData = "ladder_data" // a segment with payload
	SeriesLadderAck  = "ladder_ack"  // a pure ACK
	SeriesLadderCtl  = "ladder_ctl"  // SYN, FIN or RST
	SeriesLadderLost = "ladder_lost" // lost between two captures
)

// LadderPackets is how many packets a ladder draws unless asked.
const LadderPackets = 40

// LadderOptions choose the packets drawn: those of the connection's
// first Packets packets at the first capture (0: LadderPackets), or,
// when Time is set, those sent within it (ns from the connection's first
// packet there; an open end open).
type LadderOptions struct {
	Packets int
	Time    analyze.Range
}

// span is the window of packets drawn, in ns since the epoch, for a
// connection whose first packet was at origin and whose Packets-th at
// nth.
func (o LadderOptions) span(origin int64, nth func() int64) (lo, hi int64) {
	w := o.Time
	if !w.HasMin && !w.HasMax {
		return origin, nth()
	}
	// A window asked for is the window, even one that holds no packet
	// (--to 0 or below it took the first packets, as if none were asked).
	from, to := w.Min, int64(math.MaxInt64/2)
	if w.HasMax {
		to = w.Max
	}
	return origin + from, origin + to
}

// ladderAt is one packet of the ladder: where and when it was first seen
// (capture index, time on the first capture's clock), where and when next.
type ladderAt struct {
	x0, x1 float64
	t0, t1 int64
	p      *packet
	c      *Conn // the connection the packet is of, for its numbers
	dir    reassembly.Direction
	lost   bool
}

// Ladder draws connection stream (of the first capture; -1: the one that
// carried the most payload) along every capture point. Of a result that
// holds one capture alone (no hop), it draws the capture point and the
// far end, whose times are estimated from the handshake (half the round
// trip beyond the capture each way) and drawn dashed. ok is false when
// the captures have no such connection (the first hop, when joined).
func (r *Result) Ladder(stream int, o LadderOptions) (g *analyze.Graph, ok bool, err error) {
	if len(r.Hops) == 0 {
		c := r.Captures[0]
		cc := c.conn(stream)
		if cc == nil {
			return nil, false, nil
		}
		g, err = ladderOne(c.Name, cc, o)
		return g, true, err
	}
	ch0, _, ok := r.Pick(stream, -1)
	if !ok {
		return nil, false, nil
	}
	g, err = r.ladder(ch0, o)
	return g, true, err
}

// ladder draws direction-less connection ch0 (of the result's first hop)
// along every capture point.
func (r *Result) ladder(ch0 *ConnHop, o LadderOptions) (*analyze.Graph, error) {
	if o.Packets <= 0 {
		o.Packets = LadderPackets
	}
	// The connection at each hop, and each capture's clock against the
	// first's.
	chain := []*ConnHop{ch0}
	theta := []float64{0, ch0Clock(r.Hops[0])}
	for i := 1; i < len(r.Hops); i++ {
		prev := chain[len(chain)-1]
		var next *ConnHop
		for _, ch := range r.Hops[i].Conns {
			if ch.Up == prev.Down {
				next = ch
			}
		}
		if next == nil {
			break
		}
		chain = append(chain, next)
		theta = append(theta, theta[len(theta)-1]+ch0Clock(r.Hops[i]))
	}
	origin := start(ch0.Up)
	lo, hi := o.span(origin, func() int64 { return nthTime(ch0.Up, o.Packets) })
	// A packet is drawn on every hop when it is in the window at the
	// first capture: on later hops its time there is estimated by the
	// fixed delays of the hops before (queueing left out).
	var before [2]Clock // the hops' fixed delays so far, forward and back (Base, PerByte summed)
	var arrows []ladderAt
	for i, ch := range chain {
		h := r.Hops[i]
		if ch.Split {
			return nil, fmt.Errorf("a proxy splits the connection between %s and %s: no packet crosses it (--graph proxy draws its buffer)", h.Up.Name, h.Down.Name)
		}
		for d := range ch.Dir {
			dh := &ch.Dir[d]
			upC, upI, downI := ch.Up, i, i+1
			if !dh.Forward {
				upC, upI, downI = ch.Down, i+1, i
			}
			dd := reassembly.Direction(d)
			if !dh.Forward {
				dd ^= dirFlip(ch.Flip)
			}
			byFrame := map[uint32]*packet{}
			for k := range upC.Pkts[dd] {
				byFrame[upC.Pkts[dd][k].Frame] = &upC.Pkts[dd][k]
			}
			inWindow := func(t0, t1 int64, size uint16) bool {
				at0 := float64(t0) - before[0].fixed(size, true) // forward: seen at the first capture before
				if !dh.Forward {
					at0 = float64(t1) + before[1].fixed(size, true) // back: seen there after
				}
				return at0 >= float64(lo) && at0 <= float64(hi)
			}
			for _, p := range dh.Pairs {
				t0 := p.Up - int64(theta[upI])
				t1 := t0 + int64(p.OWD)
				if !inWindow(t0, t1, p.Size) {
					continue
				}
				arrows = append(arrows, ladderAt{float64(upI), float64(downI), t0, t1, byFrame[p.Frame], upC, dd, false})
			}
			for k := range dh.Lost {
				p := &dh.Lost[k]
				t0 := p.Time - int64(theta[upI])
				if !inWindow(t0, t0, p.Wire) {
					continue
				}
				// Half way, at the fixed delay's half.
				half := int64(h.Clock.fixed(p.Wire, dh.Forward) / 2)
				arrows = append(arrows, ladderAt{float64(upI), float64(upI+downI) / 2, t0, t0 + half, p, upC, dd, true})
			}
		}
		for k := range before {
			before[k].Base[0] += h.Clock.Base[k]
			before[k].PerByte[0] += h.Clock.PerByte[k]
		}
	}
	names := make([]string, len(chain)+1)
	for i := range names {
		names[i] = path.Base(r.Captures[i].Name)
	}
	return ladderGraph(ch0.Up, arrows, names, origin, false), nil
}

// ch0Clock is a hop's offset at its middle (0 without a clock).
func ch0Clock(h *Hop) float64 {
	if !h.ClockOK {
		return 0
	}
	return h.Clock.Offset
}

// nthTime is the time of connection c's nth packet (both directions), or
// its last.
func nthTime(c *Conn, n int) int64 {
	var times []int64
	for d := range c.Pkts {
		for _, p := range c.Pkts[d][:min(n, len(c.Pkts[d]))] {
			times = append(times, p.Time)
		}
	}
	if len(times) == 0 {
		return 0
	}
	slices.Sort(times)
	return times[min(n, len(times))-1]
}

// ladderOne draws connection c of the capture named capName alone.
func ladderOne(capName string, c *Conn, o LadderOptions) (*analyze.Graph, error) {
	if o.Packets <= 0 {
		o.Packets = LadderPackets
	}
	syn, synack, ack, ok := handshake(c)
	if !ok {
		return nil, fmt.Errorf("stream %d: no three-way handshake in the capture: the far end's times cannot be estimated (join a capture of the other end)", c.Stream)
	}
	// Near the client the SYN/ACK comes a far round trip after the SYN;
	// near the server the ACK comes one after the SYN/ACK.
	nearClient := synack-syn >= ack-synack
	far := synack - syn
	farName := "server (estimated)"
	if !nearClient {
		far, farName = ack-synack, "client (estimated)"
	}
	owd := far / 2
	origin := start(c)
	lo, hi := o.span(origin, func() int64 { return nthTime(c, o.Packets) })
	var arrows []ladderAt
	for d := range c.Pkts {
		dir := reassembly.Direction(d)
		// Sent from the capture's side: the client's packets near the client.
		outgoing := (dir == reassembly.C2S) == nearClient
		for k := range c.Pkts[d] {
			p := &c.Pkts[d][k]
			if p.Time < lo || p.Time > hi || p.Dup {
				continue
			}
			if outgoing {
				arrows = append(arrows, ladderAt{0, 1, p.Time, p.Time + owd, p, c, dir, false})
			} else {
				arrows = append(arrows, ladderAt{1, 0, p.Time - owd, p.Time, p, c, dir, false})
			}
		}
	}
	g := ladderGraph(c, arrows, []string{path.Base(capName), farName}, origin, true)
	return g, nil
}

// handshake finds the times of a connection's SYN, SYN/ACK and the ACK
// of the SYN/ACK.
func handshake(c *Conn) (syn, synack, ack int64, ok bool) {
	var got [3]bool
	for _, p := range c.Pkts[reassembly.C2S] {
		if p.Flags.Has(reassembly.SYN) && !got[0] {
			syn, got[0] = p.Time, true
		}
	}
	for _, p := range c.Pkts[reassembly.S2C] {
		if p.Flags.Has(reassembly.SYN|reassembly.ACK) && !got[1] {
			synack, got[1] = p.Time, true
		}
	}
	for _, p := range c.Pkts[reassembly.C2S] {
		if got[1] && !p.Flags.Has(reassembly.SYN) && p.Flags.Has(reassembly.ACK) && p.Time >= synack {
			ack, got[2] = p.Time, true
			break
		}
	}
	return syn, synack, ack, got[0] && got[1] && got[2] && synack >= syn
}

// ladderGraph makes the graph of the arrows: x the capture point, y the
// time in seconds from origin, running down.
func ladderGraph(c *Conn, arrows []ladderAt, names []string, origin int64, estimated bool) *analyze.Graph {
	sortLadder(arrows)
	ends := c.Ends(reassembly.C2S)
	g := &analyze.Graph{Kind: GraphLadder, Title: "Ladder", Stream: c.Stream, Dir: reassembly.C2S,
		Src: ends[0], Dst: ends[1], TimeOrigin: origin, XCol: 0, YCol: 1,
		X:       analyze.Axis{Label: "capture point", Names: names},
		Y:       analyze.Axis{Label: "time", Unit: "s", Down: true},
		Columns: []string{"point", "at_s"}}
	series := map[string]*analyze.Series{}
	order := []string{SeriesLadderCtl, SeriesLadderData, SeriesLadderAck, SeriesLadderLost}
	for _, n := range order {
		series[n] = &analyze.Series{Name: n, Kind: analyze.Arrows, Dashed: estimated}
	}
	sec := func(t int64) float64 { return float64(t-origin) / 1e9 }
	for _, a := range arrows {
		name := SeriesLadderAck
		switch {
		case a.lost:
			name = SeriesLadderLost
		case a.p != nil && a.p.Flags&(reassembly.SYN|reassembly.FIN|reassembly.RST) != 0:
			name = SeriesLadderCtl
		case a.p != nil && a.p.data():
			name = SeriesLadderData
		}
		s := series[name]
		var frame int64
		if a.p != nil {
			frame = int64(a.p.Frame)
		}
		s.Points = append(s.Points,
			analyze.Point{Frame: frame, Time: a.t0, V: [3]float64{a.x0, sec(a.t0)}},
			analyze.Point{Frame: frame, Time: a.t1, V: [3]float64{a.x1, sec(a.t1)}})
		s.Labels = append(s.Labels, ladderLabel(a))
	}
	for _, n := range order {
		if s := series[n]; len(s.Points) > 0 {
			g.Series = append(g.Series, *s)
		}
	}
	if estimated {
		g.Warnings = append(g.Warnings, analyze.Warning{Kind: analyze.WarnFarEndEstimated})
	}
	return g
}

// ladderLabel is an arrow's text, as Wireshark's Flow Graph writes it:
// the flags, then relative Seq, Ack, Win (raw) and Len.
func ladderLabel(a ladderAt) string {
	p := a.p
	if p == nil {
		return ""
	}
	var flags []string
	for _, f := range []struct {
		f    reassembly.Flags
		name string
	}{{reassembly.SYN, "SYN"}, {reassembly.FIN, "FIN"}, {reassembly.RST, "RST"}, {reassembly.PSH, "PSH"}, {reassembly.ACK, "ACK"}} {
		if p.Flags.Has(f.f) {
			flags = append(flags, f.name)
		}
	}
	s := fmt.Sprintf("[%s] Seq=%d", strings.Join(flags, ", "), relNum(a.c, a.dir, p.Seq))
	if p.Flags.Has(reassembly.ACK) {
		s += fmt.Sprintf("  Ack=%d", relNum(a.c, a.dir^1, p.Ack))
	}
	if p.Len > 0 {
		s += fmt.Sprintf("  Len=%d", p.Len)
	}
	if a.lost {
		s += " (lost)"
	}
	return s
}

// relNum is a sequence number of direction d relative to its SYN's, as
// Wireshark shows it (the SYN 0, the first byte 1), or to the first seen
// without the SYN.
func relNum(c *Conn, d reassembly.Direction, v uint32) uint32 {
	if c.HasSYN[d] {
		return v - c.ISN[d]
	}
	if len(c.Pkts[d]) > 0 {
		return v - c.Pkts[d][0].Seq
	}
	return v
}

// sortLadder puts arrows in the order they start.
func sortLadder(a []ladderAt) {
	slices.SortStableFunc(a, func(x, y ladderAt) int { return cmp.Compare(x.t0, y.t0) })
}
