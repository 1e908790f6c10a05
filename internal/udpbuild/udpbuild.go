// Package udpbuild makes synthetic captures of UDP (and other non-TCP IP)
// traffic for tests: Ethernet frames of IPv4 or IPv6 datagrams, split
// into IP fragments when asked, written as a pcap file. It imports nothing
// of tcpviz, so every package's tests can use it.
package udpbuild

import (
	"bytes"
	"encoding/binary"
	"net/netip"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// Epoch is the time of a capture's first packet.
var Epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Frame is one captured packet.
type Frame struct {
	T    time.Duration // since Epoch
	Data []byte
	Snap int // keep only this many bytes (0: all)
}

// Datagram describes one IP datagram.
type Datagram struct {
	Src, Dst netip.AddrPort
	Proto    uint8  // 0: UDP
	Payload  []byte // transport payload (after the UDP header)
	ID       uint32 // IP identification (fragment identification for IPv6)
}

// transport returns the IP payload: UDP header and payload, or the
// payload alone for other protocols.
func (d Datagram) transport() ([]byte, uint8) {
	if d.Proto != 0 && d.Proto != 17 {
		return d.Payload, d.Proto
	}
	b := make([]byte, 8+len(d.Payload))
	binary.BigEndian.PutUint16(b, d.Src.Port())
	binary.BigEndian.PutUint16(b[2:], d.Dst.Port())
	binary.BigEndian.PutUint16(b[4:], uint16(len(b)))
	copy(b[8:], d.Payload)
	return b, 17
}

// Packet is the datagram as one unfragmented Ethernet frame.
func (d Datagram) Packet() []byte {
	b, proto := d.transport()
	return ipFrame(d, proto, b, 0, len(b), false, false)
}

// Fragments splits the datagram into IP fragments carrying at most size
// bytes of its IP payload each (size a multiple of 8), in order.
func (d Datagram) Fragments(size int) [][]byte {
	b, proto := d.transport()
	var out [][]byte
	for off := 0; off < len(b); off += size {
		end := min(off+size, len(b))
		out = append(out, ipFrame(d, proto, b, off, end, true, end < len(b)))
	}
	return out
}

func ipFrame(d Datagram, proto uint8, payload []byte, off, end int, frag, more bool) []byte {
	var f bytes.Buffer
	f.Write([]byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1})
	chunk := payload[off:end]
	if d.Src.Addr().Is4() {
		f.Write([]byte{0x08, 0x00})
		h := make([]byte, 20)
		h[0] = 0x45
		binary.BigEndian.PutUint16(h[2:], uint16(20+len(chunk)))
		binary.BigEndian.PutUint16(h[4:], uint16(d.ID))
		ff := uint16(off / 8)
		if more {
			ff |= 0x2000
		}
		binary.BigEndian.PutUint16(h[6:], ff)
		h[8], h[9] = 64, proto
		s, t := d.Src.Addr().As4(), d.Dst.Addr().As4()
		copy(h[12:], s[:])
		copy(h[16:], t[:])
		f.Write(h)
	} else {
		f.Write([]byte{0x86, 0xdd})
		h := make([]byte, 40)
		h[0] = 0x60
		plen := len(chunk)
		next := proto
		if frag {
			plen += 8
			next = 44
		}
		binary.BigEndian.PutUint16(h[4:], uint16(plen))
		h[6], h[7] = next, 64
		s, t := d.Src.Addr().As16(), d.Dst.Addr().As16()
		copy(h[8:], s[:])
		copy(h[24:], t[:])
		f.Write(h)
		if frag {
			fh := make([]byte, 8)
			fh[0] = proto
			ff := uint16(off)
			if more {
				ff |= 1
			}
			binary.BigEndian.PutUint16(fh[2:], ff)
			binary.BigEndian.PutUint32(fh[4:], d.ID)
			f.Write(fh)
		}
	}
	f.Write(chunk)
	return f.Bytes()
}

// Pcap writes the frames as a nanosecond pcap of Ethernet frames.
func Pcap(frames []Frame) []byte {
	var out bytes.Buffer
	w := pcapgo.NewWriterNanos(&out)
	if err := w.WriteFileHeader(65535, layers.LinkTypeEthernet); err != nil {
		panic(err) // writing to memory
	}
	for _, fr := range frames {
		data := fr.Data
		ci := gopacket.CaptureInfo{Timestamp: Epoch.Add(fr.T), CaptureLength: len(data), Length: len(data)}
		if fr.Snap > 0 && fr.Snap < len(data) {
			data = data[:fr.Snap]
			ci.CaptureLength = fr.Snap
		}
		if err := w.WritePacket(ci, data); err != nil {
			panic(err)
		}
	}
	return out.Bytes()
}

// Iperf3 returns an iperf3 UDP payload of size bytes: send time (seconds
// and microseconds of the sender's clock) and 32-bit sequence number.
func Iperf3(sent time.Duration, seq uint32, size int) []byte {
	b := make([]byte, max(size, 12))
	binary.BigEndian.PutUint32(b, uint32(sent/time.Second))
	binary.BigEndian.PutUint32(b[4:], uint32(sent%time.Second/time.Microsecond))
	binary.BigEndian.PutUint32(b[8:], seq)
	for i := 12; i < len(b); i++ {
		b[i] = byte(i * 7)
	}
	return b
}
