package reassembly

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strconv"
)

// IP protocol numbers tcpviz names.
const (
	ProtoICMP   uint8 = 1
	ProtoTCP    uint8 = 6
	ProtoUDP    uint8 = 17
	ProtoICMPv6 uint8 = 58
)

// ProtoName names an IP protocol as tshark does in its protocol column
// (lowercase), or gives its number.
func ProtoName(p uint8) string {
	switch p {
	case ProtoTCP:
		return "tcp"
	case ProtoUDP:
		return "udp"
	case ProtoICMP:
		return "icmp"
	case ProtoICMPv6:
		return "icmpv6"
	case 2:
		return "igmp"
	case 47:
		return "gre"
	case 50:
		return "esp"
	case 51:
		return "ah"
	case 89:
		return "ospf"
	case 103:
		return "pim"
	case 112:
		return "vrrp"
	case 132:
		return "sctp"
	}
	return "ip-proto-" + strconv.Itoa(int(p))
}

// Datagram is one IP packet that does not carry TCP — a UDP datagram, an
// ICMP message, any other IP protocol — or one datagram reassembled from
// IP fragments, as Wireshark shows it at the packet that completed it.
type Datagram struct {
	Frame     int64 // packet number; of the fragment that completed a reassembled datagram
	Time      int64 // ns since the epoch, of that packet
	Interface int32
	Src, Dst  netip.Addr
	// SrcPort and DstPort are the UDP ports (0 for other protocols).
	SrcPort, DstPort uint16
	IPVersion        uint8
	Proto            uint8 // IP protocol number: 17 for UDP
	// Length is the transport payload on the wire: udp.length − 8 for UDP
	// (never more than the IP length allows), the IP payload otherwise.
	Length int
	// Payload is the captured part of that payload (after the UDP header).
	// It is reused by the next Scan: copy it to keep it.
	Payload []byte
	// Fragments is how many IP fragments the datagram was reassembled
	// from; 0 when it was not fragmented.
	Fragments int

	// Set by the FlowTracker.
	Flow int       // Wireshark's udp.stream for UDP; numbered per protocol otherwise
	Dir  Direction // C2S: sent by the side that sent the flow's first packet
}

// DatagramStats counts what the datagram path saw.
type DatagramStats struct {
	UDP       int64 // UDP datagrams (a reassembled datagram counts once)
	Other     int64 // datagrams of other IP protocols (ICMP, ...)
	Fragments int64 // IP fragments of datagrams that are not TCP
	// Reassembled is how many datagrams were rebuilt from fragments.
	Reassembled int64
	// Incomplete is how many fragmented datagrams never got all their
	// fragments (or were dropped for memory): each is counted once.
	Incomplete int64
	// FirstIncomplete is the packet number of the first fragment of the
	// first incomplete datagram.
	FirstIncomplete int64
	// Malformed counts UDP headers that were cut or inconsistent and
	// fragments that could not belong to any datagram.
	Malformed      int64
	FirstMalformed int64
}

// fragInfo is what an IP header says of fragmentation.
type fragInfo struct {
	frag   bool
	more   bool   // more fragments follow
	offset int    // bytes
	id     uint32 // IPv4 identification or IPv6 fragment identification
}

// ipPacket is the innermost IP header of a packet without TCP, as the
// decoder noted it for the datagram path.
type ipPacket struct {
	frame    int64 // the packet it belongs to (stale when not the current one)
	version  uint8
	proto    uint8
	src, dst netip.Addr
	payload  []byte // captured bytes of the IP payload (of this fragment)
	left     int    // wire bytes of the IP payload (of this fragment)
	frag     fragInfo
}

// noteIP records the innermost IP header of the current packet for the
// datagram path. It does not copy the payload: the packet's bytes stay
// valid until the next packet is read.
func (d *Decoder) noteIP(p *Packet, seg *Segment, version, proto uint8, payload []byte, left int, f fragInfo) {
	d.ip = ipPacket{frame: p.Number, version: version, proto: proto, src: seg.Src, dst: seg.Dst,
		payload: payload[:min(len(payload), max(left, 0))], left: max(left, 0), frag: f}
}

// datagramPath turns the decoder's notes into Datagrams: it reassembles
// fragments, decodes UDP headers and assigns flows.
type datagramPath struct {
	frags fragTable
	flows *FlowTracker
	dg    Datagram
	fn    func(*Datagram, *Flow)
	stats DatagramStats
	// firstErr describes the first malformed datagram.
	firstErr error
	// lastExpire is the packet number of the last sweep of the flow table.
	lastExpire int64
}

// add handles the noted IP packet of packet p.
func (dp *datagramPath) add(ip *ipPacket, p *Packet) {
	dg := &dp.dg
	*dg = Datagram{Frame: p.Number, Time: p.Time, Interface: int32(p.Interface),
		Src: ip.src, Dst: ip.dst, IPVersion: ip.version, Proto: ip.proto}
	payload, left := ip.payload, ip.left
	if ip.frag.frag {
		dp.stats.Fragments++
		var n int
		var err error
		payload, left, n, err = dp.frags.add(ip, p)
		if err != nil {
			dp.malformed(p.Number, err)
			return
		}
		if n == 0 { // not complete yet
			return
		}
		dg.Fragments = n
		dp.stats.Reassembled++
	}
	if ip.proto == ProtoUDP {
		if len(payload) < 8 {
			if left < 8 {
				dp.malformed(p.Number, fmt.Errorf("udp: datagram of %d bytes is shorter than its header", left))
			} else {
				dp.malformed(p.Number, fmt.Errorf("udp: header not captured (%d bytes)", len(payload)))
			}
			return
		}
		ulen := int(binary.BigEndian.Uint16(payload[4:]))
		if ulen < 8 {
			dp.malformed(p.Number, fmt.Errorf("udp: length %d is less than 8", ulen))
			return
		}
		dg.SrcPort, dg.DstPort = binary.BigEndian.Uint16(payload), binary.BigEndian.Uint16(payload[2:])
		dg.Length = min(ulen, left) - 8
		dg.Payload = payload[8:min(len(payload), 8+dg.Length)]
		dp.stats.UDP++
	} else {
		dg.Length, dg.Payload = left, payload
		dp.stats.Other++
	}
	f := dp.flows.Track(dg)
	if p.Number-dp.lastExpire > expireEvery {
		dp.lastExpire = p.Number
		dp.flows.Expire(dg.Time)
	}
	if dp.fn != nil {
		dp.fn(dg, f)
	}
}

func (dp *datagramPath) malformed(frame int64, err error) {
	dp.stats.Malformed++
	if dp.stats.FirstMalformed == 0 {
		dp.stats.FirstMalformed = frame
		dp.firstErr = fmt.Errorf("packet %d: %w", frame, err)
	}
}

// flush ends the capture: fragments still waiting are incomplete
// datagrams, and every flow retires.
func (dp *datagramPath) flush() {
	dp.frags.flush()
	dp.flows.Flush()
}
