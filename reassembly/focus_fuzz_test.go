package reassembly

import (
	"bytes"
	"encoding/binary"
	"net/netip"
	"testing"

	"github.com/gopacket/gopacket/layers"
)

// fuzzTuples are the 4-tuples (client, server) of the captures
// fuzzCapture builds: connections that share addresses but not ports,
// ports but not addresses, addresses the other way round, IPv6 ones, and
// IPv4-mapped IPv6 addresses equal in their low bytes to IPv4 ones.
var fuzzTuples = [8][2]netip.AddrPort{
	{netip.MustParseAddrPort("10.0.0.1:40000"), netip.MustParseAddrPort("10.0.0.2:80")},
	{netip.MustParseAddrPort("10.0.0.1:40001"), netip.MustParseAddrPort("10.0.0.2:80")},
	{netip.MustParseAddrPort("10.0.0.1:40000"), netip.MustParseAddrPort("10.0.0.2:443")},
	{netip.MustParseAddrPort("10.0.0.2:40000"), netip.MustParseAddrPort("10.0.0.1:80")},
	{netip.MustParseAddrPort("[2001:db8::1]:40000"), netip.MustParseAddrPort("[2001:db8::2]:80")},
	{netip.MustParseAddrPort("[2001:db8::1]:40001"), netip.MustParseAddrPort("[2001:db8::2]:80")},
	{netip.MustParseAddrPort("[2001:db8::1]:40000"), netip.MustParseAddrPort("[::ffff:10.0.0.2]:80")},
	{netip.MustParseAddrPort("[::ffff:10.0.0.1]:40000"), netip.MustParseAddrPort("[::ffff:10.0.0.2]:80")},
}

// fuzzLinks are the link types of fuzzed captures, by the first byte.
var fuzzLinks = [...]layers.LinkType{layers.LinkTypeEthernet, layers.LinkTypeRaw, layers.LinkTypeLinuxSLL, layers.LinkTypeLinuxSLL2, layers.LinkTypeNull}

// fuzzPacketLen is how many fuzzed bytes describe one packet.
const fuzzPacketLen = 8

// Encapsulation variants of a fuzzed packet (the high nibble of its first
// byte). IPv4 and IPv6 ones share a number.
const (
	fvPlain      = iota
	fvVLAN       // one 802.1Q tag (Ethernet)
	fvOptions    // IPv4 options; IPv6 hop-by-hop header
	fvLenZero    // IPv4 total length 0; IPv6 destination options header
	fvMoreFrags  // IPv4 more fragments; IPv6 fragment header
	fvFragOffset // IPv4 fragment offset; IPv6 routing header
	fvLenShort   // IP length ending inside the TCP header or payload
	fvLenLong    // IP length past the frame
	fvQinQ       // two 802.1Q tags (Ethernet)
	fvWrongType  // the link layer names the other IP version
	fvNotTCP     // IP protocol UDP
	fvTCPShort   // TCP data offset below 5
	fvIPv6Jumbo  // IPv6 payload length 0 (IPv4: IHL 4)
)

// fuzzCapture builds a pcap from fuzzed bytes: the first chooses the link
// type, then every fuzzPacketLen bytes make a packet of one of fuzzTuples
// (byte 0: tuple, direction, encapsulation variant; 1: TCP flags; 2, 3:
// sequence and acknowledgement numbers, 255 a new ISN; 4: payload length;
// 5: TCP options, snap length and time since the previous packet; 6, 7:
// a byte of the frame to flip, and how).
func fuzzCapture(data []byte) []byte {
	le, be := binary.LittleEndian, binary.BigEndian
	if len(data) == 0 {
		data = []byte{0}
	}
	lt := fuzzLinks[int(data[0])%len(fuzzLinks)]
	data = data[1:]
	out := make([]byte, 24, 4096)
	le.PutUint32(out, 0xa1b2c3d4)
	le.PutUint16(out[4:], 2)
	le.PutUint16(out[6:], 4)
	le.PutUint32(out[16:], 65535)
	le.PutUint32(out[20:], uint32(lt))
	var isn [len(fuzzTuples)][2]uint32
	for i := range isn {
		isn[i] = [2]uint32{uint32(i+1) * 1000, 0xfffff000 - uint32(i)*1000}
	}
	us := int64(0)
	for n := 0; len(data) >= fuzzPacketLen && n < 64; n++ {
		b := data[:fuzzPacketLen]
		data = data[fuzzPacketLen:]
		tuple, dir, variant := int(b[0]&7), int(b[0]>>3&1), int(b[0]>>4)
		src, dst := fuzzTuples[tuple][dir], fuzzTuples[tuple][1-dir]
		if b[2] == 255 {
			isn[tuple][dir] += 1 << 20
		}
		if b[3] == 255 {
			isn[tuple][1-dir] += 1 << 20
		}
		seq, ack := isn[tuple][dir]+uint32(b[2])*100, isn[tuple][1-dir]+uint32(b[3])*100

		// TCP header and payload.
		var opts []byte
		switch b[5] & 3 {
		case 1:
			opts = []byte{2, 4, 5, 0xb4, 1, 3, 3, 7, 4, 2, 1, 1}
		case 2:
			opts = []byte{1, 1, 8, 10, 0, 0, 1, b[2], 0, 0, 2, b[3]}
		case 3:
			opts = []byte{1, 1, 5, 10, 0, 0, 0x10, 0, 0, 0, 0x20, 0}
		}
		tcp := make([]byte, 20+len(opts)+int(b[4]))
		be.PutUint16(tcp, src.Port())
		be.PutUint16(tcp[2:], dst.Port())
		be.PutUint32(tcp[4:], seq)
		be.PutUint32(tcp[8:], ack)
		hl := byte(5 + len(opts)/4)
		if variant == fvTCPShort {
			hl = 4
		}
		tcp[12], tcp[13] = hl<<4, b[1]
		be.PutUint16(tcp[14:], 64240)
		copy(tcp[20:], opts)

		// IP header.
		v4 := src.Addr().Is4()
		proto := byte(layers.IPProtocolTCP)
		if variant == fvNotTCP {
			proto = byte(layers.IPProtocolUDP)
		}
		var ip []byte
		if v4 {
			ihl := 5
			if variant == fvOptions {
				ihl = 6
			}
			ip = make([]byte, ihl*4, ihl*4+len(tcp))
			ip[0] = 0x40 | byte(ihl)
			if variant == fvIPv6Jumbo {
				ip[0] = 0x44
			}
			total := len(ip) + len(tcp)
			switch variant {
			case fvLenZero:
				total = 0
			case fvLenShort:
				total = len(ip) + int(b[4])%(len(tcp)+1)
			case fvLenLong:
				total += 100
			}
			be.PutUint16(ip[2:], uint16(total))
			be.PutUint16(ip[4:], uint16(n))
			switch variant {
			case fvMoreFrags:
				be.PutUint16(ip[6:], 0x2000)
			case fvFragOffset:
				be.PutUint16(ip[6:], uint16(b[3])&0x1fff)
			default:
				be.PutUint16(ip[6:], 0x4000)
			}
			ip[8], ip[9] = 64, proto
			a, c := src.Addr().As4(), dst.Addr().As4()
			copy(ip[12:], a[:])
			copy(ip[16:], c[:])
			if ihl == 6 {
				ip[20], ip[21], ip[22], ip[23] = 1, 1, 1, 0
			}
		} else {
			var ext []byte
			next := proto
			switch variant {
			case fvOptions:
				ext, next = []byte{proto, 0, 1, 4, 0, 0, 0, 0}, 0
			case fvLenZero:
				ext, next = []byte{proto, 0, 1, 4, 0, 0, 0, 0}, 60
			case fvMoreFrags:
				ext, next = []byte{proto, 0, 0, 1, 0, 0, 0, b[3]}, 44
			case fvFragOffset:
				ext, next = []byte{proto, 0, 0, 0, 0, 0, 0, 0}, 43
			}
			ip = make([]byte, 40, 40+len(ext)+len(tcp))
			ip[0] = 0x60
			length := len(ext) + len(tcp)
			switch variant {
			case fvIPv6Jumbo:
				length = 0
			case fvLenShort:
				length = len(ext) + int(b[4])%(len(tcp)+1)
			case fvLenLong:
				length += 100
			}
			be.PutUint16(ip[4:], uint16(length))
			ip[6], ip[7] = next, 64
			a, c := src.Addr().As16(), dst.Addr().As16()
			copy(ip[8:], a[:])
			copy(ip[24:], c[:])
			ip = append(ip, ext...)
		}
		ip = append(ip, tcp...)

		// Link layer.
		et := uint16(layers.EthernetTypeIPv4)
		if !v4 {
			et = uint16(layers.EthernetTypeIPv6)
		}
		if variant == fvWrongType {
			et ^= uint16(layers.EthernetTypeIPv4) ^ uint16(layers.EthernetTypeIPv6)
		}
		var frame []byte
		switch lt {
		case layers.LinkTypeEthernet:
			frame = []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}
			switch variant {
			case fvVLAN:
				frame = append(frame, 0x81, 0, 0, 5)
			case fvQinQ:
				frame = append(frame, 0x81, 0, 0, 5, 0x81, 0, 0, 6)
			}
			frame = be.AppendUint16(frame, et)
		case layers.LinkTypeRaw:
		case layers.LinkTypeLinuxSLL:
			frame = be.AppendUint16([]byte{0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0}, et)
		case layers.LinkTypeLinuxSLL2:
			frame = be.AppendUint16(nil, et)
			frame = append(frame, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0)
		case layers.LinkTypeNull:
			family := uint32(2)
			if v4 == (variant == fvWrongType) {
				family = 30
			}
			frame = le.AppendUint32(nil, family)
		}
		frame = append(frame, ip...)
		if b[6] != 0 {
			frame[int(b[6]-1)%len(frame)] ^= b[7]
		}

		wire := len(frame)
		if snap := int(b[5] >> 2 & 7); snap != 0 {
			frame = frame[:min(len(frame), snap*10)]
		}
		us += [8]int64{0, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}[b[5]>>5]
		var rec [16]byte
		le.PutUint32(rec[0:], uint32(1_700_000_000+us/1e6))
		le.PutUint32(rec[4:], uint32(us%1e6))
		le.PutUint32(rec[8:], uint32(len(frame)))
		le.PutUint32(rec[12:], uint32(wire))
		out = append(append(out, rec[:]...), frame...)
	}
	return out
}

// fuzzPacket is one packet for a fuzz seed: tuple, direction, variant,
// flags, sequence and acknowledgement steps, payload, options/snap/time,
// and no flipped byte.
func fuzzPacket(tuple, dir, variant int, flags Flags, seq, ack, payload, misc byte) []byte {
	return []byte{byte(tuple) | byte(dir)<<3 | byte(variant)<<4, byte(flags), seq, ack, payload, misc, 0, 0}
}

// fuzzConn is the packets of a short connection of tuple in variant:
// handshake, data each way, close.
func fuzzConn(tuple, variant int) []byte {
	var b []byte
	for _, p := range [][]byte{
		fuzzPacket(tuple, 0, variant, SYN, 0, 0, 0, 1|1<<5),
		fuzzPacket(tuple, 1, variant, SYN|ACK, 0, 0, 0, 1|1<<5),
		fuzzPacket(tuple, 0, variant, ACK, 1, 1, 0, 2|1<<5),
		fuzzPacket(tuple, 0, variant, ACK|PSH, 1, 1, 100, 2|1<<5),
		fuzzPacket(tuple, 1, variant, ACK, 1, 2, 0, 3|1<<5),
		fuzzPacket(tuple, 0, variant, FIN|ACK, 2, 1, 0, 2|1<<5),
		fuzzPacket(tuple, 1, variant, FIN|ACK, 1, 3, 0, 2|1<<5),
	} {
		b = append(b, p...)
	}
	return b
}

// FuzzFocus builds small captures of a few connections with varied and
// damaged headers (fuzzCapture) and requires of each connection the whole
// scan finds that a scan with its Focus yields the same segments and Conn
// (scanFocus), and of every packet that Focus.skip passes over none that
// the general decoder (gopacket's path) makes a segment of that focus's
// connection.
func FuzzFocus(f *testing.F) {
	for lt := range fuzzLinks {
		for _, variant := range []int{fvPlain, fvVLAN, fvOptions, fvLenZero, fvMoreFrags, fvLenShort, fvIPv6Jumbo} {
			var b []byte
			for _, tuple := range []int{0, 1, 3, 4, 6, 7} {
				b = append(b, fuzzConn(tuple, variant)...)
			}
			f.Add(append([]byte{byte(lt)}, b...))
		}
		// Interleaved connections, a port reused after the close.
		a, c := fuzzConn(0, fvPlain), fuzzConn(7, fvPlain)
		var b []byte
		for i := 0; i < len(a); i += fuzzPacketLen {
			b = append(append(b, a[i:i+fuzzPacketLen]...), c[i:i+fuzzPacketLen]...)
		}
		b = append(b, fuzzPacket(0, 0, fvPlain, SYN, 255, 0, 0, 6<<5)...)
		b = append(b, fuzzPacket(0, 1, fvPlain, SYN|ACK, 255, 1, 0, 1<<5)...)
		b = append(b, fuzzPacket(0, 0, fvPlain, ACK, 1, 1, 50, 1<<5|3<<2)...)
		f.Add(append([]byte{byte(lt)}, b...))
	}
	f.Fuzz(checkFocus)
}

// checkFocus is FuzzFocus's check of one input.
func checkFocus(t *testing.T, data []byte) {
	capture := fuzzCapture(data)
	diffs, _, _ := scanFocus(t, capture, 1<<20, nil)
	for _, d := range diffs {
		t.Error(d)
	}
	// skip is checked whether or not the whole scan allows a Focus: it
	// looks at one packet alone.
	_, conns, err := scanAll(t, capture)
	if err != nil {
		t.Fatal(err)
	}
	var focuses []*focus
	for _, c := range conns {
		if c != nil {
			focuses = append(focuses, newFocus(FocusOf(c)))
		}
	}
	r, err := NewReader(bytes.NewReader(capture))
	if err != nil {
		t.Fatal(err)
	}
	fast, slow := &Decoder{}, &Decoder{noFast: true}
	for r.Next() {
		p := r.Packet()
		if _, err := decodeBothWays(p, fast, slow); err != nil {
			t.Fatalf("packet %d: %v", p.Number, err)
		}
		var seg Segment
		ok, _ := (&Decoder{noFast: true}).Decode(p, &seg)
		if ok {
			// Its own connection's focus, either way round, reads it.
			for _, fc := range []Focus{{Client: seg.SrcAddrPort(), Server: seg.DstAddrPort()}, {Client: seg.DstAddrPort(), Server: seg.SrcAddrPort()}} {
				if newFocus(fc).skip(p) {
					t.Fatalf("packet %d, a segment %v → %v: skipped by its own focus", p.Number, fc.Client, fc.Server)
				}
			}
		}
		for _, fc := range focuses {
			if fc.skip(p) && ok && fc.has(&seg) {
				t.Fatalf("packet %d: skipped by the focus of stream %d, yet of it", p.Number, fc.Stream)
			}
		}
	}
}
