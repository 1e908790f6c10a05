package gencap

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Repeat writes copies of a classic pcap capture (Ethernet, either byte
// order, micro- or nanosecond times) one after the other, as one
// capture: issue 28's large capture, ten times the bench one. Copy k
// starts a second after copy k−1 ends, and its TCP and UDP ports from
// 10000 up are moved by k·5003 (modulo the 55,536 ports from 10000), so
// its connections are new ones rather than the first copy's again (a
// server's port below 10000, iperf3's 5201, stays); the checksums are
// updated for the new ports (RFC 1624), so they stay as right as they
// were. open is called once per copy. Only the outer Ethernet (VLAN
// tags too), IPv4 or IPv6 and TCP or UDP headers are read: a tunnel's
// inner headers, IPv6 extension headers and LLC keep their ports, so
// those connections come back in every copy; such frames are counted
// (unreached; a tunnel in UDP, as VXLAN, is not seen as one).
func Repeat(w io.Writer, copies int, open func() (io.ReadCloser, error)) (unreached int64, err error) {
	var first, last int64 // the capture's first and last times, in its unit
	bw := bufio.NewWriterSize(w, 1<<20)
	for k := range copies {
		r, err := open()
		if err != nil {
			return unreached, err
		}
		span := int64(0)
		if k > 0 {
			span = last - first
		}
		f, l, n, err := repeatCopy(bw, bufio.NewReaderSize(r, 1<<20), k, span, k == 0)
		r.Close()
		if err != nil {
			return unreached, fmt.Errorf("copy %d: %w", k, err)
		}
		if k == 0 {
			unreached = n
		}
		if k == 0 {
			first, last = f, l
		}
	}
	return unreached, bw.Flush()
}

// repeatCopy writes copy k of the capture in r: its header if head, its
// times shifted by k·(span + 1 s), its ports moved. It returns the
// capture's first and last times (in its unit) and how many IP frames
// had ports it could not reach.
func repeatCopy(w io.Writer, r io.Reader, k int, span int64, head bool) (first, last, unreached int64, err error) {
	var hdr [24]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, 0, 0, err
	}
	var bo binary.ByteOrder
	var unit int64 // sub-second units a second
	switch binary.LittleEndian.Uint32(hdr[:]) {
	case 0xa1b2c3d4:
		bo, unit = binary.LittleEndian, 1e6
	case 0xa1b23c4d:
		bo, unit = binary.LittleEndian, 1e9
	case 0xd4c3b2a1:
		bo, unit = binary.BigEndian, 1e6
	case 0x4d3cb2a1:
		bo, unit = binary.BigEndian, 1e9
	default:
		return 0, 0, 0, errors.New("not a classic pcap")
	}
	if bo.Uint32(hdr[20:])&0xffff != 1 {
		return 0, 0, 0, errors.New("not an Ethernet capture")
	}
	if head {
		if _, err := w.Write(hdr[:]); err != nil {
			return 0, 0, 0, err
		}
	}
	shift := int64(k) * (span + unit)
	move := uint16(k % 55536 * 5003 % 55536)
	rec := make([]byte, 16, 16+65535)
	for n := 0; ; n++ {
		if _, err := io.ReadFull(r, rec[:16]); err == io.EOF {
			return first, last, unreached, nil
		} else if err != nil {
			return 0, 0, 0, err
		}
		incl := bo.Uint32(rec[8:])
		if incl > 1<<18 {
			return 0, 0, 0, fmt.Errorf("record %d: %d bytes", n+1, incl)
		}
		rec = rec[:16+incl]
		if _, err := io.ReadFull(r, rec[16:]); err != nil {
			return 0, 0, 0, err
		}
		t := int64(bo.Uint32(rec[0:]))*unit + int64(bo.Uint32(rec[4:]))
		if n == 0 {
			first = t
		}
		last = max(last, t)
		t += shift
		bo.PutUint32(rec[0:], uint32(t/unit))
		bo.PutUint32(rec[4:], uint32(t%unit))
		if !movePorts(rec[16:], move) {
			unreached++
		}
		if _, err := w.Write(rec); err != nil {
			return 0, 0, 0, err
		}
	}
}

// movePorts moves the TCP or UDP ports ≥ 10000 of an Ethernet frame by
// move (within 10000–65535), updating the checksum. It reports false for
// an IP frame whose ports it cannot reach (an IPv6 extension header, an
// IP tunnel, LLC framing).
func movePorts(f []byte, move uint16) bool {
	be := binary.BigEndian
	off, et := 14, uint16(0)
	if len(f) >= 14 {
		et = be.Uint16(f[12:])
	}
	for (et == 0x8100 || et == 0x88a8 || et == 0x9100) && len(f) >= off+4 {
		et, off = be.Uint16(f[off+2:]), off+4
	}
	var proto byte
	switch {
	case et == 0x0800 && len(f) >= off+20:
		ihl := int(f[off]&0x0f) * 4
		if be.Uint16(f[off+6:])&0x1fff != 0 { // a later fragment: no ports
			return true
		}
		proto, off = f[off+9], off+ihl
	case et == 0x86dd && len(f) >= off+40:
		proto, off = f[off+6], off+40
	case et < 0x600: // an 802.3 length: LLC
		return false
	default:
		return true
	}
	var sumAt int
	switch proto {
	case 6:
		sumAt = off + 16
	case 17:
		sumAt = off + 6
	case 0, 4, 41, 43, 44, 47, 50, 51, 60, 97, 115, 137: // extension headers, IP tunnels, GRE, ESP, AH, L2TPv3, MPLS
		return false
	default:
		return true
	}
	if len(f) < sumAt+2 || move == 0 {
		return true
	}
	sum := be.Uint16(f[sumAt:])
	for _, at := range []int{off, off + 2} {
		p := be.Uint16(f[at:])
		if p < 10000 {
			continue
		}
		q := uint16(10000 + (uint32(p)-10000+uint32(move))%55536)
		be.PutUint16(f[at:], q)
		if proto == 6 || sum != 0 { // a UDP checksum of 0 is none
			sum = updateSum(sum, p, q)
			if proto == 17 && sum == 0 {
				sum = 0xffff
			}
		}
	}
	be.PutUint16(f[sumAt:], sum)
	return true
}

// updateSum is an Internet checksum after a 16-bit word of what it sums
// changed from old to new (RFC 1624, eqn. 3: HC' = ~(~HC + ~m + m')).
func updateSum(sum, old, new uint16) uint16 {
	s := uint32(^sum) + uint32(^old) + uint32(new)
	s = s&0xffff + s>>16
	s = s&0xffff + s>>16
	return ^uint16(s)
}
