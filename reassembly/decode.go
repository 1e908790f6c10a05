package reassembly

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// DecodeStats counts what the decoder saw, by outcome.
type DecodeStats struct {
	Packets        int64  // every packet handed to Decode
	TCP            int64  // packets that carried a TCP header
	NonTCP         int64  // well-formed packets without TCP (ARP, UDP, ...)
	Fragments      int64  // IP fragments but the last of a datagram carrying TCP (reassembled), or of another (for the datagram path)
	Malformed      int64  // packets whose headers could not be decoded
	UnknownLink    int64  // packets of a link type tcpviz does not decode
	SuperSegments  int64  // TSO/GSO/GRO segments: IPv4 total length 0 or payload above the MSS
	HeaderOnly     int64  // TCP packets whose payload was not (fully) captured
	FirstMalformed int64  // packet number of the first malformed packet
	FirstUnknown   int64  // packet number of the first packet of an unknown link type
	UnknownType    uint16 // that packet's link type
	// BadTime counts packets whose timestamp nanoseconds since 1970 in 64
	// bits cannot hold (before 1678, after 2262): analysed as tshark does,
	// their times wrapped (Packet.BadTime), and said in a warning.
	BadTime      int64
	FirstBadTime int64
	// Reassembled counts the datagrams carrying TCP (or a tunnel)
	// rebuilt from IP fragments, FragIncomplete those whose fragments
	// did not all arrive (FirstFragIncomplete: the first fragment of the
	// first of them).
	Reassembled, FragIncomplete, FirstFragIncomplete int64
	// NoTime counts packets the capture gives no timestamp (pcapng
	// Simple Packet Blocks): each took the time of a packet near it
	// (Packet.NoTime), to be said in a warning.
	NoTime      int64
	FirstNoTime int64
	// ClockBack counts the times the capture's clock stepped back more
	// than clockBackMin from one packet to the next (a clock set back, a
	// wild timestamp): what spans a step (times since the first packet,
	// durations, rates, RTTs) is wrong, as Wireshark shows it too, and is
	// said in a warning. FirstClockBack is the packet after the first
	// step, MaxClockBack the largest step (ns).
	ClockBack, FirstClockBack, MaxClockBack int64
}

// clockBackMin is the least step back of the capture's clock that is
// said: packets merged from several interfaces or queues come out of
// order by far less.
const clockBackMin = 60e9

// Decoder turns captured packets into Segments: the common encapsulations
// by hand (fastdecode.go), everything else with gopacket's preallocated
// layers (the DecodingLayer fast path). Decoding allocates nothing per
// packet. A Decoder is not safe for concurrent use.
type Decoder struct {
	eth    layers.Ethernet
	dot1q  layers.Dot1Q
	sll    layers.LinuxSLL
	sll2   layers.LinuxSLL2
	loop   layers.Loopback
	ip4    layers.IPv4
	ip6    layers.IPv6
	ip6ext layers.IPv6ExtensionSkipper
	gre    layers.GRE

	Stats DecodeStats
	// lastTime is the time of the last packet with one (timed: any),
	// for DecodeStats.ClockBack.
	lastTime int64
	timed    bool

	noFast bool // tests: always take the general path

	// datagrams asks the general path to note, in ip, the innermost IP
	// header of a packet that is not TCP, or of a fragment of a datagram
	// that is not TCP (see Scanner.Datagrams). TCP packets never reach it.
	datagrams bool
	ip        ipPacket

	// frags reassembles the IP fragments of datagrams that carry TCP, or
	// may carry it in a tunnel (GRE, IP in IP), as Wireshark does with
	// its default preferences; fragStats counts what it gave up on.
	frags     fragTable
	fragStats DatagramStats
}

// carriesTCP reports whether an IP payload of protocol proto may hold
// TCP: TCP itself, or a tunnel tcpviz reads that is not UDP (fragmented
// UDP datagrams take the datagram path).
func carriesTCP(proto uint8) bool {
	switch layers.IPProtocol(proto) {
	case layers.IPProtocolTCP, layers.IPProtocolGRE, layers.IPProtocolIPv4, layers.IPProtocolIPv6, layers.IPProtocolAH:
		return true
	}
	return false
}

// reassemble files a fragment of a datagram that carriesTCP. When it
// completes the datagram it returns the datagram's payload (captured
// bytes; valid until the next completion) and its length on the wire.
func (d *Decoder) reassemble(p *Packet, seg *Segment, version, proto uint8, payload []byte, left int, f fragInfo) ([]byte, int, bool, error) {
	if d.frags.stats == nil {
		d.frags.stats = &d.fragStats
	}
	ip := ipPacket{frame: p.Number, version: version, proto: proto, src: seg.Src, dst: seg.Dst,
		payload: payload[:min(len(payload), max(left, 0))], left: max(left, 0), frag: f}
	data, total, n, err := d.frags.add(&ip, p)
	d.Stats.FragIncomplete, d.Stats.FirstFragIncomplete = d.fragStats.Incomplete, d.fragStats.FirstIncomplete
	if err != nil || n == 0 {
		return nil, 0, false, err
	}
	d.Stats.Reassembled++
	return data, total, true, nil
}

// Flush ends the capture: fragmented datagrams still waiting are
// counted as incomplete.
func (d *Decoder) Flush() {
	if d.frags.stats != nil {
		d.frags.flush()
		d.Stats.FragIncomplete, d.Stats.FirstFragIncomplete = d.fragStats.Incomplete, d.fragStats.FirstIncomplete
	}
}

// SetTruncated implements gopacket.DecodeFeedback.
func (d *Decoder) SetTruncated() {}

// layer types of our own, for encapsulations gopacket decodes only through
// its allocating path.
var (
	layerTypeRawIP = gopacket.RegisterLayerType(7001, gopacket.LayerTypeMetadata{Name: "tcpviz raw IP"})
	layerTypePPP   = gopacket.RegisterLayerType(7002, gopacket.LayerTypeMetadata{Name: "tcpviz PPP"})
	layerTypeFDDI  = gopacket.RegisterLayerType(7003, gopacket.LayerTypeMetadata{Name: "tcpviz FDDI"})
)

// maxLayers bounds how deep encapsulations may nest.
const maxLayers = 24

// Decode decodes one packet. It returns true and fills seg (all fields but
// those the Tracker sets) when the packet carries TCP; false with a nil
// error for packets without TCP or IP fragments; and false with an error
// naming the layer for packets that cannot be decoded.
func (d *Decoder) Decode(p *Packet, seg *Segment) (bool, error) {
	d.Stats.Packets++
	if p.BadTime {
		d.Stats.BadTime++
		if d.Stats.FirstBadTime == 0 {
			d.Stats.FirstBadTime = p.Number
		}
	}
	if p.NoTime {
		d.Stats.NoTime++
		if d.Stats.FirstNoTime == 0 {
			d.Stats.FirstNoTime = p.Number
		}
	}
	if !p.NoTime && !p.BadTime {
		if back := d.lastTime - p.Time; d.timed && back > clockBackMin {
			d.Stats.ClockBack++
			if d.Stats.FirstClockBack == 0 {
				d.Stats.FirstClockBack = p.Number
			}
			d.Stats.MaxClockBack = max(d.Stats.MaxClockBack, back)
		}
		d.lastTime, d.timed = p.Time, true
	}
	// The fast path first, here rather than in decode: nearly every
	// packet is one of its TCP segments, done in one call.
	seg.InICMP = false
	handled, ok := false, false
	var err error
	if !d.noFast {
		if handled, err = d.decodeFast(p, seg); handled && err == nil {
			d.Stats.TCP++
			return true, nil
		}
	}
	if !handled {
		ok, err = d.decode(p, seg)
	}
	switch {
	case ok:
		d.Stats.TCP++
	case err == errUnknownLink:
		d.Stats.UnknownLink++
		if d.Stats.FirstUnknown == 0 {
			d.Stats.FirstUnknown, d.Stats.UnknownType = p.Number, uint16(p.LinkType)
		}
		err = fmt.Errorf("unsupported link type %d", uint16(p.LinkType))
	case err == errFragment:
		d.Stats.Fragments++
		err = nil
	case err != nil:
		d.Stats.Malformed++
		if d.Stats.FirstMalformed == 0 {
			d.Stats.FirstMalformed = p.Number
		}
	default:
		d.Stats.NonTCP++
	}
	return ok, err
}

var (
	errUnknownLink = errors.New("unknown link type")
	errFragment    = errors.New("ip fragment")
)

func linkLayer(lt layers.LinkType) gopacket.LayerType {
	switch lt {
	case layers.LinkTypeEthernet:
		return layers.LayerTypeEthernet
	case layers.LinkTypeNull, layers.LinkTypeLoop:
		return layers.LayerTypeLoopback
	case layers.LinkTypeRaw, layers.LinkTypeIPv4, layers.LinkTypeIPv6, 12, 14:
		return layerTypeRawIP
	case layers.LinkTypeLinuxSLL:
		return layers.LayerTypeLinuxSLL
	case layers.LinkTypeLinuxSLL2:
		return layers.LayerTypeLinuxSLL2
	case layers.LinkTypePPP, layers.LinkTypePPP_HDLC, 51 /* PPP_ETHER */ :
		return layerTypePPP
	case layers.LinkTypeFDDI:
		return layerTypeFDDI
	case layers.LinkTypeC_HDLC:
		return layerTypeCHDLC
	case 239: // NFLOG
		return layerTypeNFLOG
	case layers.LinkTypeIEEE802_11:
		return layerTypeDot11
	case layers.LinkTypeIEEE80211Radio:
		return layerTypeRadiotap
	}
	return gopacket.LayerTypeZero
}

func (d *Decoder) decode(p *Packet, seg *Segment) (bool, error) {
	seg.InICMP = false
	data := p.Data
	typ := linkLayer(p.LinkType)
	if typ == gopacket.LayerTypeZero {
		return false, errUnknownLink
	}
	if p.LinkType == 51 { // PPPoE session header without Ethernet
		if len(data) < 6 {
			return false, errors.New("pppoe: truncated header")
		}
		data = data[6:]
	}
	// ipLeft is what the innermost IP header says follows it, on the wire.
	ipLeft := -1
	ipVer := 0
	// wireEnd is where the packet ends on the wire, as an offset into
	// p.Data; headers with length fields (PPPoE) can bring it forward.
	wireEnd := p.WireLen
	// offset is where b, a suffix of base, starts in it: base is the
	// packet's bytes, or a datagram reassembled from fragments.
	base := p.Data
	offset := func(b []byte) int { return len(base) - len(b) }
	// ipAt and proto are the innermost IP header's payload (past any
	// extension headers) and the protocol it carries, for datagrams.
	var ipAt []byte
	var proto uint8
	dataPad := false // radiotap's flag: the 802.11 header is padded
	for depth := 0; depth < maxLayers; depth++ {
		var err error
		switch typ {
		case layers.LayerTypeEthernet:
			if err = d.eth.DecodeFromBytes(data, d); err != nil {
				return false, fmt.Errorf("ethernet: %w", lower(err))
			}
			data, typ = d.eth.Payload, etherTypeLayer(d.eth.EthernetType)
		case layers.LayerTypeDot1Q:
			if err = d.dot1q.DecodeFromBytes(data, d); err != nil {
				return false, fmt.Errorf("802.1q: %w", lower(err))
			}
			data, typ = d.dot1q.Payload, etherTypeLayer(d.dot1q.Type)
		case layers.LayerTypeLLC:
			if data, typ, err = llcPayload(data); err != nil {
				return false, err
			}
		case layerTypeCHDLC:
			if data, typ, err = chdlcPayload(data); err != nil {
				return false, err
			}
		case layerTypeNFLOG:
			if data, typ, err = nflogPayload(data, p.CapLen < p.WireLen); err != nil {
				return false, err
			}
		case layerTypeDot11:
			if data, typ, err = dot11Payload(data, dataPad); err != nil {
				return false, err
			}
		case layerTypeRadiotap:
			var fcs bool
			if data, fcs, dataPad, err = radiotapPayload(data); err != nil {
				return false, err
			}
			if fcs { // the frame's last 4 bytes are its FCS, not payload
				wireEnd -= 4
			}
			typ = layerTypeDot11
		case layers.LayerTypeLinuxSLL:
			if err = d.sll.DecodeFromBytes(data, d); err != nil {
				return false, fmt.Errorf("linux sll: %w", lower(err))
			}
			data, typ = d.sll.Payload, d.sll.NextLayerType()
		case layers.LayerTypeLinuxSLL2:
			if err = d.sll2.DecodeFromBytes(data, d); err != nil {
				return false, fmt.Errorf("linux sll2: %w", lower(err))
			}
			data, typ = d.sll2.Payload, d.sll2.NextLayerType()
		case layers.LayerTypeLoopback:
			if err = d.loop.DecodeFromBytes(data, d); err != nil {
				return false, fmt.Errorf("null/loopback: %w", lower(err))
			}
			data, typ = d.loop.Payload, d.loop.NextLayerType()
		case layers.LayerTypePPPoE:
			// version/type, code, session id, length; then PPP.
			if len(data) < 6 {
				return false, errors.New("pppoe: truncated header")
			}
			wireEnd = min(wireEnd, offset(data)+6+int(binary.BigEndian.Uint16(data[4:6])))
			data, typ = data[6:], layerTypePPP
		case layerTypeFDDI:
			// Frame control, destination and source MAC (13 bytes), then an
			// 802.2 LLC/SNAP header carrying an EtherType.
			if len(data) < 13+8 {
				return false, errors.New("fddi: truncated header")
			}
			llc := data[13:]
			if llc[0] != 0xaa || llc[1] != 0xaa || llc[2] != 0x03 {
				return false, nil
			}
			data, typ = llc[8:], layers.EthernetType(binary.BigEndian.Uint16(llc[6:8])).LayerType()
		case layerTypePPP:
			data, typ, err = pppPayload(data)
			if err != nil {
				return false, err
			}
		case layers.LayerTypeMPLS:
			data, typ, err = mplsPayload(data)
			if err != nil {
				return false, err
			}
		case layers.LayerTypeGRE:
			if err = d.gre.DecodeFromBytes(data, d); err != nil {
				return false, fmt.Errorf("gre: %w", lower(err))
			}
			data = d.gre.Payload
			switch d.gre.Protocol {
			case layers.EthernetTypePPP:
				typ = layerTypePPP
			case 0x88be, 0x22eb: // ERSPAN
				if data, err = erspanPayload(d.gre.Protocol, d.gre.SeqPresent, data); err != nil {
					return false, err
				}
				typ = layers.LayerTypeEthernet
			default:
				typ = etherTypeLayer(d.gre.Protocol)
			}
		case layerTypeRawIP:
			if len(data) < 1 {
				return false, errors.New("raw ip: empty packet")
			}
			switch data[0] >> 4 {
			case 4:
				typ = layers.LayerTypeIPv4
			case 6:
				typ = layers.LayerTypeIPv6
			default:
				return false, fmt.Errorf("raw ip: ip version %d", data[0]>>4)
			}
		case layers.LayerTypeIPv4:
			if err = decodeIPv4(&d.ip4, data); err != nil {
				return false, fmt.Errorf("ipv4: %w", lower(err))
			}
			ip := &d.ip4
			if ip.Version != 4 {
				return false, fmt.Errorf("ipv4: version %d", ip.Version)
			}
			hl := int(ip.IHL) * 4
			// What follows the header on the wire: the total length field,
			// but never more than the frame holds (Wireshark clamps to the
			// reported length too), and for TSO/GSO/BIG TCP segments, whose
			// total length is 0, the frame's length.
			wireLeft := wireEnd - offset(data) - hl
			if total := int(binary.BigEndian.Uint16(data[2:4])); total == 0 {
				ipLeft = wireLeft
				d.Stats.SuperSegments++
			} else {
				ipLeft = min(total-hl, wireLeft)
			}
			ipVer = 4
			seg.Src = netip.AddrFrom4([4]byte(ip.SrcIP))
			seg.Dst = netip.AddrFrom4([4]byte(ip.DstIP))
			seg.TTL, seg.IPID = ip.TTL, ip.Id
			if seg.InICMP && (ip.FragOffset != 0 || ip.Flags&layers.IPv4MoreFragments != 0) {
				return false, nil // a quoted fragment: Wireshark reads no TCP in it
			}
			if !seg.InICMP && (ip.Flags&layers.IPv4MoreFragments != 0 || ip.FragOffset != 0) {
				fi := fragInfo{frag: true, more: ip.Flags&layers.IPv4MoreFragments != 0, offset: int(ip.FragOffset) * 8, id: uint32(ip.Id)}
				if carriesTCP(uint8(ip.Protocol)) {
					whole, total, ok, err := d.reassemble(p, seg, 4, uint8(ip.Protocol), ip.Payload, ipLeft, fi)
					if err != nil {
						return false, err
					}
					if !ok {
						return false, errFragment
					}
					// The datagram, read on at the fragment that completed
					// it (as Wireshark shows it): lengths are its own.
					base, data, typ, ipLeft, wireEnd = whole, whole, ip.Protocol.LayerType(), total, total
					ipAt, proto = nil, uint8(ip.Protocol)
					continue
				}
				if d.datagrams {
					d.noteIP(p, seg, 4, uint8(ip.Protocol), ip.Payload, ipLeft,
						fragInfo{frag: true, more: ip.Flags&layers.IPv4MoreFragments != 0, offset: int(ip.FragOffset) * 8, id: uint32(ip.Id)})
				}
				return false, errFragment
			}
			if ip.Protocol == layers.IPProtocolTCP { // the common case, without the table lookup
				data, typ = ip.Payload, layers.LayerTypeTCP
				continue
			}
			ipAt, proto = ip.Payload, uint8(ip.Protocol)
			data, typ = ip.Payload, ip.NextLayerType()
		case layers.LayerTypeIPv6:
			if err = d.ip6.DecodeFromBytes(data, d); err != nil {
				return false, fmt.Errorf("ipv6: %w", lower(err))
			}
			ip := &d.ip6
			if ip.Version != 6 {
				return false, fmt.Errorf("ipv6: version %d", ip.Version)
			}
			length := int(ip.Length)
			if length == 0 && ip.HopByHop != nil { // a jumbogram: the length is the Jumbo Payload option's
				length = jumboLength(ip.HopByHop)
			}
			ipLeft = min(length, wireEnd-offset(data)-40)
			if ip.HopByHop != nil {
				ipLeft -= ip.HopByHop.ActualLength
			}
			ipVer = 6
			seg.Src = netip.AddrFrom16([16]byte(ip.SrcIP))
			seg.Dst = netip.AddrFrom16([16]byte(ip.DstIP))
			seg.TTL, seg.IPID = ip.HopLimit, 0
			ipAt, proto = ip.Payload, uint8(ip.NextHeader)
			if ip.HopByHop != nil {
				proto = uint8(ip.HopByHop.NextHeader)
			}
			data, typ = ip.Payload, ip.NextLayerType()
		case layers.LayerTypeIPv6Fragment:
			// Next header, reserved, offset (13 bits) and flags, identification.
			if len(data) >= 8 && binary.BigEndian.Uint16(data[2:])&0xfff9 == 0 {
				// An atomic fragment (offset 0, no more fragments, RFC
				// 6946): the whole datagram, as Wireshark dissects it.
				ipLeft -= 8
				ipAt, proto = data[8:], data[0]
				data, typ = data[8:], layers.IPProtocol(proto).LayerType()
				continue
			}
			if len(data) >= 8 && ipVer == 6 {
				ff := binary.BigEndian.Uint16(data[2:])
				fi := fragInfo{frag: true, more: ff&1 != 0, offset: int(ff &^ 7), id: binary.BigEndian.Uint32(data[4:])}
				if carriesTCP(data[0]) {
					next := layers.IPProtocol(data[0])
					whole, total, ok, err := d.reassemble(p, seg, 6, data[0], data[8:], ipLeft-8, fi)
					if err != nil {
						return false, err
					}
					if !ok {
						return false, errFragment
					}
					base, data, typ, ipLeft, wireEnd = whole, whole, next.LayerType(), total, total
					ipAt, proto = nil, uint8(next)
					continue
				}
				if d.datagrams {
					d.noteIP(p, seg, 6, data[0], data[8:], ipLeft-8, fi)
				}
			}
			return false, errFragment
		case layers.LayerTypeIPv6Destination, layers.LayerTypeIPv6Routing, layers.LayerTypeIPv6HopByHop:
			if err = d.ip6ext.DecodeFromBytes(data, d); err != nil {
				return false, fmt.Errorf("ipv6 extension header: %w", lower(err))
			}
			ipLeft -= len(d.ip6ext.Contents)
			ipAt, proto = d.ip6ext.Payload, uint8(d.ip6ext.NextHeader)
			data, typ = d.ip6ext.Payload, d.ip6ext.NextLayerType()
		case layers.LayerTypeIPSecAH:
			// Next header, payload length (in 4-byte words, minus 2),
			// reserved, SPI, sequence number, integrity check value.
			if len(data) < 12 {
				return false, errors.New("ah: truncated header")
			}
			n := (int(data[1]) + 2) * 4
			if len(data) < n {
				return false, errors.New("ah: truncated header")
			}
			ipLeft -= n
			ipAt, proto = data[n:], data[0]
			data, typ = data[n:], layers.IPProtocol(proto).LayerType()
		case layers.LayerTypeUDP:
			// The datagram is a UDP flow of its own (Wireshark gives it a
			// udp.stream), a tunnel's too, whatever the tunnel holds.
			if d.datagrams && ipVer != 0 && ipAt != nil && len(data) == len(ipAt) && d.ip.frame != p.Number {
				d.noteIP(p, seg, uint8(ipVer), proto, data, ipLeft, fragInfo{})
			}
			inner, next, end, err := udpTunnel(data)
			if err != nil {
				return false, err
			}
			if next == gopacket.LayerTypeZero {
				return d.other(p, seg, ipVer, proto, ipAt, data, ipLeft), nil
			}
			wireEnd = min(wireEnd, offset(data)+end)
			data, typ, ipAt = inner, next, nil
		case layers.LayerTypeICMPv4, layers.LayerTypeICMPv6:
			quoted, ok := icmpQuote(typ == layers.LayerTypeICMPv6, data)
			if !ok || seg.InICMP {
				return d.other(p, seg, ipVer, proto, ipAt, data, ipLeft), nil
			}
			// An error quoting the packet that caused it: the ICMP message
			// is a datagram (a flow of its own), the TCP header quoted in it
			// a packet of its connection, as Wireshark counts them.
			if d.datagrams && ipVer != 0 && ipAt != nil && len(data) == len(ipAt) {
				d.noteIP(p, seg, uint8(ipVer), proto, data, ipLeft, fragInfo{})
			}
			seg.InICMP = true
			data, typ, ipAt, ipLeft, wireEnd = quoted, ipVersionLayer(quoted), nil, -1, len(base)
		case layers.LayerTypeTCP:
			if seg.InICMP {
				return d.quotedTCP(data, p, seg, ipVer)
			}
			if err = d.decodeTCP(data, p, seg, ipVer, ipLeft); err != nil {
				return false, err
			}
			return true, nil
		default:
			return d.other(p, seg, ipVer, proto, ipAt, data, ipLeft), nil
		}
	}
	return false, fmt.Errorf("more than %d nested headers", maxLayers)
}

// other ends the decoding of a packet that is not TCP. The payload of an
// IP header (UDP, ICMP, ...), when nothing but that header came before
// it, is noted for the datagram path — unless the packet's datagram was
// noted already: the outer UDP of a tunnel is its flow, as Wireshark's
// first udp.stream.
func (d *Decoder) other(p *Packet, seg *Segment, ipVer int, proto uint8, ipAt, data []byte, ipLeft int) bool {
	if d.datagrams && ipVer != 0 && ipAt != nil && len(data) == len(ipAt) && d.ip.frame != p.Number {
		d.noteIP(p, seg, uint8(ipVer), proto, data, ipLeft, fragInfo{})
	}
	return false
}

// jumboLength is the Jumbo Payload option's length (RFC 2675) of a
// hop-by-hop header (0 without one).
func jumboLength(h *layers.IPv6HopByHop) int {
	for _, o := range h.Options {
		if o.OptionType == layers.IPv6HopByHopOptionJumbogram && len(o.OptionData) == 4 {
			return int(binary.BigEndian.Uint32(o.OptionData))
		}
	}
	return 0
}

// icmpQuote returns the IP packet an ICMP (or ICMPv6) error message
// quotes: destination unreachable, source quench, redirect, time exceeded
// and parameter problem (ICMPv6: destination unreachable, packet too big,
// time exceeded, parameter problem), after the 8-byte ICMP header.
func icmpQuote(v6 bool, data []byte) ([]byte, bool) {
	if len(data) < 8 {
		return nil, false
	}
	switch t := data[0]; {
	case !v6 && (t == 3 || t == 4 || t == 5 || t == 11 || t == 12), v6 && t >= 1 && t <= 4:
		return data[8:], len(data) > 8
	}
	return nil, false
}

// quotedTCP fills seg from a TCP header quoted in an ICMP error. Wireshark
// gives it a conversation (tcp.stream) when the ports, numbers, flags and
// window were quoted (16 bytes), and no payload length; fewer bytes make
// the packet the ICMP message alone.
func (d *Decoder) quotedTCP(data []byte, p *Packet, seg *Segment, ipVer int) (bool, error) {
	if len(data) < 16 {
		seg.InICMP = false
		return false, nil
	}
	seg.Frame, seg.Time, seg.Interface, seg.WireLen = p.Number, p.Time, int32(p.Interface), p.WireLen
	seg.IPVersion = uint8(ipVer)
	seg.SrcPort, seg.DstPort = binary.BigEndian.Uint16(data), binary.BigEndian.Uint16(data[2:])
	seg.Seq, seg.Ack = binary.BigEndian.Uint32(data[4:]), binary.BigEndian.Uint32(data[8:])
	seg.Flags = Flags(binary.BigEndian.Uint16(data[12:]) & 0x1ff)
	seg.Window = binary.BigEndian.Uint16(data[14:])
	seg.PayloadLen, seg.Captured = 0, 0
	seg.Opt = Options{WScale: -1}
	return true, nil
}

// pppPayload strips a PPP header (with or without HDLC address and
// control bytes, with a one- or two-byte protocol field).
func pppPayload(data []byte) ([]byte, gopacket.LayerType, error) {
	if len(data) >= 2 && data[0] == 0xff && data[1] == 0x03 {
		data = data[2:]
	}
	if len(data) < 1 {
		return nil, 0, errors.New("ppp: truncated header")
	}
	var proto uint16
	if data[0]&1 == 1 { // compressed protocol field
		proto, data = uint16(data[0]), data[1:]
	} else {
		if len(data) < 2 {
			return nil, 0, errors.New("ppp: truncated header")
		}
		proto, data = binary.BigEndian.Uint16(data), data[2:]
	}
	switch proto {
	case 0x0021:
		return data, layers.LayerTypeIPv4, nil
	case 0x0057:
		return data, layers.LayerTypeIPv6, nil
	}
	return data, gopacket.LayerTypeZero, nil
}

// mplsPayload strips an MPLS label stack and guesses the payload from the
// IP version nibble, as Wireshark does by default.
func mplsPayload(data []byte) ([]byte, gopacket.LayerType, error) {
	for {
		if len(data) < 4 {
			return nil, 0, errors.New("mpls: truncated label stack")
		}
		bottom := data[2]&1 == 1
		data = data[4:]
		if bottom {
			break
		}
	}
	if len(data) > 0 {
		switch data[0] >> 4 {
		case 4:
			return data, layers.LayerTypeIPv4, nil
		case 6:
			return data, layers.LayerTypeIPv6, nil
		case 0:
			// An Ethernet pseudowire with its control word (RFC 4448).
			// Wireshark reads Ethernet without one when the 12 bytes
			// look like two known vendors' MAC addresses (its OUI
			// database); tcpviz carries no such database and always
			// takes the control word.
			if len(data) < 4 {
				return nil, 0, errors.New("mpls: truncated control word")
			}
			return data[4:], layers.LayerTypeEthernet, nil
		}
	}
	return data, gopacket.LayerTypeZero, nil
}

// decodeTCP decodes a TCP header by hand rather than with gopacket's
// layers.TCP, which rejects a header whose options were cut by the snapshot
// length (Wireshark still dissects such packets) and allocates for MPTCP
// options. Options are read as far as they were captured.
func (d *Decoder) decodeTCP(data []byte, p *Packet, seg *Segment, ipVer, ipLeft int) error {
	if len(data) < 16 {
		// Wireshark reads the ports, numbers, flags and window (16 bytes)
		// of a header the snapshot length cut: fewer is no TCP header.
		return fmt.Errorf("tcp: truncated header (%d bytes captured)", len(data))
	}
	hl := int(data[12]>>4) * 4
	if hl < 20 {
		return fmt.Errorf("tcp: header length %d is less than 20", hl)
	}
	seg.Frame = p.Number
	seg.Time, seg.NoTime = p.Time, p.NoTime
	seg.Interface = int32(p.Interface)
	seg.WireLen = p.WireLen
	seg.IPVersion = uint8(ipVer)
	seg.SrcPort, seg.DstPort = binary.BigEndian.Uint16(data), binary.BigEndian.Uint16(data[2:])
	seg.Seq, seg.Ack = binary.BigEndian.Uint32(data[4:]), binary.BigEndian.Uint32(data[8:])
	seg.Flags = Flags(binary.BigEndian.Uint16(data[12:]) & 0x1ff)
	seg.Window = binary.BigEndian.Uint16(data[14:])
	if ipLeft < 0 { // no IP length known: use what was captured
		ipLeft = len(data)
	}
	seg.PayloadLen = max(ipLeft-hl, 0)
	seg.Captured = min(max(len(data)-hl, 0), seg.PayloadLen)
	if seg.Captured < seg.PayloadLen {
		d.Stats.HeaderOnly++
	}
	if opt := data[min(20, len(data)):min(hl, len(data))]; len(opt) == 12 && binary.BigEndian.Uint32(opt) == 0x0101080a {
		// parseOptions' common case, without the call.
		seg.Opt = Options{WScale: -1, HasTimestamp: true, TSVal: binary.BigEndian.Uint32(opt[4:]), TSEcr: binary.BigEndian.Uint32(opt[8:])}
	} else {
		parseOptions(&seg.Opt, opt, hl > len(data))
	}
	return nil
}

// parseOptions reads the TCP options tcpviz uses, b those captured; cut
// tells that the capture ended inside the TCP header (the snapshot
// length), so that an option running past b was cut (Options.SACKCut),
// not malformed. A malformed option ends the parse, keeping what was read
// before it.
func parseOptions(o *Options, b []byte, cut bool) {
	// The options of nearly every segment of a connection with timestamps:
	// NOP, NOP, timestamps; inline, the rest in a call.
	if len(b) == 12 && binary.BigEndian.Uint32(b) == 0x0101080a {
		*o = Options{WScale: -1, HasTimestamp: true, TSVal: binary.BigEndian.Uint32(b[4:]), TSEcr: binary.BigEndian.Uint32(b[8:])}
		return
	}
	parseAnyOptions(o, b, cut)
}

// readSACK reads a SACK option's blocks from v, its bytes after the kind
// and length; of a cut one (Options.SACKCut) the bytes of the block after
// the last whole one too (Options.SACKPart).
func readSACK(o *Options, v []byte) {
	for len(v) >= 8 && int(o.NSACK) < len(o.SACK) {
		o.SACK[o.NSACK] = SACKBlock{binary.BigEndian.Uint32(v), binary.BigEndian.Uint32(v[4:])}
		o.NSACK++
		v = v[8:]
	}
	if !o.SACKCut || len(v) == 0 || int(o.NSACK) == len(o.SACK) {
		return
	}
	var part [8]byte
	o.SACKPart = uint8(copy(part[:], v))
	o.SACK[o.NSACK] = SACKBlock{binary.BigEndian.Uint32(part[:]), binary.BigEndian.Uint32(part[4:])}
}

// parseAnyOptions is parseOptions of any options.
func parseAnyOptions(o *Options, b []byte, cut bool) {
	*o = Options{WScale: -1}
	for len(b) > 0 {
		kind := b[0]
		if kind == 0 { // end of option list
			return
		}
		if kind == 1 { // no-operation
			b = b[1:]
			continue
		}
		if len(b) < 2 || int(b[1]) < 2 || int(b[1]) > len(b) {
			if o.SACKCut = cut && kind == 5 && len(b) >= 2 && int(b[1]) > len(b); o.SACKCut {
				readSACK(o, b[2:])
			}
			return
		}
		v := b[2:b[1]]
		b = b[b[1]:]
		switch kind {
		case 2:
			if len(v) == 2 {
				o.MSS = binary.BigEndian.Uint16(v)
			}
		case 3:
			if len(v) == 1 {
				o.WScale = int8(min(v[0], 14))
			}
		case 4:
			o.SACKPermitted = true
		case 5:
			readSACK(o, v)
		case 8:
			if len(v) == 8 {
				o.HasTimestamp = true
				o.TSVal, o.TSEcr = binary.BigEndian.Uint32(v), binary.BigEndian.Uint32(v[4:])
			}
		}
	}
}
