package reassembly

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// Encapsulations and link types gopacket 1.7.7 has no zero-allocation
// decoder for (or none at all: L2TPv2, ERSPAN III, NFLOG, Cisco HDLC),
// read by hand as Wireshark 4.0 dissects them with its default
// preferences: UDP tunnels by well-known port, ERSPAN in GRE, 802.2
// LLC/SNAP, 802.11 data frames (alone or behind radiotap), NFLOG's
// payload attribute, Cisco HDLC's EtherType. Each helper returns the
// payload and the layer it holds (gopacket.LayerTypeZero: nothing tcpviz
// reads), or an error naming the header for one that was cut short.

// Our own layer types for the link layers of this file.
var (
	layerTypeCHDLC    = gopacket.RegisterLayerType(7004, gopacket.LayerTypeMetadata{Name: "tcpviz Cisco HDLC"})
	layerTypeNFLOG    = gopacket.RegisterLayerType(7005, gopacket.LayerTypeMetadata{Name: "tcpviz NFLOG"})
	layerTypeDot11    = gopacket.RegisterLayerType(7006, gopacket.LayerTypeMetadata{Name: "tcpviz 802.11"})
	layerTypeRadiotap = gopacket.RegisterLayerType(7007, gopacket.LayerTypeMetadata{Name: "tcpviz radiotap"})
)

// etherTypeLayer is the layer an EtherType announces, with the VLAN
// TPIDs Wireshark decodes beyond gopacket's (0x9100, its default QinQ
// EtherType preference).
func etherTypeLayer(t layers.EthernetType) gopacket.LayerType {
	if t == 0x9100 {
		return layers.LayerTypeDot1Q
	}
	return t.LayerType()
}

// ipVersionLayer is the IP layer a payload's first nibble says.
func ipVersionLayer(data []byte) gopacket.LayerType {
	if len(data) > 0 {
		switch data[0] >> 4 {
		case 4:
			return layers.LayerTypeIPv4
		case 6:
			return layers.LayerTypeIPv6
		}
	}
	return gopacket.LayerTypeZero
}

// llcPayload strips an 802.2 LLC header and, for SNAP (DSAP and SSAP
// 0xaa), the SNAP header whose EtherType says what follows.
func llcPayload(data []byte) ([]byte, gopacket.LayerType, error) {
	if len(data) < 3 {
		return nil, 0, errors.New("llc: truncated header")
	}
	dsap, ssap, ctl := data[0], data[1], data[2]
	n := 3
	if ctl&3 != 3 { // I and S frames have a two-byte control field
		n = 4
	}
	if len(data) < n {
		return nil, 0, errors.New("llc: truncated header")
	}
	if dsap != 0xaa || ssap&0xfe != 0xaa || n != 3 {
		if dsap == 0x06 && ssap&0xfe == 0x06 { // the IP SAP
			return data[n:], layers.LayerTypeIPv4, nil
		}
		return nil, gopacket.LayerTypeZero, nil
	}
	if len(data) < 8 {
		return nil, 0, errors.New("snap: truncated header")
	}
	if data[3]|data[4]|data[5] != 0 { // an OUI other than the EtherType one
		return nil, gopacket.LayerTypeZero, nil
	}
	return data[8:], etherTypeLayer(layers.EthernetType(binary.BigEndian.Uint16(data[6:8]))), nil
}

// chdlcPayload strips a Cisco HDLC header: address, control, EtherType.
func chdlcPayload(data []byte) ([]byte, gopacket.LayerType, error) {
	if len(data) < 4 {
		return nil, 0, errors.New("cisco hdlc: truncated header")
	}
	return data[4:], etherTypeLayer(layers.EthernetType(binary.BigEndian.Uint16(data[2:4]))), nil
}

// nflogPayload finds the packet in an NFLOG record: a 4-byte header
// (address family, version, resource id), then attributes, each a
// little-endian length (header included) and type, padded to 4 bytes;
// type 9 holds the packet, from its network header — the last such
// attribute, as Wireshark takes it. An attribute running past the record
// is a malformed one, unless the snapshot length cut the record (cut);
// an address family other than IPv4's and IPv6's carries data only.
func nflogPayload(data []byte, cut bool) ([]byte, gopacket.LayerType, error) {
	if len(data) < 4 {
		return nil, 0, errors.New("nflog: truncated header")
	}
	family := data[0]
	rest := data[4:]
	var payload []byte
	found := false
	for len(rest) >= 4 {
		n := int(binary.LittleEndian.Uint16(rest))
		typ := binary.LittleEndian.Uint16(rest[2:]) & 0x7fff
		if n < 4 {
			return nil, 0, fmt.Errorf("nflog: attribute length %d", n)
		}
		if n > len(rest) {
			if typ != 9 || !cut {
				return nil, 0, errors.New("nflog: truncated attribute")
			}
			n = len(rest) // the payload, cut by the snapshot length
		}
		if typ == 9 {
			payload, found = rest[4:n], true
		}
		rest = rest[min(len(rest), (n+3)&^3):]
	}
	if !found {
		return nil, gopacket.LayerTypeZero, nil
	}
	switch family {
	case 2: // AF_INET
		return payload, layers.LayerTypeIPv4, nil
	case 10: // AF_INET6
		return payload, layers.LayerTypeIPv6, nil
	}
	return payload, gopacket.LayerTypeZero, nil
}

// dot11Payload strips an 802.11 data frame's MAC header: the frame
// control, duration, three addresses and sequence control (24 bytes),
// a fourth address between access points, the QoS control of QoS data
// frames and the HT control when the order bit says so. Other frames,
// null data frames and protected (encrypted) frames carry nothing
// tcpviz reads. The payload begins with LLC/SNAP.
func dot11Payload(data []byte, pad bool) ([]byte, gopacket.LayerType, error) {
	if len(data) < 2 {
		return nil, 0, errors.New("802.11: truncated header")
	}
	fc0, fc1 := data[0], data[1]
	typ, sub := fc0>>2&3, fc0>>4
	if typ != 2 || sub&4 != 0 || fc1&0x40 != 0 { // not data, no data, protected
		return nil, gopacket.LayerTypeZero, nil
	}
	n := 24
	if fc1&3 == 3 {
		n += 6
	}
	if sub&8 != 0 {
		n += 2
		if fc1&0x80 != 0 {
			n += 4
		}
	}
	if pad { // radiotap's data-pad flag: the header padded to 4 bytes
		n = (n + 3) &^ 3
	}
	if len(data) < n {
		return nil, 0, errors.New("802.11: truncated header")
	}
	return data[n:], layers.LayerTypeLLC, nil
}

// radiotapPayload strips a radiotap header, and says whether its flags
// field announces an FCS at the end of the 802.11 frame, and padding
// after the 802.11 header (data pad).
func radiotapPayload(data []byte) (payload []byte, fcs, pad bool, err error) {
	if len(data) < 8 {
		return nil, false, false, errors.New("radiotap: truncated header")
	}
	n := int(binary.LittleEndian.Uint16(data[2:4]))
	if n < 8 || n > len(data) {
		return nil, false, false, fmt.Errorf("radiotap: header length %d", n)
	}
	// The present words (bit 31: another follows), then the fields, each
	// aligned to its size: TSFT (bit 0, 8 bytes), flags (bit 1, 1 byte).
	present := binary.LittleEndian.Uint32(data[4:8])
	off := 8
	for w := present; w&(1<<31) != 0 && off+4 <= n; off += 4 {
		w = binary.LittleEndian.Uint32(data[off:])
	}
	if present&1 != 0 {
		off = (off+7)&^7 + 8
	}
	if present&2 != 0 && off < n {
		fcs, pad = data[off]&0x10 != 0, data[off]&0x20 != 0
	}
	return data[n:], fcs, pad, nil
}

// UDP ports Wireshark decodes as tunnels by default.
const (
	portVXLAN  = 4789
	portGeneve = 6081
	portGTPU   = 2152
	portL2TP   = 1701
)

// udpTunnel decodes the tunnel a UDP header announces, trying the lower
// port first as Wireshark does: its payload and layer, or LayerTypeZero
// when the datagram is not a tunnel tcpviz reads. end is where the UDP
// datagram ends on the wire, relative to data (its length field).
func udpTunnel(data []byte) (payload []byte, next gopacket.LayerType, end int, err error) {
	if len(data) < 8 {
		return nil, gopacket.LayerTypeZero, 0, nil
	}
	sp, dp := binary.BigEndian.Uint16(data), binary.BigEndian.Uint16(data[2:])
	end = int(binary.BigEndian.Uint16(data[4:]))
	body := data[8:]
	for _, port := range [2]uint16{min(sp, dp), max(sp, dp)} {
		switch port {
		case portVXLAN:
			if len(body) < 8 {
				return nil, 0, 0, errors.New("vxlan: truncated header")
			}
			return body[8:], layers.LayerTypeEthernet, end, nil
		case portGeneve:
			if len(body) < 8 {
				return nil, 0, 0, errors.New("geneve: truncated header")
			}
			n := 8 + int(body[0]&0x3f)*4
			if len(body) < n {
				return nil, 0, 0, errors.New("geneve: truncated options")
			}
			proto := layers.EthernetType(binary.BigEndian.Uint16(body[2:4]))
			if proto == 0x6558 { // transparent Ethernet bridging
				return body[n:], layers.LayerTypeEthernet, end, nil
			}
			return body[n:], etherTypeLayer(proto), end, nil
		case portGTPU:
			p, next, err := gtpuPayload(body)
			return p, next, end, err
		case portL2TP:
			p, next, err := l2tpPayload(body)
			return p, next, end, err
		}
	}
	return nil, gopacket.LayerTypeZero, 0, nil
}

// gtpuPayload strips a GTPv1-U header (with its optional sequence
// number, N-PDU number and extension headers) from a G-PDU, whose payload
// is an IP packet.
func gtpuPayload(b []byte) ([]byte, gopacket.LayerType, error) {
	if len(b) < 8 {
		return nil, 0, errors.New("gtp-u: truncated header")
	}
	if b[0]>>5 != 1 || b[0]&0x10 == 0 || b[1] != 0xff { // version 1, GTP (not GTP'), G-PDU
		return nil, gopacket.LayerTypeZero, nil
	}
	length := 8 + int(binary.BigEndian.Uint16(b[2:4])) // the message, after the mandatory header
	n := 8
	if b[0]&7 != 0 { // E, S or PN: sequence number, N-PDU number, next extension type
		if len(b) < 12 {
			return nil, 0, errors.New("gtp-u: truncated header")
		}
		n = 12
		for next := b[11]; b[0]&4 != 0 && next != 0; {
			if len(b) < n+1 || b[n] == 0 || len(b) < n+int(b[n])*4 {
				return nil, 0, errors.New("gtp-u: truncated extension header")
			}
			n += int(b[n]) * 4
			next = b[n-1]
		}
	}
	if length < n { // the length field ends inside the headers: Wireshark reads no payload
		return nil, gopacket.LayerTypeZero, nil
	}
	b = b[:min(len(b), length)]
	return b[n:], ipVersionLayer(b[n:]), nil
}

// l2tpPayload strips an L2TPv2 data message header; the payload is PPP.
func l2tpPayload(b []byte) ([]byte, gopacket.LayerType, error) {
	if len(b) < 6 {
		return nil, 0, errors.New("l2tp: truncated header")
	}
	flags := binary.BigEndian.Uint16(b)
	if flags&0x8000 != 0 || flags&0xf != 2 { // a control message, or not version 2
		return nil, gopacket.LayerTypeZero, nil
	}
	n := 2
	length := -1
	if flags&0x4000 != 0 { // length: of the whole message
		length = int(binary.BigEndian.Uint16(b[2:4]))
		n += 2
	}
	n += 4                 // tunnel and session id
	if flags&0x0800 != 0 { // Ns, Nr
		n += 4
	}
	if flags&0x0200 != 0 { // offset size, then padding
		if len(b) < n+2 {
			return nil, 0, errors.New("l2tp: truncated header")
		}
		n += 2 + int(binary.BigEndian.Uint16(b[n:]))
	}
	if len(b) < n {
		return nil, 0, errors.New("l2tp: truncated header")
	}
	if length >= 0 {
		if length < n { // the length field ends inside the header: Wireshark reads no payload
			return nil, gopacket.LayerTypeZero, nil
		}
		b = b[:min(len(b), length)]
	}
	return b[n:], layerTypePPP, nil
}

// erspanPayload strips an ERSPAN header from a GRE payload of protocol
// 0x88be (type II with a GRE sequence number, type I without) or 0x22eb
// (type III, with its optional platform subheader); Ethernet follows.
func erspanPayload(proto layers.EthernetType, seq bool, b []byte) ([]byte, error) {
	n := 0
	switch {
	case proto == 0x88be && seq:
		n = 8
	case proto == 0x22eb:
		n = 12
		if len(b) >= 12 && b[11]&1 != 0 {
			n += 8
		}
	}
	if len(b) < n {
		return nil, errors.New("erspan: truncated header")
	}
	return b[n:], nil
}

// decodeIPv4 is gopacket's IPv4.DecodeFromBytes (the same checks and
// messages, the same fields) without its reading of the options, which
// rejects a packet whose options are malformed: Wireshark stops reading
// options there and dissects the payload. Only an option too short for
// what Wireshark's dissector of it reads makes Wireshark give up on the
// packet (see ipv4OptionsShort); then decodeIPv4 returns that error.
func decodeIPv4(ip *layers.IPv4, data []byte) error {
	if len(data) < 20 {
		return fmt.Errorf("Invalid ip4 header. Length %d less than 20", len(data))
	}
	ip.Length = binary.BigEndian.Uint16(data[2:4])
	ip.IHL = data[0] & 0x0f
	length := int(ip.Length)
	if length == 0 { // TSO/GSO: the frame's length
		length = len(data)
		ip.Length = uint16(min(length, 0xffff))
	}
	switch {
	case length < 20:
		return fmt.Errorf("Invalid (too small) IP length (%d < 20)", length)
	case ip.IHL < 5:
		return fmt.Errorf("Invalid (too small) IP header length (%d < 5)", ip.IHL)
	case int(ip.IHL)*4 > length:
		return fmt.Errorf("Invalid IP header length > IP length (%d > %d)", ip.IHL, length)
	}
	if len(data) > length {
		data = data[:length]
	} else if int(ip.IHL)*4 > len(data) {
		return errors.New("Not all IP header bytes available")
	}
	hl := int(ip.IHL) * 4
	if err := ipv4OptionsShort(data[20:hl]); err != nil {
		return err
	}
	ip.Options, ip.Padding = ip.Options[:0], nil
	ip.Contents, ip.Payload = data[:hl], data[hl:]
	ff := binary.BigEndian.Uint16(data[6:8])
	ip.Version, ip.TOS = data[0]>>4, data[1]
	ip.Id = binary.BigEndian.Uint16(data[4:6])
	ip.Flags, ip.FragOffset = layers.IPv4Flag(ff>>13), ff&0x1fff
	ip.TTL, ip.Protocol = data[8], layers.IPProtocol(data[9])
	ip.Checksum = binary.BigEndian.Uint16(data[10:12])
	ip.SrcIP, ip.DstIP = data[12:16], data[16:20]
	return nil
}

// ipv4OptionsShort walks IPv4 options as Wireshark 4.0 does: a length
// below 2 or past the header ends the walk (and the payload is still
// read); an option whose length is below what Wireshark's dissector of it
// reads (record route, source routes and security: 3; timestamp and the
// 4-byte options: 4; quick-start 8; traceroute 12) is an error: Wireshark
// then dissects nothing past the IP header.
func ipv4OptionsShort(opts []byte) error {
	for len(opts) > 0 {
		typ := opts[0]
		if typ == 0 { // end of options
			return nil
		}
		if typ == 1 { // no operation
			opts = opts[1:]
			continue
		}
		if len(opts) < 2 || opts[1] < 2 || int(opts[1]) > len(opts) {
			return nil
		}
		n := int(opts[1])
		need := 0
		switch typ {
		case 7, 130, 131, 133, 137: // record route, security, loose and strict source route, extended security
			need = 3
		case 68, 11, 12, 136, 148: // timestamp, MTU probe and reply, stream id, router alert
			need = 4
		case 25: // quick-start
			need = 8
		case 82: // traceroute
			need = 12
		}
		if n < need {
			return fmt.Errorf("option %d: length %d is shorter than the option (%d)", typ, n, need)
		}
		opts = opts[n:]
	}
	return nil
}
