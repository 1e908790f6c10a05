package reassembly

import (
	"encoding/binary"
	"net/netip"

	"github.com/gopacket/gopacket/layers"
)

// Focus names one connection that an earlier pass over the same capture
// found, so that a later pass (Scanner.Focus) reads only it: the packets
// before its first frame and after its last are not decoded, nor those
// between whose endpoints are others. The connection comes out of such a
// pass as it came out of the whole one — same stream number, segments,
// relative numbers — provided the earlier pass continued no connection
// retired while open (Tracker.Continued and Evicted are 0): then the
// packets of its 4-tuple from its first frame to its last are all its own
// (a connection that takes over the 4-tuple ends it, and one retired
// closed does not come back), and it is retired only when nothing more of
// it comes.
type Focus struct {
	Stream                int
	Client, Server        netip.AddrPort
	FirstFrame, LastFrame int64
	ReusedPorts           bool
}

// FocusOf is the Focus of c, as a pass that ends with c found it.
func FocusOf(c *Conn) Focus {
	return Focus{Stream: c.Stream, Client: c.Client, Server: c.Server, FirstFrame: c.FirstFrame,
		LastFrame: c.LastFrame, ReusedPorts: c.ReusedPorts}
}

// focus is a Focus as the scanner checks it.
type focus struct {
	Focus
	v4               bool
	client, server   [16]byte // the addresses: As4 in the first 4 bytes when v4
	clientP, serverP uint16
	past             bool // a packet after the last frame was read
}

func newFocus(f Focus) *focus {
	x := &focus{Focus: f, v4: f.Client.Addr().Is4(), clientP: f.Client.Port(), serverP: f.Server.Port()}
	if x.v4 {
		a, b := f.Client.Addr().As4(), f.Server.Addr().As4()
		copy(x.client[:], a[:])
		copy(x.server[:], b[:])
	} else {
		x.client, x.server = f.Client.Addr().As16(), f.Server.Addr().As16()
	}
	return x
}

// Focus makes the scanner read only the connection f names (see Focus),
// stopping after its last frame: call it before Pipeline (whose reading
// starts at once) and the first Scan. The
// tracker numbers that connection f.Stream; Expire is not run (the
// connection is retired at the end). Counts, warnings and Packets then
// cover only what was read.
func (s *Scanner) Focus(f Focus) {
	if s.pipe != nil {
		panic("reassembly: Scanner.Focus after Pipeline")
	}
	s.focus = newFocus(f)
	s.trk.next = f.Stream
	s.trk.reuseFirst = f.ReusedPorts
}

// next reads the next packet to decode: with a focus, the next one that
// may be of its connection, none after its last frame.
func (s *Scanner) next() bool {
	if s.focus == nil {
		return s.r.Next()
	}
	return s.nextFocused()
}

// nextFocused is next when the scanner reads one connection.
func (s *Scanner) nextFocused() bool {
	f := s.focus
	for !f.past && s.r.Next() {
		p := s.r.Packet()
		if p.Number > f.LastFrame {
			f.past = true
			break
		}
		if p.Number >= f.FirstFrame && !f.skip(p) {
			return true
		}
		if p.Number < f.FirstFrame && isFragment(p) {
			return true // it may complete a datagram of the connection's (reassemble)
		}
	}
	return false
}

// isFragment reports whether p is an IPv4 fragment, or may be one: an
// IPv6 packet with extension headers. The decoder's reassembly needs the
// fragments before a connection's first frame, which may complete its
// first segment.
func isFragment(p *Packet) bool {
	ip, _, version := fastIP(p)
	switch version {
	case 4:
		return len(ip) >= 20 && binary.BigEndian.Uint16(ip[6:])&0x3fff != 0
	case 6:
		return len(ip) >= 40 && ip[6] != uint8(layers.IPProtocolTCP) && ip[6] != uint8(layers.IPProtocolUDP)
	}
	return true // not a link type decodeFast reads: decode it
}

// skip reports whether p, from the header bytes alone, is certainly not
// of f's connection: a packet decodeFast handles, whose addresses or ports
// are others. Any other packet is decoded (and then checked with has).
func (f *focus) skip(p *Packet) bool {
	ip, _, version := fastIP(p)
	var tcp []byte
	switch version {
	case 4:
		// What decodeFast takes: no options, TCP, no fragment, a length.
		if len(ip) < 20 || ip[0] != 0x45 || ip[9] != uint8(layers.IPProtocolTCP) ||
			binary.BigEndian.Uint16(ip[6:])&0x3fff != 0 {
			return false
		}
		length := int(binary.BigEndian.Uint16(ip[2:]))
		if length == 0 {
			length = len(ip)
		}
		if length < 20 {
			return false
		}
		if !f.v4 {
			return true
		}
		tcp = ip[20:min(length, len(ip))]
		if len(tcp) < 4 {
			return false
		}
		return !f.match(ip[12:16], ip[16:20], tcp)
	case 6:
		if len(ip) < 40 || ip[0]>>4 != 6 || ip[6] != uint8(layers.IPProtocolTCP) {
			return false
		}
		length := int(binary.BigEndian.Uint16(ip[4:]))
		if length == 0 {
			return false
		}
		if f.v4 {
			return true
		}
		tcp = ip[40:min(40+length, len(ip))]
		if len(tcp) < 4 {
			return false
		}
		return !f.match(ip[8:24], ip[24:40], tcp)
	}
	return false
}

// match reports whether addresses src and dst (4 or 16 bytes) and the
// ports at the start of tcp are f's connection's, either way.
func (f *focus) match(src, dst, tcp []byte) bool {
	n := len(src)
	sp, dp := binary.BigEndian.Uint16(tcp), binary.BigEndian.Uint16(tcp[2:])
	switch {
	case sp == f.clientP && dp == f.serverP:
		return string(src) == string(f.client[:n]) && string(dst) == string(f.server[:n])
	case sp == f.serverP && dp == f.clientP:
		return string(src) == string(f.server[:n]) && string(dst) == string(f.client[:n])
	}
	return false
}

// has reports whether decoded segment seg is of f's connection.
func (f *focus) has(seg *Segment) bool {
	if seg.Frame < f.FirstFrame { // read only for the reassembly of fragments
		return false
	}
	src, dst := seg.SrcAddrPort(), seg.DstAddrPort()
	return src == f.Client && dst == f.Server || src == f.Server && dst == f.Client
}
