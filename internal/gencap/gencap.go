// Package gencap generates synthetic pcap captures, as streams, for
// benchmarks and tests: a SYN flood and a storm of retransmissions. It
// imports nothing of tcpviz, so every package's tests (reassembly's too)
// and scripts/gencap can use it.
package gencap

import (
	"encoding/binary"
	"io"
)

// Epoch is the capture time of the first packet, in seconds.
const Epoch = 1_700_000_000

// frameLen is a captured frame: Ethernet + IPv4 + TCP without options.
const frameLen = 14 + 20 + 20

// stream is an io.Reader of a pcap (microsecond, Ethernet, snap length
// 65535) whose records next appends, one call at a time, until it
// returns false. Nothing but one buffer is held.
type stream struct {
	buf  []byte
	next func(buf []byte) ([]byte, bool)
	done bool
}

func newStream(next func([]byte) ([]byte, bool)) *stream {
	hdr := make([]byte, 24, 64<<10)
	le := binary.LittleEndian
	le.PutUint32(hdr, 0xa1b2c3d4)
	le.PutUint16(hdr[4:], 2)
	le.PutUint16(hdr[6:], 4)
	le.PutUint32(hdr[16:], 65535)
	le.PutUint32(hdr[20:], 1)
	return &stream{buf: hdr, next: next}
}

func (s *stream) Read(p []byte) (int, error) {
	for len(s.buf) < len(p) && !s.done {
		var ok bool
		s.buf, ok = s.next(s.buf)
		s.done = !ok
	}
	if len(s.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.buf)
	s.buf = s.buf[:copy(s.buf, s.buf[n:])]
	return n, nil
}

// segment describes one TCP/IPv4 packet of a generated capture.
type segment struct {
	us           int64 // capture time, µs after Epoch
	src, dst     uint32
	sport, dport uint16
	seq, ack     uint32
	flags        byte // TCP flags byte
	window       uint16
	ipid         uint16
	payload      int // bytes on the wire after the TCP header (not captured)
}

// TCP flag bits.
const (
	fin = 0x01
	syn = 0x02
	ack = 0x10
)

// appendSegment appends seg's pcap record: the headers are captured, the
// payload is not (its length is in the IP header and the record's
// original length, as with a short snap length).
func appendSegment(buf []byte, seg segment) []byte {
	le, be := binary.LittleEndian, binary.BigEndian
	var rec [16 + frameLen]byte
	le.PutUint32(rec[0:], uint32(Epoch+seg.us/1e6))
	le.PutUint32(rec[4:], uint32(seg.us%1e6))
	le.PutUint32(rec[8:], frameLen)
	le.PutUint32(rec[12:], uint32(frameLen+seg.payload))
	f := rec[16:]
	f[0], f[5] = 0x02, 0x01 // destination 02:00:00:00:00:01
	f[6], f[11] = 0x02, 0x02
	be.PutUint16(f[12:], 0x0800)
	ip := f[14:]
	ip[0], ip[8], ip[9] = 0x45, 64, 6
	be.PutUint16(ip[2:], uint16(40+seg.payload))
	be.PutUint16(ip[4:], seg.ipid)
	be.PutUint16(ip[6:], 0x4000) // don't fragment
	be.PutUint32(ip[12:], seg.src)
	be.PutUint32(ip[16:], seg.dst)
	be.PutUint16(ip[10:], IPChecksum(ip[:20]))
	tcp := ip[20:]
	be.PutUint16(tcp[0:], seg.sport)
	be.PutUint16(tcp[2:], seg.dport)
	be.PutUint32(tcp[4:], seg.seq)
	be.PutUint32(tcp[8:], seg.ack)
	tcp[12], tcp[13] = 5<<4, seg.flags
	be.PutUint16(tcp[14:], seg.window)
	return append(buf, rec[:]...)
}

// SynFlood is a pcap of n SYNs to 192.0.2.80:80, rate a second, each from
// its own source address (10.0.0.0 + i) with its own initial sequence
// number: n one-packet connections, none idle long enough to be retired
// when rate is an attack's (100,000/s).
func SynFlood(n, rate int) io.Reader {
	i := 0
	return newStream(func(buf []byte) ([]byte, bool) {
		if i >= n {
			return buf, false
		}
		buf = appendSegment(buf, floodSYN(i, int64(i)*1e6/int64(rate), 0x0a000000))
		i++
		return buf, true
	})
}

// floodSYN is a flood's SYN i to 192.0.2.80:80 at us, from its own source
// address (net + i) with its own initial sequence number.
func floodSYN(i int, us int64, net uint32) segment {
	return segment{us: us, src: net | uint32(i), dst: 0xc0000250, sport: uint16(1024 + i%60000), dport: 80,
		seq: uint32(i) * 7919, flags: syn, window: 1024, ipid: uint16(i)}
}

// Retransmissions is a pcap of one connection (10.0.0.1:40000 to
// 10.0.0.2:5201) whose client, after the handshake, sends outstanding
// segments of mss bytes and then retransmits the first of them n times,
// each copy gap µs after the previous with its own IP ID (so none is a
// capture duplicate), before the server acknowledges everything and both
// sides close. It has n+outstanding+7 packets.
func Retransmissions(n, outstanding, mss int, gapUS int64) io.Reader {
	const client, server = 0x0a000001, 0x0a000002
	const cport, sport = 40000, 5201
	const iss, irs = 1000, 5000
	c2s := func(us int64, seq, ackNo uint32, flags byte, payload int, ipid uint16) segment {
		return segment{us: us, src: client, dst: server, sport: cport, dport: sport,
			seq: seq, ack: ackNo, flags: flags, window: 65535, payload: payload, ipid: ipid}
	}
	s2c := func(us int64, seq, ackNo uint32, flags byte) segment {
		return segment{us: us, src: server, dst: client, sport: sport, dport: cport,
			seq: seq, ack: ackNo, flags: flags, window: 65535}
	}
	end := uint32(iss + 1 + outstanding*mss)
	step := 0
	var ipid uint16
	return newStream(func(buf []byte) ([]byte, bool) {
		ipid++
		retransmitted := step - 3 - outstanding // copies so far
		last := int64(200_000 + outstanding + n)
		if n > 0 {
			last = 200_000 + int64(outstanding) + int64(n)*gapUS
		}
		switch {
		case step == 0:
			buf = appendSegment(buf, c2s(0, iss, 0, syn, 0, ipid))
		case step == 1:
			buf = appendSegment(buf, s2c(100_000, irs, iss+1, syn|ack))
		case step == 2:
			buf = appendSegment(buf, c2s(200_000, iss+1, irs+1, ack, 0, ipid))
		case step < 3+outstanding:
			i := step - 3
			buf = appendSegment(buf, c2s(200_000+int64(i), uint32(iss+1+i*mss), irs+1, ack, mss, ipid))
		case retransmitted < n:
			us := 200_000 + int64(outstanding) + int64(retransmitted+1)*gapUS
			buf = appendSegment(buf, c2s(us, iss+1, irs+1, ack, mss, ipid))
		case retransmitted == n:
			buf = appendSegment(buf, s2c(last+1000, irs+1, end, ack))
		case retransmitted == n+1:
			buf = appendSegment(buf, c2s(last+2000, end, irs+1, fin|ack, 0, ipid))
		case retransmitted == n+2:
			buf = appendSegment(buf, s2c(last+3000, irs+1, end+1, fin|ack))
		case retransmitted == n+3:
			buf = appendSegment(buf, c2s(last+4000, end+1, irs+2, ack, 0, ipid))
		default:
			return buf, false
		}
		step++
		return buf, true
	})
}

// LateSYNACK is a pcap of one connection (10.0.0.1:40000 to
// 10.0.0.2:5201, a download) whose capture starts in the middle of its
// data: before data segments of mss bytes from the server, each
// acknowledged by the client, then the server's SYN/ACK, time-stamped
// before everything else (as when captures of two interfaces are merged),
// then after more data segments and ACKs. The SYN/ACK moves what the
// server's relative numbers count from (its base, to its ISN) and the
// connection's first time back.
func LateSYNACK(before, after, mss int) io.Reader {
	const client, server = 0x0a000001, 0x0a000002
	const cport, sport = 40000, 5201
	const iss, irs = 1000, 5000
	skipped := uint32(5 * mss) // data sent before the capture started
	step := 0
	data := func(i int) segment {
		return segment{us: 1_000_000 + int64(i)*100, src: server, dst: client, sport: sport, dport: cport,
			seq: irs + 1 + skipped + uint32(i*mss), ack: iss + 1, flags: ack, window: 65535, payload: mss, ipid: uint16(i)}
	}
	acked := func(i int) segment {
		return segment{us: 1_000_050 + int64(i)*100, src: client, dst: server, sport: cport, dport: sport,
			seq: iss + 1, ack: irs + 1 + skipped + uint32((i+1)*mss), flags: ack, window: 65535, ipid: uint16(i)}
	}
	return newStream(func(buf []byte) ([]byte, bool) {
		var i int
		switch {
		case step < 2*before:
			i = step / 2
		case step == 2*before:
			buf = appendSegment(buf, segment{us: 500, src: server, dst: client, sport: sport, dport: cport,
				seq: irs, ack: iss + 1, flags: syn | ack, window: 65535})
			step++
			return buf, true
		case step < 2*before+1+2*after:
			i = before + (step-2*before-1)/2
		default:
			return buf, false
		}
		if (step-btoi(step > 2*before))%2 == 0 {
			buf = appendSegment(buf, data(i))
		} else {
			buf = appendSegment(buf, acked(i))
		}
		step++
		return buf, true
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Flight is a pcap of one connection (10.0.0.1:40000 to 10.0.0.2:5201,
// client ISN iss) whose client, after the handshake, sends n segments of
// mss bytes 1 µs apart — all in flight at once, as at 10 Gbit/s over a
// few milliseconds — with the segments at index swap and swap+1 captured
// in each other's place (none when swap < 0). With acks, the server then
// acknowledges every segment in order, 1 µs apart, 5 ms after the first
// was sent; without, the capture is one-way (no ACK after the handshake).
// An iss near 2^32 makes the sequence numbers wrap mid-transfer.
func Flight(n, mss, swap int, acks bool, iss uint32) io.Reader {
	const client, server = 0x0a000001, 0x0a000002
	const cport, sport = 40000, 5201
	const irs = 5000
	c2s := func(us int64, seq, ackNo uint32, flags byte, payload int, ipid uint16) segment {
		return segment{us: us, src: client, dst: server, sport: cport, dport: sport,
			seq: seq, ack: ackNo, flags: flags, window: 65535, payload: payload, ipid: ipid}
	}
	s2c := func(us int64, ackNo uint32, ipid uint16) segment {
		return segment{us: us, src: server, dst: client, sport: sport, dport: cport,
			seq: irs + 1, ack: ackNo, flags: ack, window: 65535, ipid: ipid}
	}
	const start = 200_000 // µs: first data segment
	ackStart := int64(start + max(5000, n+1000))
	step := 0
	return newStream(func(buf []byte) ([]byte, bool) {
		switch {
		case step == 0:
			buf = appendSegment(buf, c2s(0, iss, 0, syn, 0, 1))
		case step == 1:
			buf = appendSegment(buf, segment{us: 100_000, src: server, dst: client, sport: sport, dport: cport,
				seq: irs, ack: iss + 1, flags: syn | ack, window: 65535})
		case step == 2:
			buf = appendSegment(buf, c2s(199_000, iss+1, irs+1, ack, 0, 2))
		case step < 3+n:
			i := step - 3
			j := i // the segment captured at position i
			if swap >= 0 && i == swap {
				j = swap + 1
			} else if swap >= 0 && i == swap+1 {
				j = swap
			}
			buf = appendSegment(buf, c2s(start+int64(i), iss+1+uint32(j*mss), irs+1, ack, mss, uint16(3+j)))
		case acks && step < 3+2*n:
			i := step - 3 - n
			buf = appendSegment(buf, s2c(ackStart+int64(i), iss+1+uint32((i+1)*mss), uint16(i)))
		default:
			return buf, false
		}
		step++
		return buf, true
	})
}

// ContinuedInCrowd is a pcap of one connection (10.9.9.9:5555 to
// 192.0.2.80:80: handshake and a data segment) that falls silent among
// flood SYNs, more live connections than a tracker keeps for good (60,000
// over 36 s), and sends again, data and its ACK, at 40 s: a tracker
// retires it while open and continues its stream.
func ContinuedInCrowd() io.Reader {
	const cli, srv = 0x0a090909, 0xc0000250
	a := []segment{
		{us: 0, src: cli, dst: srv, sport: 5555, dport: 80, seq: 1000, flags: syn, window: 1024, ipid: 1},
		{us: 100, src: srv, dst: cli, sport: 80, dport: 5555, seq: 9000, ack: 1001, flags: syn | ack, window: 1024, ipid: 2},
		{us: 200, src: cli, dst: srv, sport: 5555, dport: 80, seq: 1001, ack: 9001, flags: ack, window: 1024, ipid: 3, payload: 100},
		{us: 300, src: srv, dst: cli, sport: 80, dport: 5555, seq: 9001, ack: 1101, flags: ack, window: 1024, ipid: 4},
	}
	later := []segment{
		{us: 40e6, src: cli, dst: srv, sport: 5555, dport: 80, seq: 1101, ack: 9001, flags: ack, window: 1024, ipid: 5, payload: 100},
		{us: 40e6 + 100, src: srv, dst: cli, sport: 80, dport: 5555, seq: 9001, ack: 1201, flags: ack, window: 1024, ipid: 6},
	}
	const flood = 60000
	i := 0
	return newStream(func(buf []byte) ([]byte, bool) {
		switch {
		case i < len(a):
			buf = appendSegment(buf, a[i])
		case i < len(a)+flood:
			k := i - len(a)
			buf = appendSegment(buf, floodSYN(k, 1000+int64(k)*600, 0x0b000000))
		case i < len(a)+flood+len(later):
			buf = appendSegment(buf, later[i-len(a)-flood])
		default:
			return buf, false
		}
		i++
		return buf, true
	})
}
