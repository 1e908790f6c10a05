package join

import (
	"net/netip"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// packet is one TCP packet of a capture, as the join compares them.
type packet struct {
	Time     int64  // ns since the epoch, on the capture's clock
	Frame    uint32 // 1-based packet number in the capture (wraps past 4 G)
	Seq, Ack uint32 // raw
	TSVal    uint32
	SACK     uint32 // left edge of the first SACK block, 0 when none
	Wire     uint16 // frame bytes on the wire (at most 65535)
	Len      uint16 // TCP payload bytes on the wire
	IPID     uint16 // IPv4 identification, 0 for IPv6
	Window   uint16 // raw
	Flags    reassembly.Flags
	// Dup is set on a capture duplicate (the same packet captured twice
	// at this point, reassembly.Segment.Duplicate).
	Dup bool
}

// data reports whether p carries payload.
func (p *packet) data() bool { return p.Len > 0 }

// Conn is one connection of a capture with its packets.
type Conn struct {
	Stream         int
	Client, Server netip.AddrPort
	// ISN is each direction's SYN sequence number, when HasSYN says the
	// SYN was captured.
	ISN    [2]uint32
	HasSYN [2]bool
	// Pkts are the connection's packets by direction (reassembly's
	// C2S, S2C), in capture order.
	Pkts  [2][]packet
	Bytes [2]int64 // payload bytes, capture duplicates left out
}

// Ends are the sender and the receiver of direction d.
func (c *Conn) Ends(d reassembly.Direction) [2]netip.AddrPort {
	if d == reassembly.S2C {
		return [2]netip.AddrPort{c.Server, c.Client}
	}
	return [2]netip.AddrPort{c.Client, c.Server}
}

// Capture is what the join reads of one capture.
type Capture struct {
	Name        string
	Conns       []*Conn
	First, Last int64 // times of the first and last TCP packets
	Packets     int64
}

// Read reads the TCP packets of capture name from r. The error, when not
// nil, is the damage that stopped the read; what was read before it is
// in the capture.
func Read(name string, r *reassembly.Reader) (*Capture, error) {
	c := &Capture{Name: name}
	byStream := map[int]*Conn{}
	o := analyze.RunOptions{Keep: -1} // the tracker's view is enough
	o.OnSegment = func(rc *reassembly.Conn, s *reassembly.Segment, _ *analyze.Record) {
		cc := byStream[rc.Stream]
		if cc == nil {
			cc = &Conn{Stream: rc.Stream, Client: rc.Client, Server: rc.Server}
			byStream[rc.Stream] = cc
			c.Conns = append(c.Conns, cc)
		}
		p := packet{Time: s.Time, Frame: uint32(s.Frame), Seq: s.Seq, Ack: s.Ack, Len: uint16(min(s.PayloadLen, 0xffff)),
			Wire: uint16(min(s.WireLen, 0xffff)), IPID: s.IPID, Window: s.Window, Flags: s.Flags, Dup: s.Duplicate}
		if s.Opt.HasTimestamp {
			p.TSVal = s.Opt.TSVal
		}
		if s.Opt.NSACK > 0 {
			p.SACK = s.Opt.SACK[0].Left
		}
		if s.Flags.Has(reassembly.SYN) && !cc.HasSYN[s.Dir] {
			cc.ISN[s.Dir], cc.HasSYN[s.Dir] = s.Seq, true
		}
		if !p.Dup {
			cc.Bytes[s.Dir] += int64(p.Len)
		}
		cc.Pkts[s.Dir] = append(cc.Pkts[s.Dir], p)
		if c.Packets == 0 || s.Time < c.First {
			c.First = s.Time
		}
		if s.Time > c.Last {
			c.Last = s.Time
		}
		c.Packets++
	}
	_, err := analyze.Run(r, o)
	return c, err
}

// shift moves every time of the capture by f (the tests' injected clock
// offset and drift).
func (c *Capture) shift(f func(t int64) int64) {
	for _, cc := range c.Conns {
		for d := range cc.Pkts {
			for i := range cc.Pkts[d] {
				cc.Pkts[d][i].Time = f(cc.Pkts[d][i].Time)
			}
		}
	}
	c.First, c.Last = f(c.First), f(c.Last)
}

// conn is the capture's connection stream, or (stream -1) the one that
// carried the most payload; nil when there is none.
func (c *Capture) conn(stream int) *Conn {
	var b *Conn
	for _, cc := range c.Conns {
		if stream >= 0 {
			if cc.Stream == stream {
				return cc
			}
			continue
		}
		if b == nil || cc.Bytes[0]+cc.Bytes[1] > b.Bytes[0]+b.Bytes[1] {
			b = cc
		}
	}
	return b
}
