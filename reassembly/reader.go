package reassembly

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
	"github.com/klauspost/compress/zstd"
)

// Format is a capture file format, detected from its first bytes.
type Format string

// Capture formats.
const (
	FormatPcap   Format = "pcap"
	FormatPcapNG Format = "pcapng"
	FormatSnoop  Format = "snoop"
)

// ErrNotCapture is returned (wrapped) by NewReader for input that is not a
// capture file in any supported format.
var ErrNotCapture = errors.New("not a capture file (pcap, pcapng, snoop, or gzip/zstd of one)")

// Packet is one captured record as the reader returns it. Data is owned by
// the Reader and is only valid until the next call to Next.
type Packet struct {
	Number    int64 // 1-based record number in the file, as Wireshark's frame.number
	Time      int64 // nanoseconds since the Unix epoch
	LinkType  layers.LinkType
	Interface int // pcapng interface index, 0 otherwise
	CapLen    int // bytes captured
	WireLen   int // bytes on the wire
	Data      []byte
	// BadTime is set when the packet's timestamp is outside what
	// nanoseconds since 1970 in 64 bits hold (1678 to 2262): Time then
	// holds it modulo 2^64 ns, which keeps the differences between such
	// packets (the analysis stays tshark's) but not the date; the decoder
	// counts it, so that it is said, never silent.
	BadTime bool
	// NoTime is set on a packet the capture gives no timestamp (a pcapng
	// Simple Packet Block; Wireshark shows none): Time is then that of
	// the packet with one before it, or, when none came before, of the
	// first one after it, so that no duration or RTT spans the years to
	// 1970. The decoder counts such packets, so that it is said.
	NoTime bool
}

type packetSource interface {
	ZeroCopyReadPacketData() ([]byte, gopacket.CaptureInfo, error)
}

// Reader reads the packets of one capture. It is shaped like bufio.Scanner:
// call Next until it returns false, then Err.
type Reader struct {
	format     Format
	compressed string // "", "gzip" or "zstd"
	src        packetSource
	pcap       *pcapReader // src, when the file is a classic pcap: read without the interface
	ng         *ngReader   // when the file is a pcapng
	linkType   layers.LinkType
	pkt        Packet
	err        error
	closer     func() // releases what the reading holds; nil once called
}

const (
	magicGzip   = "\x1f\x8b"
	magicZstd   = "\x28\xb5\x2f\xfd"
	magicPcapNG = "\x0a\x0d\x0d\x0a"
	magicSnoop  = "snoop\x00\x00\x00"
	// readBufferSize (and pcapBlockSize, twice it) are kept small: larger
	// buffers read no faster and add to the peak memory (reading
	// bench.pcap: the same CPU time with 2 MiB blocks, 8 MB more peak RSS
	// as the block buffer doubles up to its size).
	readBufferSize = 128 << 10
)

// Sniff reports whether the first bytes of a file (at least 8 of them, when
// the file has that many) start a capture this package reads, possibly
// compressed.
func Sniff(head []byte) bool {
	if bytes.HasPrefix(head, []byte(magicGzip)) || bytes.HasPrefix(head, []byte(magicZstd)) {
		return true
	}
	_, ok := sniffFormat(head)
	return ok
}

func sniffFormat(head []byte) (Format, bool) {
	if len(head) < 4 {
		return "", false
	}
	switch binary.LittleEndian.Uint32(head) {
	case 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1, 0xa1b2cd34, 0x34cdb2a1:
		return FormatPcap, true
	}
	if bytes.HasPrefix(head, []byte(magicPcapNG)) {
		return FormatPcapNG, true
	}
	if bytes.HasPrefix(head, []byte(magicSnoop)) {
		return FormatSnoop, true
	}
	return "", false
}

// NewReader detects the format of r from its first bytes (decompressing
// gzip or zstd first) and reads the file header. The caller closes r.
func NewReader(r io.Reader) (*Reader, error) {
	return newReader(&window{r: r}, func() {})
}

// NewReaderAhead is NewReader, reading r ahead on a goroutine of its own
// when Go code may run on more than one core: the reading (the system
// calls' copy of the file) then runs beside the decoding. The goroutine
// ends at the end of the input, at an error, or at Close; the caller
// closes r after Close. A Read of r in progress when Close is called
// still returns to the goroutine, which then reads no more: r must bear
// that (an *os.File does; a pipe that may never be written to again
// would keep the goroutine waiting).
func NewReaderAhead(r io.Reader) (*Reader, error) {
	if !readsAhead() {
		return NewReader(r)
	}
	a := startReadAhead(r)
	return newReader(&window{ahead: a}, a.stop)
}

// newReader is NewReader from w; stop ends what w's reading holds, as
// does an error.
func newReader(w *window, stop func()) (*Reader, error) {
	rd := &Reader{closer: stop}
	if err := rd.open(w); err != nil {
		rd.Close()
		return nil, err
	}
	return rd, nil
}

// open detects the format from w's first bytes, decompressing first, and
// reads the file header.
func (rd *Reader) open(w *window) error {
	w.fill(8)
	head := w.buf[w.pos:w.end]
	switch {
	case bytes.HasPrefix(head, []byte(magicGzip)):
		zr, err := gzip.NewReader(bufio.NewReaderSize(w, readBufferSize))
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return errors.New("gzip: truncated before the capture's header (file ends inside it)")
		}
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		rd.compressed = "gzip"
		w = w.decompressed(zr, rd, nil)
	case bytes.HasPrefix(head, []byte(magicZstd)):
		w.fill(14)
		if frame := w.buf[w.pos:min(w.end, w.pos+14)]; len(frame) >= 6 {
			if z := zstdWindow(frame); z > zstdMaxWindow {
				return fmt.Errorf("zstd: the first frame needs a %d MiB window, more than the limit of %d MiB", z>>20, zstdMaxWindow>>20)
			}
		}
		// One decoding goroutine, streaming: memory is the window (capped)
		// and a few blocks, whatever the expansion.
		zr, err := zstd.NewReader(bufio.NewReaderSize(w, readBufferSize), zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxWindow(zstdMaxWindow), zstd.WithDecoderMaxMemory(zstdMaxWindow))
		if err != nil {
			return fmt.Errorf("zstd: %w", err)
		}
		rd.compressed = "zstd"
		w = w.decompressed(zstdErrors{zr}, rd, zr.Close)
	}
	err := w.fill(8)
	head = w.buf[w.pos:min(w.end, w.pos+8)]
	if err != nil && rd.compressed != "" && errors.Is(err, io.ErrUnexpectedEOF) {
		// Cut before the first 8 bytes of the capture came out (zstd's
		// first block holds up to 128 KB): no header to read.
		return fmt.Errorf("%s: truncated before the capture's header (file ends inside it)", rd.compressed)
	}
	if err != nil && len(head) == 0 {
		switch {
		case err == io.EOF:
			return fmt.Errorf("empty file: %w", ErrNotCapture)
		case rd.compressed != "":
			return fmt.Errorf("%s: %w", rd.compressed, lower(err))
		}
		return err
	}
	format, ok := sniffFormat(head)
	if !ok {
		return ErrNotCapture
	}
	rd.format = format
	switch format {
	case FormatPcap:
		pr, err := newPcapReader(w)
		if err != nil {
			return err
		}
		rd.src, rd.pcap, rd.linkType = pr, pr, pr.linkType
	case FormatPcapNG:
		nr, err := newNgReader(w)
		if err != nil {
			return err
		}
		rd.ng = nr
	case FormatSnoop:
		sr, err := pcapgo.NewSnoopReader(w)
		if err != nil {
			return fmt.Errorf("snoop header: %w", lower(err))
		}
		lt, err := sr.LinkType()
		if err != nil {
			return fmt.Errorf("snoop header: %w", lower(err))
		}
		rd.src, rd.linkType = sr, *lt
	}
	return nil
}

// zstdMaxWindow caps the window a zstd frame may ask the decoder for. The
// format allows up to 3.75 TB and the library 512 MiB by default; a 32 KB
// frame can ask for either. zstd's own command line tool decodes up to
// 128 MiB without --long.
const zstdMaxWindow = 128 << 20

// zstdWindow returns the window size a zstd frame header declares (the
// frame content size for a single-segment frame), or 0 if it cannot tell.
func zstdWindow(frame []byte) uint64 {
	if len(frame) < 6 || string(frame[:4]) != magicZstd {
		return 0
	}
	fhd := frame[4]
	if fhd&0x20 == 0 { // not single segment: a window descriptor follows
		wd := frame[5]
		base := uint64(1) << (10 + wd>>3)
		return base + base/8*uint64(wd&7)
	}
	// Single segment: the window is the frame content size, after the
	// dictionary ID.
	pos := 5 + [...]int{0, 1, 2, 4}[fhd&3]
	size := [...]int{1, 2, 4, 8}[fhd>>6]
	if len(frame) < pos+size {
		return 0
	}
	b := frame[pos : pos+size]
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b)) + 256
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// zstdErrors names the window limit when the decoder refuses a frame (a
// later one than the first, which NewReader checks itself).
type zstdErrors struct{ r io.Reader }

func (z zstdErrors) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	if err != nil && (errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded)) {
		err = fmt.Errorf("zstd: a frame needs a window above the limit of %d MiB, or is corrupt: %w", zstdMaxWindow>>20, err)
	}
	return n, err
}

// Format returns the detected capture format.
func (r *Reader) Format() Format { return r.format }

// Compression returns "gzip", "zstd" or "".
func (r *Reader) Compression() string { return r.compressed }

// Next reads the next packet. It returns false at the end of the file or on
// an error, which Err then returns.
func (r *Reader) Next() bool {
	if r.err != nil {
		return false
	}
	if r.pcap != nil {
		if err := r.pcap.next(&r.pkt); err != nil {
			r.fail(err)
			return false
		}
		return true
	}
	if r.ng != nil {
		if err := r.ng.next(&r.pkt); err != nil {
			r.fail(err)
			return false
		}
		return true
	}
	data, ci, err := r.src.ZeroCopyReadPacketData()
	if err != nil {
		r.fail(err)
		return false
	}
	p := &r.pkt
	p.Number++
	p.Time = ci.Timestamp.UnixNano()
	p.Interface = ci.InterfaceIndex
	p.CapLen = ci.CaptureLength
	p.WireLen = ci.Length
	p.Data = data
	p.LinkType = r.linkType
	return true
}

// fail ends the reading with err (io.EOF at a clean end).
func (r *Reader) fail(err error) {
	if err != io.EOF {
		n := r.pkt.Number + 1
		if r.ng != nil {
			n = r.ng.count + 1 // records Wireshark numbers are skipped
		}
		r.err = fmt.Errorf("packet %d: %w", n, describeReadError(err))
	} else {
		r.err = io.EOF
	}
	r.Close()
}

// Close releases what the reading holds (a zstd decoder, the goroutine
// reading ahead), for a reader left before its end; it is done by itself
// at the end or at an error, and may be called again. The caller still
// closes the io.Reader it gave, after Close.
func (r *Reader) Close() {
	if r.closer != nil {
		r.closer()
		r.closer = nil
	}
}

// Comments are the comments (opt_comment) of the pcapng section header
// read last: after NewReader, the first section's. Other formats have
// none.
func (r *Reader) Comments() []string {
	if r.ng == nil {
		return nil
	}
	return r.ng.comments
}

// Packet returns the packet read by the last successful Next.
func (r *Reader) Packet() *Packet { return &r.pkt }

// Err returns the error that stopped Next, or nil at a clean end of file.
func (r *Reader) Err() error {
	if r.err == io.EOF {
		return nil
	}
	return r.err
}

func describeReadError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("truncated record (file ends inside it)")
	}
	return lower(err)
}

// lower makes an error from a library read like ours: lowercase first
// letter, no trailing period.
func lower(err error) error {
	s := err.Error()
	if s == "" {
		return err
	}
	b := []byte(s)
	if b[0] >= 'A' && b[0] <= 'Z' && (len(b) < 2 || b[1] < 'A' || b[1] > 'Z') {
		b[0] += 'a' - 'A'
	}
	b = bytes.TrimSuffix(b, []byte("."))
	return &loweredError{msg: string(b), err: err}
}

type loweredError struct {
	msg string
	err error
}

func (e *loweredError) Error() string { return e.msg }
func (e *loweredError) Unwrap() error { return e.err }
