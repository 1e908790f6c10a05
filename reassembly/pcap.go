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
	switch binary.LittleEndian.Uint32(h[:]) {
	case 0xa1b2c3d4:
	case 0xa1b23c4d:
		p.nano = true
	case 0xd4c3b2a1:
		p.big = true
	case 0x4d3cb2a1:
		p.big, p.nano = true, true
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
	return p, nil
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
	if p.end-p.pos < 16 {
		if err := p.fill(16); err != nil {
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
	n := 16 + int(capLen)
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
	pk.Data = p.buf[p.pos+16 : p.pos+n : p.pos+n]
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
