package join

import (
	"math"
	"slices"

	"tcpviz/reassembly"
)

// Split connections: a proxy that terminates TCP between two captures (a
// performance-enhancing proxy at a satellite gateway, PEPsal) makes each
// connection two, with their own addresses, ports, sequence numbers and
// packets; only the bytes carried are the same. Such a pair is joined by
// what is left in common: the server's port, and the proxy's own
// connection opened just after the client's (the captures' clocks taken
// as roughly in step: a split pair has no packet in common to line them
// up by). What the join then says of it is the proxy's buffer: the bytes
// it accepted (acknowledged to the sender) and had not yet delivered (seen
// acknowledged beyond it).

// splitWindow is how long after the client's connection the proxy's own
// may start (and how long before, for clocks out of step).
const (
	splitAfter  = 30e9
	splitBefore = 1e9
)

// matchSplit pairs the connections of a and b that matchConns left alone
// (joined: those it paired): the same server port, b's starting closest
// after a's. Each is paired once, the closest in time first.
func matchSplit(a, b *Capture, joined []*ConnHop) []*ConnHop {
	used := map[*Conn]bool{}
	for _, ch := range joined {
		used[ch.Up], used[ch.Down] = true, true
	}
	type cand struct {
		ca, cb *Conn
		dt     int64
	}
	var cands []cand
	for _, ca := range a.Conns {
		if used[ca] || ca.Bytes[0]+ca.Bytes[1] == 0 {
			continue
		}
		for _, cb := range b.Conns {
			if used[cb] || cb.Server.Port() != ca.Server.Port() || cb.Bytes[0]+cb.Bytes[1] == 0 {
				continue
			}
			dt := start(cb) - start(ca)
			if dt < -splitBefore || dt > splitAfter {
				continue
			}
			cands = append(cands, cand{ca, cb, dt})
		}
	}
	slices.SortStableFunc(cands, func(x, y cand) int {
		ax, ay := x.dt, y.dt
		if ax < 0 {
			ax = -ax
		}
		if ay < 0 {
			ay = -ay
		}
		return int(min(max(ax-ay, -1), 1))
	})
	var out []*ConnHop
	for _, c := range cands {
		if used[c.ca] || used[c.cb] {
			continue
		}
		used[c.ca], used[c.cb] = true, true
		out = append(out, &ConnHop{Up: c.ca, Down: c.cb, Split: true})
	}
	// In the order of a's connections, as the others.
	slices.SortStableFunc(out, func(x, y *ConnHop) int { return x.Up.Stream - y.Up.Stream })
	return out
}

// start is the time of a connection's first packet.
func start(c *Conn) int64 {
	t := int64(math.MaxInt64)
	for d := range c.Pkts {
		if len(c.Pkts[d]) > 0 {
			t = min(t, c.Pkts[d][0].Time)
		}
	}
	return t
}

// buffered is one instant of a proxy's buffer for one direction: the
// bytes it had accepted from the sender and those delivered beyond it.
type buffered struct {
	Time                int64 // on the hop's first capture's clock
	Accepted, Delivered int64
}

// proxyBuffer is, for direction d of a split connection (Up's
// directions), the proxy's buffer at every ACK of either half, in time
// order: what the upstream half's receiver (the proxy, or the client's
// side of it) acknowledged and what the downstream half's receiver
// acknowledged, each from its own initial sequence number. Where d runs
// from the hop's second capture to its first, accepted is the second's
// and delivered the first's. The clock offset moves the second capture's
// times onto the first's.
func proxyBuffer(h *Hop, ch *ConnHop, d reassembly.Direction) []buffered {
	dh := &ch.Dir[d]
	up, down := ch.Up, ch.Down
	dd := d ^ dirFlip(ch.Flip)
	type ackAt struct {
		t   int64
		rel int64
	}
	acks := func(c *Conn, dir reassembly.Direction, shift bool) []ackAt {
		base, ok := seqBase(c, dir)
		if !ok {
			return nil
		}
		// Bytes only: a FIN's sequence number is not one.
		end := int64(math.MaxInt64)
		for _, p := range c.Pkts[dir] {
			if p.Flags.Has(reassembly.FIN) {
				end = int64(int32(p.Seq - base))
				break
			}
		}
		var out []ackAt
		var hi int64
		for _, p := range c.Pkts[dir^1] {
			if !p.Flags.Has(reassembly.ACK) {
				continue
			}
			rel := min(int64(int32(p.Ack-base)), end)
			if rel <= hi {
				continue
			}
			hi = rel
			t := p.Time
			if shift && h.ClockOK {
				t -= int64(h.Clock.at(t))
			}
			out = append(out, ackAt{t, rel})
		}
		return out
	}
	a, b := acks(up, d, false), acks(down, dd, true)
	if !dh.Forward {
		a, b = b, a
	}
	var out []buffered
	var acc, del int64
	for i, j := 0, 0; i < len(a) || j < len(b); {
		var t int64
		if j >= len(b) || i < len(a) && a[i].t <= b[j].t {
			t, acc = a[i].t, a[i].rel
			i++
		} else {
			t, del = b[j].t, b[j].rel
			j++
		}
		out = append(out, buffered{Time: t, Accepted: acc, Delivered: del})
	}
	return out
}

// seqBase is the sequence number a direction's byte 0 has: its SYN's
// plus one, else its first packet's.
func seqBase(c *Conn, d reassembly.Direction) (uint32, bool) {
	if c.HasSYN[d] {
		return c.ISN[d] + 1, true
	}
	if len(c.Pkts[d]) == 0 {
		return 0, false
	}
	return c.Pkts[d][0].Seq, true
}

// measureSplit fills what a hop can say of a split connection: the most
// bytes its proxy held each way.
func measureSplit(h *Hop, ch *ConnHop) {
	for d := range ch.Dir {
		var m int64
		for _, b := range proxyBuffer(h, ch, reassembly.Direction(d)) {
			m = max(m, b.Accepted-b.Delivered)
		}
		ch.Dir[d].ProxyBufferMax = m
	}
}
