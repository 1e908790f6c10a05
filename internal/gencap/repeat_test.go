package gencap

import (
	"bytes"
	"encoding/binary"
	"io"
	"slices"
	"testing"
)

// inetSum is the Internet checksum of the pseudo-header and segment of
// an IPv4 packet at ip (0 when right).
func inetSum(ip []byte) uint16 {
	be := binary.BigEndian
	ihl := int(ip[0]&0x0f) * 4
	seg := ip[ihl:be.Uint16(ip[2:])]
	var s uint32
	add := func(b []byte) {
		for len(b) >= 2 {
			s += uint32(be.Uint16(b))
			b = b[2:]
		}
		if len(b) == 1 {
			s += uint32(b[0]) << 8
		}
	}
	add(ip[12:20])
	s += uint32(ip[9]) + uint32(len(seg))
	add(seg)
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

// frame4 is an Ethernet IPv4 frame of proto from sport to dport with a
// payload, its checksum right.
func frame4(proto byte, sport, dport uint16, payload string) []byte {
	be := binary.BigEndian
	l4 := 20
	if proto == 17 {
		l4 = 8
	}
	f := make([]byte, 14+20+l4+len(payload))
	be.PutUint16(f[12:], 0x0800)
	ip := f[14:]
	ip[0], ip[8], ip[9] = 0x45, 64, proto
	be.PutUint16(ip[2:], uint16(20+l4+len(payload)))
	copy(ip[12:], []byte{10, 0, 0, 1, 10, 0, 0, 2})
	be.PutUint16(ip[20:], sport)
	be.PutUint16(ip[22:], dport)
	sumAt := 20 + 16
	if proto == 6 {
		ip[20+12] = 5 << 4
	} else {
		be.PutUint16(ip[24:], uint16(8+len(payload)))
		sumAt = 20 + 6
	}
	copy(ip[20+l4:], payload)
	be.PutUint16(ip[sumAt:], inetSum(ip))
	return f
}

// TestRepeat: three copies of a capture follow each other in time, each
// with its ports ≥ 10000 moved (a server's 5201 kept) and its TCP and UDP
// checksums still right.
func TestRepeat(t *testing.T) {
	le := binary.LittleEndian
	var src bytes.Buffer
	hdr := make([]byte, 24)
	le.PutUint32(hdr, 0xa1b2c3d4)
	le.PutUint32(hdr[16:], 65535)
	le.PutUint32(hdr[20:], 1)
	src.Write(hdr)
	frames := [][]byte{frame4(6, 45000, 5201, "hello, world"), frame4(17, 40000, 12345, "odd"), frame4(6, 5201, 45000, "")}
	for i, f := range frames {
		rec := make([]byte, 16)
		le.PutUint32(rec[0:], 1_700_000_000)
		le.PutUint32(rec[4:], uint32(100_000*i))
		le.PutUint32(rec[8:], uint32(len(f)))
		le.PutUint32(rec[12:], uint32(len(f)))
		src.Write(append(rec, f...))
	}
	var out bytes.Buffer
	unreached, err := Repeat(&out, 3, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src.Bytes())), nil })
	if err != nil || unreached != 0 {
		t.Fatal(unreached, err)
	}
	b := out.Bytes()
	if !bytes.Equal(b[:24], hdr) {
		t.Fatal("header changed")
	}
	b = b[24:]
	var times []int64
	ports := map[[2]uint16]int{}
	for n := 0; len(b) > 0; n++ {
		incl := int(le.Uint32(b[8:]))
		f := b[16 : 16+incl]
		times = append(times, int64(le.Uint32(b[0:]))*1e6+int64(le.Uint32(b[4:])))
		ip := f[14:]
		if s := inetSum(ip); s != 0 {
			t.Errorf("record %d: checksum off by %#x", n+1, s)
		}
		sp, dp := binary.BigEndian.Uint16(ip[20:]), binary.BigEndian.Uint16(ip[22:])
		if sp == 5201 || dp == 5201 {
			ports[[2]uint16{min(sp, dp), max(sp, dp)}]++
		}
		if k := n / len(frames); k == 0 && (sp != binary.BigEndian.Uint16(frames[n][14+20:]) || dp != binary.BigEndian.Uint16(frames[n][14+22:])) {
			t.Errorf("record %d of the first copy: ports %d, %d moved", n+1, sp, dp)
		}
		b = b[16+incl:]
	}
	if len(times) != 3*len(frames) {
		t.Fatalf("%d records, want %d", len(times), 3*len(frames))
	}
	for i := 1; i < len(times); i++ {
		if times[i] <= times[i-1] {
			t.Errorf("record %d at %d µs, not after %d", i+1, times[i], times[i-1])
		}
	}
	if got := times[len(frames)] - times[0]; got != 200_000+1_000_000 {
		t.Errorf("the second copy starts %d µs after the first, want 1.2 s", got)
	}
	if len(ports) != 3 {
		t.Errorf("connections to port 5201: %v, want one per copy", ports)
	}
}

// TestRepeatCountsUnreached: frames whose ports sit behind a header it
// does not read (an IPv4 tunnel, AH) are counted, plain ones not.
func TestRepeatCountsUnreached(t *testing.T) {
	plain := frame4(6, 45000, 5201, "x")
	tunnel := frame4(6, 45000, 5201, "x")
	tunnel[14+9] = 4 // IP in IP
	ah := frame4(6, 45000, 5201, "x")
	ah[14+9] = 51
	for _, c := range []struct {
		f    []byte
		want bool
	}{{plain, true}, {tunnel, false}, {ah, false}} {
		if got := movePorts(slices.Clone(c.f), 7); got != c.want {
			t.Errorf("protocol %d: movePorts = %v", c.f[14+9], got)
		}
	}
}
