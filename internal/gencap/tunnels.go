package gencap

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// Crafted captures of TCP inside encapsulations and link types, for the
// decoder's tests against tshark (scripts/gencap tunnels DIR writes them;
// testdata/tunnels holds them with their tshark goldens). Each capture
// holds three short connections — plain, encapsulated, plain — so that a
// missed encapsulation also shows as shifted stream numbers.

// ipConn is a short TCP transfer as IP packets: handshake, n data
// segments of mss bytes (the payload captured, zeros), an ACK for each,
// and the FIN exchange.
type ipConn struct {
	v6           bool
	cli, srv     []byte // 4 or 16 bytes
	cport, sport uint16
	iss, irs     uint32
}

// packets returns the connection's IP packets, client's and server's in
// the order sent, with their direction (true: from the client).
func (c ipConn) packets(n, mss int) (pkts [][]byte, fromCli []bool) {
	add := func(cli bool, seq, ack uint32, flags byte, payload int) {
		pkts = append(pkts, c.ipPacket(cli, seq, ack, flags, payload, len(pkts)))
		fromCli = append(fromCli, cli)
	}
	const synFl, ackFl, finFl, pshFl = 0x02, 0x10, 0x01, 0x08
	add(true, c.iss, 0, synFl, 0)
	add(false, c.irs, c.iss+1, synFl|ackFl, 0)
	add(true, c.iss+1, c.irs+1, ackFl, 0)
	for i := range n {
		seq := c.iss + 1 + uint32(i*mss)
		add(true, seq, c.irs+1, ackFl|pshFl, mss)
		add(false, c.irs+1, seq+uint32(mss), ackFl, 0)
	}
	end := c.iss + 1 + uint32(n*mss)
	add(true, end, c.irs+1, finFl|ackFl, 0)
	add(false, c.irs+1, end+1, finFl|ackFl, 0)
	add(true, end+1, c.irs+2, ackFl, 0)
	return pkts, fromCli
}

// ipPacket is one IPv4 or IPv6 packet carrying a TCP header (MSS option
// on SYNs) and payload zero bytes.
func (c ipConn) ipPacket(fromCli bool, seq, ack uint32, flags byte, payload, id int) []byte {
	be := binary.BigEndian
	src, dst, sp, dp := c.cli, c.srv, c.cport, c.sport
	if !fromCli {
		src, dst, sp, dp = c.srv, c.cli, c.sport, c.cport
	}
	hl := 20
	if flags&0x02 != 0 {
		hl = 24
	}
	tcp := make([]byte, hl+payload)
	be.PutUint16(tcp[0:], sp)
	be.PutUint16(tcp[2:], dp)
	be.PutUint32(tcp[4:], seq)
	be.PutUint32(tcp[8:], ack)
	tcp[12], tcp[13] = byte(hl/4)<<4, flags
	be.PutUint16(tcp[14:], 64000)
	if hl == 24 {
		copy(tcp[20:], []byte{2, 4, 0x05, 0xb4}) // MSS 1460
	}
	if c.v6 {
		return ip6(src, dst, 6, tcp)
	}
	return ip4(src, dst, 6, uint16(id), tcp)
}

// ip4 is an IPv4 header (valid checksum, don't fragment) before payload.
func ip4(src, dst []byte, proto byte, id uint16, payload []byte) []byte {
	be := binary.BigEndian
	h := make([]byte, 20, 20+len(payload))
	h[0], h[8], h[9] = 0x45, 64, proto
	be.PutUint16(h[2:], uint16(20+len(payload)))
	be.PutUint16(h[4:], id)
	be.PutUint16(h[6:], 0x4000)
	copy(h[12:], src)
	copy(h[16:], dst)
	be.PutUint16(h[10:], IPChecksum(h))
	return append(h, payload...)
}

// IPChecksum is the Internet checksum (RFC 1071) of h.
func IPChecksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(h); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}

// ip6 is an IPv6 header before payload (next header proto).
func ip6(src, dst []byte, proto byte, payload []byte) []byte {
	h := make([]byte, 40, 40+len(payload))
	h[0] = 0x60
	binary.BigEndian.PutUint16(h[4:], uint16(len(payload)))
	h[6], h[7] = proto, 64
	copy(h[8:], src)
	copy(h[24:], dst)
	return append(h, payload...)
}

// udp4 is an IPv4/UDP packet (checksum 0: none) to dport.
func udp4(src, dst []byte, sport, dport uint16, payload []byte) []byte {
	u := make([]byte, 8, 8+len(payload))
	binary.BigEndian.PutUint16(u[0:], sport)
	binary.BigEndian.PutUint16(u[2:], dport)
	binary.BigEndian.PutUint16(u[4:], uint16(8+len(payload)))
	return ip4(src, dst, 17, 1, append(u, payload...))
}

// ether is an Ethernet II frame.
func ether(ethertype uint16, payload []byte) []byte {
	f := []byte{0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, byte(ethertype >> 8), byte(ethertype)}
	return append(f, payload...)
}

// etherIP is Ethernet II carrying an IP packet.
func etherIP(ip []byte) []byte {
	if ip[0]>>4 == 6 {
		return ether(0x86dd, ip)
	}
	return ether(0x0800, ip)
}

var (
	outerA, outerB = []byte{192, 0, 2, 1}, []byte{192, 0, 2, 2}
	llcSNAPIPv4    = []byte{0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00}
)

// Tunnel is one crafted capture: its file name, link type, and how an IP
// packet of the middle connection is framed (plain ones are framed by
// plain).
type Tunnel struct {
	Name     string
	LinkType uint32
	wrap     func(ip []byte) []byte
	plain    func(ip []byte) []byte
	v6       bool // the encapsulated connection is IPv6
	// frames, when set, frames a packet of the middle connection as
	// several (IP fragments), instead of wrap.
	frames func(ip []byte) [][]byte
	// snap, when set, is the capture's snapshot length: frames are cut
	// to it (their length on the wire kept).
	snap int
}

// Tunnels lists the crafted captures.
func Tunnels() []Tunnel {
	eth := etherIP
	var ts []Tunnel
	add := func(name string, lt uint32, plain, wrap func([]byte) []byte, v6 bool) {
		ts = append(ts, Tunnel{Name: name, LinkType: lt, wrap: wrap, plain: plain, v6: v6})
	}
	add("vxlan.pcap", 1, eth, func(ip []byte) []byte {
		hdr := []byte{0x08, 0, 0, 0, 0, 0x12, 0x34, 0}
		return ether(0x0800, udp4(outerA, outerB, 40001, 4789, append(hdr, etherIP(ip)...)))
	}, false)
	add("geneve.pcap", 1, eth, func(ip []byte) []byte {
		hdr := []byte{0, 0, 0x65, 0x58, 0, 0, 0x42, 0} // no options, Ethernet payload, VNI 0x42
		return ether(0x0800, udp4(outerA, outerB, 40002, 6081, append(hdr, etherIP(ip)...)))
	}, false)
	add("gtpu.pcap", 1, eth, func(ip []byte) []byte {
		hdr := []byte{0x30, 0xff, 0, 0, 0, 0, 0, 7} // version 1, PT 1, G-PDU, TEID 7
		binary.BigEndian.PutUint16(hdr[2:], uint16(len(ip)))
		return ether(0x0800, udp4(outerA, outerB, 2152, 2152, append(hdr, ip...)))
	}, false)
	add("gtpu_5g.pcap", 1, eth, func(ip []byte) []byte {
		// E flag: sequence number, N-PDU number, next extension type
		// 0x85 (PDU session container, one 4-byte unit: UL, QFI 9).
		hdr := []byte{0x34, 0xff, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0x85, 1, 0x10, 0x09, 0}
		binary.BigEndian.PutUint16(hdr[2:], uint16(8+len(ip)))
		return ether(0x0800, udp4(outerA, outerB, 2152, 2152, append(hdr, ip...)))
	}, false)
	add("l2tpv2.pcap", 1, eth, func(ip []byte) []byte {
		hdr := []byte{0x00, 0x02, 0, 1, 0, 2, 0xff, 0x03, 0x00, 0x21} // v2, tunnel 1, session 2; PPP IPv4
		return ether(0x0800, udp4(outerA, outerB, 1701, 1701, append(hdr, ip...)))
	}, false)
	add("erspan2.pcap", 1, eth, func(ip []byte) []byte {
		gre := []byte{0x10, 0x00, 0x88, 0xbe, 0, 0, 0, 1}    // S bit, ERSPAN type II, sequence 1
		ers := []byte{0x10, 0x00, 0x00, 0x05, 0x00, 0, 0, 0} // version 1, VLAN 0, session 5
		return ether(0x0800, ip4(outerA, outerB, 47, 1, append(append(gre, ers...), etherIP(ip)...)))
	}, false)
	add("erspan3.pcap", 1, eth, func(ip []byte) []byte {
		gre := []byte{0x10, 0x00, 0x22, 0xeb, 0, 0, 0, 1}             // S bit, ERSPAN type III
		ers := []byte{0x20, 0x00, 0x00, 0x05, 0, 0, 0, 0, 0, 0, 0, 0} // version 2, session 5, no platform subheader
		return ether(0x0800, ip4(outerA, outerB, 47, 1, append(append(gre, ers...), etherIP(ip)...)))
	}, false)
	add("eompls_cw.pcap", 1, eth, func(ip []byte) []byte {
		mpls := []byte{0x00, 0x01, 0x01, 0x40} // label 16, bottom of stack, TTL 64
		cw := []byte{0, 0, 0, 0}               // pseudowire control word
		// Inner MAC addresses whose bytes after the control word do not
		// read as two known vendors' (Wireshark's heuristic, see
		// mplsPayload): tshark takes the control word.
		inner := etherIP(ip)
		copy(inner, []byte{0x02, 0x00, 0x5e, 0x77, 0x88, 0x01})
		return ether(0x8847, append(append(mpls, cw...), inner...))
	}, false)
	add("qinq_9100.pcap", 1, eth, func(ip []byte) []byte {
		tags := []byte{0x00, 0x64, 0x81, 0x00, 0x00, 0xc8, 0x08, 0x00} // S-tag 100 (TPID 0x9100), C-tag 200
		return ether(0x9100, append(tags, ip...))
	}, false)
	add("llc_snap.pcap", 1, eth, func(ip []byte) []byte {
		body := append(append([]byte{}, llcSNAPIPv4...), ip...)
		f := ether(uint16(len(body)), body) // 802.3: a length, not an EtherType
		return f
	}, false)
	sll := func(proto uint16, payload []byte) []byte {
		h := []byte{0, 0, 0, 1, 0, 6, 0x02, 0, 0, 0, 0, 1, 0, 0, byte(proto >> 8), byte(proto)}
		return append(h, payload...)
	}
	add("sll_llc.pcap", 113, func(ip []byte) []byte { return sll(0x0800, ip) }, func(ip []byte) []byte {
		return sll(0x0004, append(append([]byte{}, llcSNAPIPv4...), ip...)) // 802.2 LLC
	}, false)
	add("ipv4_ah.pcap", 1, eth, func(ip []byte) []byte {
		// Move the TCP segment behind an AH header (12-byte ICV).
		tcp := ip[20:]
		ah := []byte{6, 4, 0, 0, 0, 0, 0x10, 0x01, 0, 0, 0, 1}
		ah = append(ah, make([]byte, 12)...)
		return etherIP(ip4(ip[12:16], ip[16:20], 51, binary.BigEndian.Uint16(ip[4:]), append(ah, tcp...)))
	}, false)
	add("ipv6_ah.pcap", 1, eth, func(ip []byte) []byte {
		// Hop-by-hop options, AH, destination options, TCP.
		tcp := ip[40:]
		hbh := []byte{51, 0, 1, 4, 0, 0, 0, 0}
		ah := append([]byte{60, 4, 0, 0, 0, 0, 0x10, 0x01, 0, 0, 0, 1}, make([]byte, 12)...)
		dst := []byte{6, 0, 1, 4, 0, 0, 0, 0}
		chain := append(append(append(hbh, ah...), dst...), tcp...)
		return etherIP(ip6(ip[8:24], ip[24:40], 0, chain))
	}, true)
	add("ipv6_atomic_frag.pcap", 1, eth, func(ip []byte) []byte {
		tcp := ip[40:]
		frag := []byte{6, 0, 0, 0, 0, 0, 0x12, 0x34} // offset 0, M 0: an atomic fragment
		return etherIP(ip6(ip[8:24], ip[24:40], 44, append(frag, tcp...)))
	}, true)
	dot11 := func(ip []byte) []byte {
		// Data frame to the AP (To DS), addresses, sequence control, then
		// LLC/SNAP.
		h := []byte{0x08, 0x01, 0, 0, 0x02, 0, 0, 0, 0, 0xa, 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x10, 0}
		return append(append(h, llcSNAPIPv4...), ip...)
	}
	add("dot11.pcap", 105, dot11, func(ip []byte) []byte {
		// A QoS data frame (subtype 8: a 2-byte QoS control field).
		h := []byte{0x88, 0x01, 0, 0, 0x02, 0, 0, 0, 0, 0xa, 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x20, 0, 0x05, 0}
		return append(append(h, llcSNAPIPv4...), ip...)
	}, false)
	add("radiotap.pcap", 127, func(ip []byte) []byte {
		return append([]byte{0, 0, 8, 0, 0, 0, 0, 0}, dot11(ip)...) // no fields
	}, func(ip []byte) []byte {
		// The flags field, saying the frame ends with its FCS.
		rt := []byte{0, 0, 9, 0, 0x02, 0, 0, 0, 0x10}
		return append(append(rt, dot11(ip)...), 0xde, 0xad, 0xbe, 0xef)
	}, false)
	nflog := func(ip []byte) []byte {
		le := binary.LittleEndian
		h := []byte{2, 0, 0, 0} // AF_INET, version 0, resource id 0
		tlv := func(typ uint16, v []byte) []byte {
			t := make([]byte, 4, 4+len(v)+3)
			le.PutUint16(t, uint16(4+len(v)))
			le.PutUint16(t[2:], typ)
			t = append(t, v...)
			for len(t)%4 != 0 {
				t = append(t, 0)
			}
			return t
		}
		h = append(h, tlv(1, []byte{0x08, 0x00, 3, 0})...) // packet header: hw protocol IPv4, hook 3
		h = append(h, tlv(10, []byte("tcpviz"))...)        // prefix
		return append(h, tlv(9, ip)...)                    // the payload
	}
	add("nflog.pcap", 239, nflog, nflog, false)
	hdlc := func(ip []byte) []byte { return append([]byte{0x0f, 0x00, 0x08, 0x00}, ip...) }
	add("cisco_hdlc.pcap", 104, hdlc, hdlc, false)
	return ts
}

// Capture writes the pcap of t: a plain connection, the encapsulated one
// interleaved with a second plain one, each packet 1 ms after the last.
func (t Tunnel) Capture() []byte {
	var buf bytes.Buffer
	le := binary.LittleEndian
	hdr := make([]byte, 24)
	le.PutUint32(hdr, 0xa1b2c3d4)
	le.PutUint16(hdr[4:], 2)
	le.PutUint16(hdr[6:], 4)
	le.PutUint32(hdr[16:], 65535)
	le.PutUint32(hdr[20:], t.LinkType)
	buf.Write(hdr)
	us := int64(0)
	write := func(frame []byte) {
		var rec [16]byte
		wire := len(frame)
		if t.snap > 0 && len(frame) > t.snap {
			frame = frame[:t.snap]
		}
		le.PutUint32(rec[0:], uint32(Epoch+us/1e6))
		le.PutUint32(rec[4:], uint32(us%1e6))
		le.PutUint32(rec[8:], uint32(len(frame)))
		le.PutUint32(rec[12:], uint32(wire))
		buf.Write(rec[:])
		buf.Write(frame)
		us += 1000
	}
	a4 := func(x byte) []byte { return []byte{10, 0, 0, x} }
	a6 := func(x byte) []byte { return []byte{0xfd, 0, 0, 0x88, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, x} }
	first, _ := ipConn{cli: a4(1), srv: a4(2), cport: 40000, sport: 80, iss: 1000, irs: 9000}.packets(3, 100)
	for _, p := range first {
		write(t.plain(p))
	}
	mid := ipConn{cli: a4(11), srv: a4(12), cport: 40001, sport: 443, iss: 5000, irs: 77000}
	if t.v6 {
		mid = ipConn{v6: true, cli: a6(11), srv: a6(12), cport: 40001, sport: 443, iss: 5000, irs: 77000}
	}
	tunnelled, _ := mid.packets(4, 120)
	last, _ := ipConn{cli: a4(21), srv: a4(22), cport: 40002, sport: 8080, iss: 3000, irs: 6000}.packets(3, 100)
	for i := 0; i < len(tunnelled) || i < len(last); i++ {
		if i < len(tunnelled) && t.frames != nil {
			for _, f := range t.frames(tunnelled[i]) {
				write(f)
			}
		} else if i < len(tunnelled) {
			write(t.wrap(tunnelled[i]))
		}
		if i < len(last) {
			write(t.plain(last[i]))
		}
	}
	return buf.Bytes()
}

// fragment4 splits an IPv4 packet into fragments of at most size payload
// bytes (a multiple of 8), each with its own header (valid checksum).
func fragment4(ip []byte, size int) [][]byte {
	hl := int(ip[0]&0xf) * 4
	payload := ip[hl:]
	var out [][]byte
	for off := 0; off < len(payload); off += size {
		end := min(off+size, len(payload))
		h := append([]byte(nil), ip[:hl]...)
		ff := uint16(off / 8)
		if end < len(payload) {
			ff |= 0x2000 // more fragments
		}
		binary.BigEndian.PutUint16(h[6:], ff)
		binary.BigEndian.PutUint16(h[2:], uint16(hl+end-off))
		h[10], h[11] = 0, 0
		binary.BigEndian.PutUint16(h[10:], IPChecksum(h))
		out = append(out, append(h, payload[off:end]...))
	}
	return out
}

// fragment6 splits an IPv6 packet (no extension headers) into fragments
// of at most size payload bytes (a multiple of 8), with a fragment
// header.
func fragment6(ip []byte, size int, id uint32) [][]byte {
	next, payload := ip[6], ip[40:]
	var out [][]byte
	for off := 0; off < len(payload); off += size {
		end := min(off+size, len(payload))
		fh := []byte{next, 0, 0, 0, 0, 0, 0, 0}
		ff := uint16(off)
		if end < len(payload) {
			ff |= 1
		}
		binary.BigEndian.PutUint16(fh[2:], ff)
		binary.BigEndian.PutUint32(fh[4:], id)
		out = append(out, ip6(ip[8:24], ip[24:40], 44, append(fh, payload[off:end]...)))
	}
	return out
}

// Fragments lists the crafted captures of TCP in IP fragments: the
// middle connection's SYN and data segments fragmented (IPv4, IPv6,
// fragments out of order, the outer header of a GRE tunnel), and a
// datagram one fragment of which never came.
func Fragments() []Tunnel {
	big := func(ip []byte) bool {
		return len(ip) > 100 || ip[0]>>4 == 4 && ip[33]&0x02 != 0 || ip[0]>>4 == 6 && ip[53]&0x02 != 0
	}
	frag4 := func(reverse, lose bool) func([]byte) [][]byte {
		n := 0
		return func(ip []byte) [][]byte {
			if !big(ip) {
				return [][]byte{etherIP(ip)}
			}
			size := 48
			if len(ip) < 100 { // a SYN: 24 bytes of TCP header, 16 + 8
				size = 16
			}
			fs := fragment4(ip, size)
			if reverse {
				slices.Reverse(fs)
			}
			n++
			if lose && n == 3 {
				fs = fs[:len(fs)-1] // a fragment lost before the capture
			}
			var out [][]byte
			for _, f := range fs {
				out = append(out, etherIP(f))
			}
			return out
		}
	}
	gre := func(ip []byte) [][]byte {
		outer := ip4(outerA, outerB, 47, binary.BigEndian.Uint16(ip[4:])+7, append([]byte{0, 0, 0x08, 0x00}, ip...))
		var out [][]byte
		for _, f := range fragment4(outer, 64) {
			out = append(out, etherIP(f))
		}
		return out
	}
	v6 := func(ip []byte) [][]byte {
		if !big(ip) {
			return [][]byte{etherIP(ip)}
		}
		var out [][]byte
		for _, f := range fragment6(ip, 48, binary.BigEndian.Uint32(ip[44:])) {
			out = append(out, etherIP(f))
		}
		return out
	}
	return []Tunnel{
		{Name: "frag_tcp.pcap", LinkType: 1, plain: etherIP, frames: frag4(false, false)},
		{Name: "frag_tcp_reordered.pcap", LinkType: 1, plain: etherIP, frames: frag4(true, false)},
		{Name: "frag_tcp_lost.pcap", LinkType: 1, plain: etherIP, frames: frag4(false, true)},
		{Name: "frag_gre.pcap", LinkType: 1, plain: etherIP, frames: gre},
		{Name: "frag_v6.pcap", LinkType: 1, plain: etherIP, frames: v6, v6: true},
	}
}

// icmpError is an ICMP (ICMPv6 for an IPv6 packet) error from a router
// to the sender of ip, quoting ip's first quote bytes: type and code as
// given (ICMPv6 types for IPv6), checksum left 0.
func icmpError(ip []byte, typ, code byte, quote int) []byte {
	router4, router6 := []byte{203, 0, 113, 1}, []byte{0xfd, 0, 0, 0x99, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}
	q := ip[:min(quote, len(ip))]
	msg := append([]byte{typ, code, 0, 0, 0, 0, 0x05, 0xdc}, q...) // next-hop MTU 1500 (frag needed, too big)
	if ip[0]>>4 == 6 {
		return ip6(router6, ip[8:24], 58, msg)
	}
	return ip4(router4, ip[12:16], 1, 99, msg)
}

// ICMPErrors lists the crafted captures of ICMP errors quoting TCP
// headers, which Wireshark counts as packets of their connection (with
// no sequence analysis): a "fragmentation needed" quoting a data segment
// (PMTUD), "time exceeded" quoting the first 8 bytes, then the whole
// header, of a SYN of no connection seen (TCP traceroute), ICMPv6
// "packet too big".
func ICMPErrors() []Tunnel {
	with := func(typ, code byte, quote int) func([]byte) [][]byte {
		n := 0
		return func(ip []byte) [][]byte {
			out := [][]byte{etherIP(ip)}
			n++
			if n == 4 || n == 8 { // after the first and third data segments
				out = append(out, etherIP(icmpError(ip, typ, code, quote)))
			}
			return out
		}
	}
	traceroute := func(ip []byte) [][]byte {
		out := [][]byte{etherIP(ip)}
		if ip[0]>>4 == 4 && ip[33]&0x02 != 0 && ip[33]&0x10 == 0 { // the client's SYN
			probe := ipConn{cli: []byte{10, 0, 0, 31}, srv: []byte{198, 51, 100, 7}, cport: 33434, sport: 80, iss: 424242}
			syn := probe.ipPacket(true, probe.iss, 0, 0x02, 0, 1)
			// Quoting the IP header and 8 bytes of TCP (too few for
			// Wireshark to find its conversation), then the whole header.
			out = append(out, etherIP(icmpError(syn, 11, 0, 28)), etherIP(icmpError(syn, 11, 0, 44)))
		}
		return out
	}
	return []Tunnel{
		{Name: "icmp_frag_needed.pcap", LinkType: 1, plain: etherIP, frames: with(3, 4, 68)},
		{Name: "icmp_time_exceeded.pcap", LinkType: 1, plain: etherIP, frames: traceroute},
		{Name: "icmp6_too_big.pcap", LinkType: 1, plain: etherIP, frames: with(2, 0, 88), v6: true},
	}
}

// Odd lists crafted captures of single odd packets among plain ones: an
// IPv4 header with a malformed option (tshark still reads the TCP), an
// IPv6 jumbogram cut to its headers (its length is in the hop-by-hop
// Jumbo Payload option), and an "xmas" packet (FIN, PSH, URG) followed by a
// SYN+FIN with the same sequence number on the same ports.
func Odd() []Tunnel {
	// Each data segment of the middle connection behind 8 bytes of
	// options malformed another way: too short for what Wireshark's
	// dissector of the option reads (record route, quick-start: tshark
	// then shows no TCP), running past the header, a length of 1, an
	// unknown option (tshark reads the TCP).
	opts := [][]byte{{7, 2, 0, 0, 0, 0, 0, 0}, {7, 12, 4, 0, 0, 0, 0, 0}, {130, 1, 0, 0, 0, 0, 0, 0}, {25, 7, 0, 0, 0, 0, 0, 0}}
	k := 0
	badOption := func(ip []byte) []byte {
		if ip[0]>>4 != 4 || ip[33]&0x08 == 0 { // the data segments (PSH)
			return etherIP(ip)
		}
		h := append([]byte{}, ip[:20]...)
		h[0] = 0x47
		out := append(append(h, opts[k%len(opts)]...), ip[20:]...)
		k++
		binary.BigEndian.PutUint16(out[2:], uint16(len(out)))
		out[10], out[11] = 0, 0
		binary.BigEndian.PutUint16(out[10:], IPChecksum(out[:28]))
		return etherIP(out)
	}
	jumbo := func(ip []byte) [][]byte {
		if ip[0]>>4 != 6 || len(ip) < 100 {
			return [][]byte{etherIP(ip)}
		}
		// A jumbogram (RFC 2675): payload length 0, a hop-by-hop header
		// with the Jumbo Payload option giving the length (hop-by-hop
		// header included), here 70,000 bytes of TCP payload; the frame
		// is captured to the end of the TCP header (the snapshot length).
		tcp := append(append([]byte{}, ip[40:60]...), make([]byte, 70000)...)
		hbh := []byte{6, 0, 0xc2, 4, 0, 0, 0, 0}
		binary.BigEndian.PutUint32(hbh[4:], uint32(8+len(tcp)))
		j := append(append(append([]byte{}, ip[:40]...), hbh...), tcp...)
		j[4], j[5], j[6] = 0, 0, 0
		return [][]byte{etherIP(j)}
	}
	xmas := func(ip []byte) [][]byte {
		out := [][]byte{etherIP(ip)}
		if ip[0]>>4 == 4 && ip[33] == 0x02 { // after the client's SYN
			c := ipConn{cli: []byte{10, 0, 0, 41}, srv: []byte{10, 0, 0, 42}, cport: 5555, sport: 80, iss: 100}
			out = append(out, etherIP(c.ipPacket(true, 100, 0, 0x29, 0, 1)), etherIP(c.ipPacket(true, 100, 0, 0x03, 0, 2)))
		}
		return out
	}
	return []Tunnel{
		{Name: "ipv4_bad_option.pcap", LinkType: 1, plain: etherIP, wrap: badOption},
		{Name: "ipv6_jumbo_headers.pcap", LinkType: 1, plain: etherIP, frames: jumbo, v6: true, snap: 14 + 40 + 8 + 20},
		{Name: "xmas_synfin.pcap", LinkType: 1, plain: etherIP, frames: xmas},
	}
}

// QuotedAfterSYN is a capture of one plain connection whose second packet
// is an ICMP "fragmentation needed" quoting its SYN: the tracker hands the
// SYN, which it kept alone until then, on with the quoted header
// (reassembly.Segment.First).
func QuotedAfterSYN() []byte {
	n := 0
	frames := func(ip []byte) [][]byte {
		out := [][]byte{etherIP(ip)}
		if n++; n == 1 {
			out = append(out, etherIP(icmpError(ip, 3, 4, 68)))
		}
		return out
	}
	return Tunnel{Name: "icmp_after_syn.pcap", LinkType: 1, plain: etherIP, frames: frames}.Capture()
}
