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
// (sf-pcap.c) there, and otherwise behaves like pcapgo's zero-copy path.
type pcapReader struct {
	r        io.Reader
	bo       binary.ByteOrder
	nano     bool
	swapLens bool // pre-2.3 record header: caplen and len swapped
	minor    uint16
	snaplen  uint32
	linkType layers.LinkType
	hdr      [16]byte
	buf      []byte
}

func newPcapReader(r io.Reader) (*pcapReader, error) {
	var h [24]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, fmt.Errorf("pcap header: truncated file header")
	}
	p := &pcapReader{r: r}
	switch binary.LittleEndian.Uint32(h[:]) {
	case 0xa1b2c3d4:
		p.bo = binary.LittleEndian
	case 0xa1b23c4d:
		p.bo, p.nano = binary.LittleEndian, true
	case 0xd4c3b2a1:
		p.bo = binary.BigEndian
	case 0x4d3cb2a1:
		p.bo, p.nano = binary.BigEndian, true
	default:
		return nil, ErrNotCapture
	}
	major, minor := p.bo.Uint16(h[4:]), p.bo.Uint16(h[6:])
	if major != 2 || minor > 4 {
		return nil, fmt.Errorf("pcap header: unsupported version %d.%d", major, minor)
	}
	p.minor = minor
	p.swapLens = minor < 3
	p.snaplen = p.bo.Uint32(h[16:])
	// The upper bits of the link-type word hold FCS information.
	p.linkType = layers.LinkType(p.bo.Uint32(h[20:]) & 0xffff)
	return p, nil
}

func (p *pcapReader) maxLen() int {
	if int64(p.snaplen) > maxRecordLen {
		return int(min(int64(p.snaplen), maxRecordLenHard))
	}
	return maxRecordLen
}

// ZeroCopyReadPacketData returns the next record; its data is valid until
// the next call.
func (p *pcapReader) ZeroCopyReadPacketData() ([]byte, gopacket.CaptureInfo, error) {
	var ci gopacket.CaptureInfo
	if _, err := io.ReadFull(p.r, p.hdr[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return nil, ci, fmt.Errorf("truncated record header (file ends inside it)")
		}
		return nil, ci, err
	}
	sec := int64(p.bo.Uint32(p.hdr[0:]))
	frac := int64(p.bo.Uint32(p.hdr[4:]))
	capLen := p.bo.Uint32(p.hdr[8:])
	wireLen := p.bo.Uint32(p.hdr[12:])
	if p.swapLens || (p.minor == 3 && capLen > wireLen) {
		capLen, wireLen = wireLen, capLen
	}
	if !p.nano {
		frac *= 1000
	}
	ci.Timestamp = time.Unix(sec, frac).UTC()
	if int64(capLen) > int64(p.maxLen()) {
		return nil, ci, fmt.Errorf("record claims %d captured bytes, more than the maximum of %d: the file is corrupt", capLen, p.maxLen())
	}
	if wireLen < capLen {
		wireLen = capLen
	}
	ci.CaptureLength, ci.Length = int(capLen), int(wireLen)
	if cap(p.buf) < int(capLen) {
		p.buf = make([]byte, max(int(capLen), 2048, int(min(p.snaplen, 65536))))
	}
	data := p.buf[:capLen]
	if _, err := io.ReadFull(p.r, data); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, ci, err
	}
	return data, ci, nil
}
