package reassembly

import (
	"encoding/binary"
	"fmt"
	"io"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// maxRecordLen bounds the captured length a pcap record may claim before
// the file is considered corrupt; Wireshark's limit for most link types is
// 256 KiB, larger snapshot lengths in the file header raise it.
const (
	maxRecordLen     = 256 << 10
	maxRecordLenHard = 16 << 20
)

// pcapReader reads classic libpcap files. gopacket's pcapgo.Reader refuses
// files libpcap and Wireshark read: version 2.2 and older, whose record
// headers have the captured and original lengths swapped, and records whose
// captured length exceeds the original one. This reader follows libpcap
// (sf-pcap.c) there.
//
// Records are read in large blocks into one buffer and handed out as slices
// of it (no copy, no allocation per record); byte order is a flag rather
// than a binary.ByteOrder interface, and timestamps stay integers.
type pcapReader struct {
	*window
	big      bool // big-endian headers
	nano     bool
	swapLens bool // pre-2.3 record header: caplen and len swapped
	// extra: the bytes a variant's record header has after the standard
	// 16 (pcapVariants), skipped.
	extra    int
	minor    uint16
	snaplen  uint32
	maxLen   int
	linkType layers.LinkType
}

func newPcapReader(w *window) (*pcapReader, error) {
	if err := w.fill(24); err != nil {
		return nil, fmt.Errorf("pcap header: truncated file header")
	}
	h := w.buf[w.pos : w.pos+24]
	w.pos += 24
	p := &pcapReader{window: w}
	modified := false
	switch binary.LittleEndian.Uint32(h[:]) {
	case 0xa1b2c3d4:
	case 0xa1b23c4d:
		p.nano = true
	case 0xd4c3b2a1:
		p.big = true
	case 0x4d3cb2a1:
		p.big, p.nano = true, true
	case 0xa1b2cd34:
		modified = true
	case 0x34cdb2a1:
		p.big, modified = true, true
	default:
		return nil, ErrNotCapture
	}
	major, minor := p.u16(h[4:]), p.u16(h[6:])
	if major != 2 || minor > 4 {
		return nil, fmt.Errorf("pcap header: unsupported version %d.%d", major, minor)
	}
	p.minor = minor
	p.swapLens = minor < 3
	p.snaplen = p.u32(h[16:])
	// The upper bits of the link-type word hold FCS information.
	p.linkType = layers.LinkType(p.u32(h[20:]) & 0xffff)
	p.maxLen = maxRecordLen
	if int64(p.snaplen) > maxRecordLen {
		p.maxLen = int(min(int64(p.snaplen), maxRecordLenHard))
	}
	if !p.nano {
		p.extra = p.variant(modified)
	}
	return p, nil
}

// pcapVariants are the lengths beyond the standard 16 bytes of the record
// headers of the patched libpcaps whose files wiretap reads too, in the
// order it tries them: with the standard magic, none (libpcap), 8 (Red Hat
// 6.1's, SS990417) and 4 (Nokia IPSO's); with Alexey Kuznetsov's modified
// magic 0xa1b2cd34, 8 (SS991029: interface index, protocol, packet type)
// and 12 (SuSE 6.3's, SS990915).
var pcapVariants = [2][]int{{0, 8, 4}, {8, 12}}

// pcapTryRecords: how many records from the first a variant is judged
// on, as wiretap's libpcap_try judges it.
const pcapTryRecords = 3

// variant is the record header's extra length of the file's variant:
// of those its magic allows, the first whose first records read with
// fewest signs of a wrong guess (oddRecords), as wiretap picks. A file of
// the standard magic whose first records read as libpcap's keeps it, so
// that a damaged record further on stays one.
func (p *pcapReader) variant(modified bool) int {
	vs := pcapVariants[0]
	if modified {
		vs = pcapVariants[1]
	}
	best, fewest := vs[0], -1
	for _, extra := range vs {
		odd := p.oddRecords(extra)
		if fewest < 0 || odd < fewest {
			best, fewest = extra, odd
		}
		if odd == 0 {
			break
		}
	}
	return best
}

// oddRecords counts the signs that the first records are not records
// with extra bytes after the standard header, as wiretap's
// libpcap_try_record counts them: a microsecond field of a second or
// more; a captured length beyond the maximum (the last record tried),
// beyond the snapshot length or above the original length; an original
// length beyond 128 MiB; extra fields out of their range (the patched
// headers' interface index above 10,000, an Ethernet type none of
// Linux's, a packet type above 4; Nokia's four bytes not of the form
// 0x[9b]fbf[bd][69]0[12]); a file that ends inside a record.
func (p *pcapReader) oddRecords(extra int) int {
	odd, off := 0, 0 // off: the record's start, from p.pos (fill may move the buffer)
	for range pcapTryRecords {
		if err := p.fill(off + 16 + extra); err != nil && p.end-p.pos < off+16+extra {
			if p.end-p.pos > off {
				odd++ // a partial header
			}
			break
		}
		h := p.buf[p.pos+off : p.pos+off+16+extra]
		usec, capLen, wire := p.u32(h[4:]), p.u32(h[8:]), p.u32(h[12:])
		if p.swapLens {
			capLen, wire = wire, capLen
		}
		bad := []bool{usec >= 1e6, capLen > uint32(p.maxLen), capLen > p.snaplen, wire > 128<<20, capLen > wire}
		switch extra {
		case 8, 12: // interface index, Ethernet type, packet type
			proto := p.u16(h[20:])
			bad = append(bad, p.u32(h[16:]) > 10000,
				!(proto >= 0x600 || proto <= 0x17 || proto == 0x60 || proto == 0x200 || proto == 0x400), h[22] > 4)
		case 4:
			ns := p.u32(h[16:])
			bad = append(bad, !(ns&0x0fff00f0 == 0x0fbf0000 && (ns>>28 == 9 || ns>>28 == 0xb) &&
				(ns>>12&15 == 0xb || ns>>12&15 == 0xd) && (ns>>8&15 == 6 || ns>>8&15 == 9) && (ns&15 == 1 || ns&15 == 2)))
		}
		for _, b := range bad {
			if b {
				odd++
			}
		}
		if capLen > uint32(p.maxLen) {
			break
		}
		off += 16 + extra + int(capLen)
		if err := p.fill(off); err != nil && p.end-p.pos < off {
			odd++ // the file ends in the record
			break
		}
	}
	return odd
}

func (p *pcapReader) u16(b []byte) uint16 { return byteOrder(p.big).u16(b) }
func (p *pcapReader) u32(b []byte) uint32 { return byteOrder(p.big).u32(b) }

// byteOrder reads a capture's header fields: big-endian when true. The
// one definition for pcap's and pcapng's readers.
type byteOrder bool

func (big byteOrder) u16(b []byte) uint16 {
	if big {
		return binary.BigEndian.Uint16(b)
	}
	return binary.LittleEndian.Uint16(b)
}

func (big byteOrder) u32(b []byte) uint32 {
	if big {
		return binary.BigEndian.Uint32(b)
	}
	return binary.LittleEndian.Uint32(b)
}

func (big byteOrder) u64(b []byte) uint64 {
	if big {
		return binary.BigEndian.Uint64(b)
	}
	return binary.LittleEndian.Uint64(b)
}

// next reads the next record into pk: its data (valid until the next
// call), its timestamp in nanoseconds since the epoch, its lengths and
// link type; its number counts on. On an error pk is unchanged.
func (p *pcapReader) next(pk *Packet) error {
	hl := 16 + p.extra
	if p.end-p.pos < hl {
		if err := p.fill(hl); err != nil {
			if (p.end > p.pos && err == io.EOF) || err == io.ErrUnexpectedEOF {
				return fmt.Errorf("truncated record header (file ends inside it)")
			}
			return err
		}
	}
	h := p.buf[p.pos : p.pos+16]
	var sec, frac, capLen, wire uint32
	if p.big {
		sec, frac = binary.BigEndian.Uint32(h[0:]), binary.BigEndian.Uint32(h[4:])
		capLen, wire = binary.BigEndian.Uint32(h[8:]), binary.BigEndian.Uint32(h[12:])
	} else {
		sec, frac = binary.LittleEndian.Uint32(h[0:]), binary.LittleEndian.Uint32(h[4:])
		capLen, wire = binary.LittleEndian.Uint32(h[8:]), binary.LittleEndian.Uint32(h[12:])
	}
	if p.swapLens || (p.minor == 3 && capLen > wire) {
		capLen, wire = wire, capLen
	}
	// Both fit: 2^32 seconds in nanoseconds is below 2^63, as is the
	// largest fraction a record can claim in microseconds.
	ts := int64(sec)*1e9 + int64(frac)
	if !p.nano {
		ts = int64(sec)*1e9 + int64(frac)*1000
	}
	if int64(capLen) > int64(p.maxLen) {
		return fmt.Errorf("record claims %d captured bytes, more than the maximum of %d: the file is corrupt", capLen, p.maxLen)
	}
	wire = max(wire, capLen)
	n := hl + int(capLen)
	if p.end-p.pos < n {
		if err := p.fill(n); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
	}
	pk.Number++
	pk.Time = ts
	pk.CapLen, pk.WireLen = int(capLen), int(wire)
	pk.Data = p.buf[p.pos+hl : p.pos+n : p.pos+n]
	pk.LinkType = p.linkType
	p.pos += n
	return nil
}

// ZeroCopyReadPacketData returns the next record as gopacket's readers do;
// its data is valid until the next call.
func (p *pcapReader) ZeroCopyReadPacketData() ([]byte, gopacket.CaptureInfo, error) {
	var ci gopacket.CaptureInfo
	var pk Packet
	if err := p.next(&pk); err != nil {
		return nil, ci, err
	}
	ci.Timestamp = time.Unix(0, pk.Time).UTC()
	ci.CaptureLength, ci.Length = pk.CapLen, pk.WireLen
	return pk.Data, ci, nil
}
