package reassembly

import (
	"encoding/binary"
	"net/netip"

	"github.com/gopacket/gopacket/layers"
)

// decodeFast decodes the encapsulations nearly every capture holds by
// hand: Ethernet (with at most one 802.1Q tag), Linux SLL and SLL2, or raw
// IP; then IPv4 without options or IPv6 without extension headers; then
// TCP. It reports handled=false, having changed nothing, for anything else
// — other link or network types, IP options, extension headers, fragments,
// and every header the general decoder would reject — and decode then
// starts over with gopacket's layers. When it handles a packet, the result
// (segment, error, counts) is the general decoder's exactly: the
// differential test and fuzz target in fastdecode_test.go hold it to that.
func (d *Decoder) decodeFast(p *Packet, seg *Segment) (handled bool, err error) {
	ip, off, version := fastIP(p)
	switch version {
	case 4:
		// Version 4, header length 20 (no options).
		if len(ip) < 20 || ip[0] != 0x45 || ip[9] != uint8(layers.IPProtocolTCP) {
			return false, nil
		}
		if ff := binary.BigEndian.Uint16(ip[6:]); ff&0x3fff != 0 { // more fragments, or an offset
			return false, nil
		}
		total := int(binary.BigEndian.Uint16(ip[2:]))
		length := total
		if total == 0 {
			length = len(ip)
		}
		if length < 20 {
			return false, nil
		}
		// As in decode: what follows the header on the wire.
		ipLeft := p.WireLen - off - 20
		if total == 0 {
			d.Stats.SuperSegments++
		} else {
			ipLeft = min(total-20, ipLeft)
		}
		seg.Src = netip.AddrFrom4([4]byte(ip[12:16]))
		seg.Dst = netip.AddrFrom4([4]byte(ip[16:20]))
		seg.TTL, seg.IPID = ip[8], binary.BigEndian.Uint16(ip[4:])
		return true, d.decodeTCP(ip[20:min(length, len(ip))], p, seg, 4, ipLeft)
	case 6:
		if len(ip) < 40 || ip[0]>>4 != 6 || ip[6] != uint8(layers.IPProtocolTCP) {
			return false, nil
		}
		length := int(binary.BigEndian.Uint16(ip[4:]))
		if length == 0 { // a jumbogram needs a hop-by-hop header: not ours
			return false, nil
		}
		ipLeft := min(length, p.WireLen-off-40)
		seg.Src = netip.AddrFrom16([16]byte(ip[8:24]))
		seg.Dst = netip.AddrFrom16([16]byte(ip[24:40]))
		seg.TTL, seg.IPID = ip[7], 0
		return true, d.decodeTCP(ip[40:min(40+length, len(ip))], p, seg, 6, ipLeft)
	}
	return false, nil
}

// fastIP finds the IP header of a packet of the link types decodeFast
// handles: the header and all after it, where it starts, and its version
// (0: not IP, or not a link type of the fast path).
func fastIP(p *Packet) (ip []byte, off, version int) {
	data := p.Data
	switch p.LinkType {
	case layers.LinkTypeEthernet:
		if len(data) < 14 {
			return nil, 0, 0
		}
		et := binary.BigEndian.Uint16(data[12:])
		off = 14
		if et == uint16(layers.EthernetTypeDot1Q) {
			if len(data) < 18 {
				return nil, 0, 0
			}
			et, off = binary.BigEndian.Uint16(data[16:]), 18
		}
		version = ipVersionOf(et)
	case layers.LinkTypeLinuxSLL:
		if len(data) < 16 || binary.BigEndian.Uint16(data[4:]) > 8 {
			return nil, 0, 0
		}
		version, off = ipVersionOf(binary.BigEndian.Uint16(data[14:])), 16
	case layers.LinkTypeLinuxSLL2:
		if len(data) < 20 || data[11] > 8 {
			return nil, 0, 0
		}
		switch layers.ARPHardwareType(binary.BigEndian.Uint16(data[8:])) {
		case layers.ARPHardwareTypeFRAD, layers.ARPHardwareTypeDot11Radiotap, layers.ARPHardwareTypeIPGRE:
			return nil, 0, 0
		}
		version, off = ipVersionOf(binary.BigEndian.Uint16(data[0:])), 20
	case layers.LinkTypeRaw, layers.LinkTypeIPv4, layers.LinkTypeIPv6, 12, 14:
		if len(data) < 1 {
			return nil, 0, 0
		}
		version = int(data[0] >> 4)
	default:
		return nil, 0, 0
	}
	return data[off:], off, version
}

// ipVersionOf maps an EtherType to the IP version it carries, or 0.
func ipVersionOf(et uint16) int {
	switch layers.EthernetType(et) {
	case layers.EthernetTypeIPv4:
		return 4
	case layers.EthernetTypeIPv6:
		return 6
	}
	return 0
}
