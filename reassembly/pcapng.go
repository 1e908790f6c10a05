package reassembly

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/gopacket/gopacket/layers"
)

// ngReader reads pcapng files as Wireshark 4.0.17 does (wiretap/pcapng.c),
// block for block: the same records (Enhanced, Simple and obsolete Packet
// Blocks are packets; custom, Sysdig and systemd journal blocks are
// records Wireshark numbers as frames too, which are counted and
// skipped), the same timestamps to the nanosecond, the same refusals.
//
// Timestamps are converted as wiretap converts them, in 64-bit unsigned
// integers: seconds = ts / units, nanoseconds = (ts % units) * 10^9 /
// units (which wraps, as Wireshark's does, for resolutions finer than
// about 2^-34 s), then if_tsoffset seconds are added. Resolutions are
// 2^e or 10^e units a second, and 2^64-1 for exponents 64 bits do not
// hold (2^-64 and finer, 10^-20 and finer). if_tsresol and if_tsoffset
// count once: the first of each in an interface block wins.
//
// Simple Packet Blocks have no timestamp (Wireshark shows none, and
// counts them as at 1970 in its deltas). Here they take the time of the
// packet with a timestamp before them, or, when none came before, of the
// first one after them (up to maxHeld of them are held back until it
// comes); Packet.NoTime says so.
//
// A captured length above the original length is bogus; Wireshark then
// dissects what was captured (its tcp.len counts it), so WireLen is
// raised to the captured length, as libpcap's readers do. Interfaces are
// numbered within their section, as Wireshark 4.0 numbers them.
//
// Left as they are, where Wireshark does more: link-layer pseudo-headers
// (SunATM, IrDA, Bluetooth and the like, no link type tcpviz decodes),
// FCS lengths (if_fcslen, epb_flags), the host names of name resolution
// records (Wireshark refuses a name without its NUL when it resolves
// names), the fields of Netflix custom blocks (read as any custom block).
//
// Blocks are read whole into one buffer and packets handed out as slices
// of it: nothing is allocated per packet.
type ngReader struct {
	*window
	off int64 // file offset of buf[pos]

	big     bool // byte order of the current section
	ifaces  []ngIface
	count   int64 // records read (Wireshark's frame numbers), packets and others
	timed   bool  // a packet with a timestamp was read
	last    int64 // its time
	lastBad bool
	// Packets without a timestamp read before any with one, and what
	// came after them (a packet in buf, an error), handed out first.
	held     []heldPacket
	heldData []byte
	heldAt   int
	after    Packet
	afterOK  bool
	afterErr error
	gaveUp   bool // maxHeld was reached: untimed packets are at time 0 until a timed one
	// unlike is set (for the differential tests) once a block was read
	// that gopacket's reader frames otherwise: a total length that is no
	// multiple of 4 (Wireshark rounds it up, gopacket takes it as it
	// is), a simple packet block longer than its data (Wireshark reads
	// its trailer right after the data).
	unlike bool
	// comments are the current section header's opt_comment values.
	comments []string
}

// heldPacket is a packet without a timestamp kept until a packet with one
// tells its time; its data is heldData[off:off+CapLen].
type heldPacket struct {
	p   Packet
	off int
}

// Limits on what is held back: beyond them, the held packets are given
// time 0. (Variables for the tests.)
var (
	maxHeld      = 1 << 16
	maxHeldBytes = 16 << 20
)

// ngIface is an interface of the current section.
type ngIface struct {
	link    layers.LinkType
	snaplen uint32
	maxCap  uint32 // wtap_max_snaplen_for_encap
	units   uint64 // time units a second
	offset  int64  // if_tsoffset, seconds
	conv    uint8  // how units convert to nanoseconds (convMicro...)
	mul     uint64 // convMul: nanoseconds per unit
	shift   uint8  // convShift: units = 2^shift
	// What the interface block said, for the differential tests: the
	// if_tsresol that counts (-1: none), how many if_tsresol and
	// if_tsoffset options it had, and how many of the right length.
	resol             int
	resols, offsets   int
	resolLen1, offLen int
}

// Conversions of timestamps to nanoseconds.
const (
	convMicro = iota // units = 10^6
	convNano         // units = 10^9
	convMul          // units divide 10^9
	convShift        // units = 2^shift, shift <= 34: (r * 10^9) >> shift does not wrap
	convDiv          // anything else, as wiretap: ((r * 10^9) mod 2^64) / units
)

// Block types, option codes and sizes of wiretap/pcapng.c.
const (
	ngSHB        = 0x0a0d0d0a
	ngIDB        = 0x00000001
	ngPB         = 0x00000002
	ngSPB        = 0x00000003
	ngNRB        = 0x00000004
	ngISB        = 0x00000005
	ngEPB        = 0x00000006
	ngJournal    = 0x00000009
	ngDSB        = 0x0000000a
	ngSysdig     = 0x00000204
	ngSysdigV2   = 0x00000216
	ngSysdigV2L  = 0x00000221
	ngCBCopy     = 0x00000bad
	ngCBNoCopy   = 0x40000bad
	ngBOM        = 0x1a2b3c4d
	ngMinBlock   = 12
	ngMinSHB     = ngMinBlock + 16
	ngMinIDB     = ngMinBlock + 8
	ngMinEPB     = ngMinBlock + 20
	ngMinPB      = ngMinBlock + 20
	ngMinSPB     = ngMinBlock + 4
	ngMinNRB     = ngMinBlock + 4
	ngMinISB     = ngMinBlock + 12
	ngMinDSB     = ngMinBlock + 8
	ngMinCB      = ngMinBlock + 4
	ngMinSysdig  = ngMinBlock + 24
	ngMinSysdig2 = ngMinBlock + 28
	ngMinJournal = ngMinBlock + 23
	// ngMaxBlock is MAX_BLOCK_SIZE: an EPB of the largest packet any
	// link type may have (D-Bus, 128 MiB), plus 128 KiB of options.
	ngMaxBlock = ngMinEPB + 128<<20 + 131072
	ngMaxCap   = 262144 // WTAP_MAX_PACKET_SIZE_STANDARD
)

// ngError is a refusal of the file at a block, as Wireshark refuses it:
// the reason, and where the block starts.
type ngError struct {
	off int64
	msg string
}

func (e *ngError) Error() string { return fmt.Sprintf("pcapng block at byte %d: %s", e.off, e.msg) }

func (n *ngReader) fail(format string, args ...any) error {
	return &ngError{off: n.off, msg: fmt.Sprintf(format, args...)}
}

// newNgReader reads the first section header block of r.
func newNgReader(w *window) (*ngReader, error) {
	n := &ngReader{window: w}
	if err := n.fill(12); err != nil {
		return nil, errors.New("pcapng header: truncated block")
	}
	if err := n.sectionHeader(); err != nil {
		var ne *ngError
		if errors.As(err, &ne) {
			return nil, fmt.Errorf("pcapng header: %s", ne.msg)
		}
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return nil, errors.New("pcapng header: truncated block")
		}
		return nil, fmt.Errorf("pcapng header: %w", err)
	}
	return n, nil
}

// fill makes at least k bytes available in buf[pos:end]. It returns
// fewer only at the end of the input: then io.ErrUnexpectedEOF if some
// were there, the reading error (io.EOF at a clean end) otherwise.
func (n *ngReader) fill(k int) error {
	err := n.window.fill(k)
	if err == io.EOF && n.end > n.pos {
		return io.ErrUnexpectedEOF
	}
	return err
}

// skip consumes k bytes of the input without keeping them.
func (n *ngReader) skip(k int64) error {
	for k > 0 {
		if n.end == n.pos {
			if err := n.fill(1); err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return err
			}
		}
		m := min(int64(n.end-n.pos), k)
		n.pos += int(m)
		n.off += m
		k -= m
	}
	return nil
}

func (n *ngReader) u16(b []byte) uint16 { return byteOrder(n.big).u16(b) }
func (n *ngReader) u32(b []byte) uint32 { return byteOrder(n.big).u32(b) }
func (n *ngReader) u64(b []byte) uint64 { return byteOrder(n.big).u64(b) }

// round4 is ROUND_TO_4BYTE, in 32 bits as wiretap computes it (a length
// of 2^32-3 or more rounds to 0).
func round4(l uint32) uint32 { return (l + 3) &^ 3 }

// block makes the whole block at buf[pos] of total length l (rounded)
// available and returns it.
func (n *ngReader) block(l uint32) ([]byte, error) {
	if err := n.fill(int(l)); err != nil {
		return nil, err
	}
	return n.buf[n.pos : n.pos+int(l)], nil
}

// consume moves past k bytes of buf.
func (n *ngReader) consume(k int) {
	n.pos += k
	n.off += int64(k)
}

// trailer checks the block total length at b[at:] against l, as
// pcapng_read_and_check_block_trailer does.
func (n *ngReader) trailer(b []byte, at int, l uint32) error {
	if t := round4(n.u32(b[at:])); t != l {
		return n.fail("block lengths differ (%d at the start, %d at the end)", l, t)
	}
	return nil
}

// sectionHeader reads a section header block at buf[pos] (8 bytes or
// more available): a new byte order, no interfaces.
func (n *ngReader) sectionHeader() error {
	if err := n.fill(12); err != nil {
		return err
	}
	h := n.buf[n.pos:]
	switch binary.LittleEndian.Uint32(h[8:]) {
	case ngBOM:
		n.big = false
	case 0x4d3c2b1a:
		n.big = true
	default:
		return n.fail("section header with an unknown byte-order magic number 0x%08x", binary.LittleEndian.Uint32(h[8:]))
	}
	l := round4(n.u32(h[4:]))
	n.unlike = n.unlike || l != n.u32(h[4:])
	if l < ngMinSHB {
		return n.fail("section header of %d bytes, less than the minimum of %d", l, ngMinSHB)
	}
	if l > ngMaxBlock {
		return n.fail("block of %d bytes, more than the maximum of %d", l, ngMaxBlock)
	}
	if err := n.fill(16); err != nil {
		return err
	}
	h = n.buf[n.pos:]
	if major, minor := n.u16(h[12:]), n.u16(h[14:]); major != 1 || minor != 0 && minor != 2 {
		// Wireshark reads 1.0 and 1.2 (the same format).
		return n.fail("unsupported version %d.%d", major, minor)
	}
	b, err := n.block(l)
	if err != nil {
		return err
	}
	n.comments = n.comments[:0]
	if err := n.options(b[ngMinSHB-4:l-4], optSection, nil); err != nil {
		return err
	}
	if err := n.trailer(b, int(l)-4, l); err != nil {
		return err
	}
	n.consume(int(l))
	n.ifaces = n.ifaces[:0]
	return nil
}

// Option kinds (which block's options are read).
const (
	optOther = iota
	optSection
	optIDB
	optPacket
)

// options reads the options in b as pcapng_process_options does, with
// the checks Wireshark makes of each option of a block of kind k; the
// interface block's if_tsresol and if_tsoffset go to f.
func (n *ngReader) options(b []byte, kind int, f *ngIface) error {
	for len(b) > 0 {
		if len(b) < 4 {
			return n.fail("not enough data for an option header")
		}
		code, l := n.u16(b), n.u16(b[2:])
		b = b[4:]
		rl := (int(l) + 3) &^ 3
		if rl > len(b) {
			return n.fail("option %d of %d bytes runs past the end of its block", code, l)
		}
		v := b[:l]
		switch code {
		case 0: // opt_endofopt: the rest is padding
			return nil
		case 2988, 2989, 19372, 19373: // custom options
			if l < 4 {
				return n.fail("custom option of %d bytes, too short for its enterprise number", l)
			}
		default:
			if err := n.option(kind, code, v, f); err != nil {
				return err
			}
		}
		b = b[rl:]
	}
	return nil
}

func (n *ngReader) option(kind int, code uint16, v []byte, f *ngIface) error {
	l := len(v)
	switch kind {
	case optSection:
		if code == 1 { // opt_comment: UTF-8, any number of them
			n.comments = append(n.comments, string(v))
		}
	case optIDB:
		switch code {
		case 9: // if_tsresol: a uint8, the first counts
			f.resols++
			if l == 1 {
				if f.resolLen1++; f.resolLen1 == 1 {
					f.resol = int(v[0])
				}
			}
		case 14: // if_tsoffset: an int64, the first counts
			f.offsets++
			if l == 8 {
				if f.offLen++; f.offLen == 1 {
					f.offset = int64(n.u64(v))
				}
			}
		case 11: // if_filter
			if l < 1 {
				return n.fail("interface filter option of 0 bytes")
			}
		}
	case optPacket:
		switch code {
		case 2, 6: // epb_flags, epb_queue
			if l != 4 {
				return n.fail("packet option %d of %d bytes, not 4", code, l)
			}
		case 4, 5: // epb_dropcount, epb_packetid
			if l != 8 {
				return n.fail("packet option %d of %d bytes, not 8", code, l)
			}
		case 7: // epb_verdict
			if l < 1 {
				return n.fail("packet verdict option of 0 bytes")
			}
			if (v[0] == 1 || v[0] == 2) && l != 9 { // Linux eBPF TC, XDP
				return n.fail("packet verdict option of %d bytes, not 9", l)
			}
		}
	}
	return nil
}

// interfaceBlock reads an interface description block b of length l.
func (n *ngReader) interfaceBlock(b []byte, l uint32) error {
	if l < ngMinIDB {
		return n.fail("interface description block of %d bytes, less than the minimum of %d", l, ngMinIDB)
	}
	f := ngIface{link: layers.LinkType(n.u16(b[8:])), snaplen: n.u32(b[12:]), resol: -1}
	if err := n.options(b[ngMinIDB-4:l-4], optIDB, &f); err != nil {
		return err
	}
	f.maxCap = ngMaxCap
	switch f.link {
	case 231, 249, 186, 189, 220, 266: // D-Bus, USB
		f.maxCap = 128 << 20
	case 279: // EBHSCR
		f.maxCap = 8 << 20
	}
	f.units = 1e6
	if f.resol >= 0 {
		f.units = ngUnits(uint8(f.resol))
	}
	f.setConv()
	n.ifaces = append(n.ifaces, f)
	return nil
}

// ngUnits is time_units_per_second of an if_tsresol value.
func ngUnits(resol uint8) uint64 {
	e := resol & 0x7f
	if resol&0x80 != 0 {
		if e < 64 {
			return 1 << e
		}
	} else if e < 20 {
		u := uint64(1)
		for range e {
			u *= 10
		}
		return u
	}
	return math.MaxUint64
}

func (f *ngIface) setConv() {
	switch {
	case f.units == 1e6:
		f.conv = convMicro
	case f.units == 1e9:
		f.conv = convNano
	case 1e9%f.units == 0:
		f.conv, f.mul = convMul, 1e9/f.units
	case f.units&(f.units-1) == 0 && f.units <= 1<<34:
		f.conv = convShift
		for f.units>>f.shift != 1 {
			f.shift++
		}
	default:
		f.conv = convDiv
	}
}

// time converts a timestamp of interface f as wiretap does, to
// nanoseconds since 1970 (modulo 2^64) and whether they fit in 64 bits.
func (f *ngIface) time(ts uint64) (int64, bool) {
	var sec, ns uint64
	switch f.conv {
	case convMicro:
		sec, ns = ts/1e6, ts%1e6*1000
	case convNano:
		sec, ns = ts/1e9, ts%1e9
	case convMul:
		sec, ns = ts/f.units, ts%f.units*f.mul
	case convShift:
		sec, ns = ts>>f.shift, (ts&(f.units-1))*1e9>>f.shift
	default:
		sec, ns = ts/f.units, ts%f.units*1e9/f.units // wraps as wiretap's
	}
	s := int64(sec) + f.offset // time_t, as wiretap (wrapping)
	t := s*1e9 + int64(ns)
	ok := s > -9223372037 && s < 9223372036 ||
		s == 9223372036 && ns <= 854775807 || s == -9223372037 && ns >= 145224192
	return t, ok
}

// next reads the next packet into p (its number included). It returns
// io.EOF at the end of the file.
func (n *ngReader) next(p *Packet) error {
	if n.heldAt < len(n.held) || n.afterOK || n.afterErr != nil {
		return n.drain(p)
	}
	err := n.read(p)
	if err != nil && len(n.held) > 0 {
		// The file ends, or cannot be read further, before any packet
		// told the time: the held packets are at 0.
		return n.release(0, false, err, p)
	}
	return err
}

// read reads blocks up to the next packet to return.
func (n *ngReader) read(p *Packet) error {
	for {
		err := n.fill(8)
		if err != nil {
			if err == io.ErrUnexpectedEOF {
				return n.fail("truncated block header (file ends inside it)")
			}
			return err
		}
		h := n.buf[n.pos : n.pos+8]
		typ := n.u32(h)
		if typ == ngSHB {
			if err := n.sectionHeader(); err != nil {
				if ne, ok := err.(*ngError); ok {
					ne.msg = "section header: " + ne.msg
				}
				return n.truncated(err)
			}
			continue
		}
		raw := n.u32(h[4:])
		l := round4(raw)
		if l > ngMaxBlock || l < raw { // l < raw: rounded past 2^32 to 0
			l = max(l, raw) // the file's length in the message, not 0
			return n.fail("block of %d bytes, more than the maximum of %d", l, ngMaxBlock)
		}
		n.unlike = n.unlike || raw != l
		switch typ {
		case ngEPB, ngPB, ngSPB:
			ok, err := n.packet(typ, l, p)
			if err != nil {
				return n.truncated(err)
			}
			if ok {
				return nil
			}
		case ngIDB, ngISB, ngNRB:
			if l < ngMinBlock {
				return n.fail("block of %d bytes, less than the minimum of %d", l, ngMinBlock)
			}
			b, err := n.block(l)
			if err != nil {
				return n.truncated(err)
			}
			switch typ {
			case ngIDB:
				err = n.interfaceBlock(b, l)
			case ngISB:
				if l < ngMinISB {
					err = n.fail("interface statistics block of %d bytes, less than the minimum of %d", l, ngMinISB)
				} else {
					err = n.options(b[ngMinISB-4:l-4], optOther, nil)
				}
			case ngNRB:
				err = n.nameBlock(b, l)
			}
			if err == nil {
				err = n.trailer(b, int(l)-4, l)
			}
			if err != nil {
				return err
			}
			n.consume(int(l))
		default:
			if err := n.otherBlock(typ, l); err != nil {
				return n.truncated(err)
			}
		}
	}
}

// truncated words an input that ends inside a block.
func (n *ngReader) truncated(err error) error {
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return n.fail("truncated block (file ends inside it)")
	}
	return err
}

// nameBlock checks the records of a name resolution block as
// pcapng_read_name_resolution_block does, then its options.
func (n *ngReader) nameBlock(b []byte, l uint32) error {
	if l < ngMinNRB {
		return n.fail("name resolution block of %d bytes, less than the minimum of %d", l, ngMinNRB)
	}
	recs := b[8 : l-4]
	for len(recs) > 0 {
		if len(recs) < 4 {
			return n.fail("name resolution record header cut by the end of its block")
		}
		typ, rl := n.u16(recs), int(n.u16(recs[2:]))
		recs = recs[4:]
		if (rl+3)&^3 > len(recs) {
			return n.fail("name resolution record of %d bytes runs past the end of its block", rl)
		}
		if typ == 0 { // nrb_record_end: options follow the record's header
			break
		}
		if typ == 1 && rl < 4 || typ == 2 && rl < 16 {
			return n.fail("name resolution record of %d bytes, too short for its address", rl)
		}
		recs = recs[(rl+3)&^3:]
	}
	return n.options(recs, optOther, nil)
}

// otherBlock reads a block that is no packet, interface or section,
// streaming (it may be large): the records Wireshark numbers as frames
// (custom, Sysdig, systemd journal blocks) are counted, the rest skipped.
func (n *ngReader) otherBlock(typ, l uint32) error {
	record := true
	minLen := uint32(ngMinBlock)
	switch typ {
	case ngCBCopy, ngCBNoCopy:
		minLen = ngMinCB
	case ngSysdig:
		minLen = ngMinSysdig
	case ngSysdigV2, ngSysdigV2L:
		minLen = ngMinSysdig2
	case ngJournal:
		minLen = ngMinJournal
	case ngDSB:
		minLen, record = ngMinDSB, false
	default:
		record = false
	}
	if l < minLen {
		return n.fail("block of type 0x%08x of %d bytes, less than the minimum of %d", typ, l, minLen)
	}
	switch typ {
	case ngDSB:
		if err := n.fill(16); err != nil {
			return err
		}
		if sl := n.u32(n.buf[n.pos+12:]); sl > l-ngMinDSB {
			return n.fail("decryption secrets of %d bytes in a block of %d", sl, l)
		}
	case ngJournal:
		// The entry, less trailing NULs, must hold a field.
		b, err := n.block(l)
		if err != nil {
			return err
		}
		e := b[8 : l-4]
		for len(e) > 0 && e[len(e)-1] == 0 {
			e = e[:len(e)-1]
		}
		if len(e) < ngMinJournal-ngMinBlock {
			return n.fail("systemd journal entry of %d bytes, less than the minimum of %d", len(e), ngMinJournal-ngMinBlock)
		}
	}
	start := n.off
	if err := n.skip(int64(l) - 4); err != nil {
		return err
	}
	if err := n.fill(4); err != nil {
		return err
	}
	if t := round4(n.u32(n.buf[n.pos:])); t != l {
		n.off = start
		return n.fail("block lengths differ (%d at the start, %d at the end)", l, t)
	}
	n.consume(4)
	if record {
		n.count++
	}
	return nil
}

// packet reads a packet block of type typ and length l at buf[pos] into
// p, and reports whether p is to be returned (a packet without a
// timestamp read before any with one is held back instead).
func (n *ngReader) packet(typ, l uint32, p *Packet) (bool, error) {
	var iface uint32
	var ts uint64
	var capLen, wire uint32
	var b []byte
	var hdr int // bytes before the data
	switch typ {
	case ngEPB, ngPB:
		if l < ngMinEPB { // = ngMinPB
			return false, n.fail("packet block of %d bytes, less than the minimum of %d", l, ngMinEPB)
		}
		var err error
		if b, err = n.block(l); err != nil {
			return false, err
		}
		if typ == ngEPB {
			iface = n.u32(b[8:])
		} else {
			iface = uint32(n.u16(b[8:])) // then a drops count
		}
		ts = uint64(n.u32(b[12:]))<<32 | uint64(n.u32(b[16:]))
		capLen, wire = n.u32(b[20:]), n.u32(b[24:])
		hdr = 28
		if uint64(l) < uint64(ngMinEPB)+uint64(capLen)+uint64(-capLen&3) {
			return false, n.fail("packet block of %d bytes, too small for %d bytes of packet data", l, capLen)
		}
		if int(iface) >= len(n.ifaces) {
			return false, n.fail("packet of interface %d, but its section has %d", iface, len(n.ifaces))
		}
	case ngSPB:
		if l < ngMinSPB {
			return false, n.fail("simple packet block of %d bytes, less than the minimum of %d", l, ngMinSPB)
		}
		if err := n.fill(12); err != nil {
			return false, err
		}
		if len(n.ifaces) == 0 {
			return false, n.fail("simple packet block before any interface description block in its section")
		}
		wire = n.u32(n.buf[n.pos+8:])
		capLen = wire
		if s := n.ifaces[0].snaplen; s != 0 && capLen > s {
			capLen = s
		}
		if uint64(l) < uint64(ngMinSPB)+uint64(capLen)+uint64(-capLen&3) {
			return false, n.fail("simple packet block of %d bytes, too small for %d bytes of packet data", l, wire)
		}
		hdr = 12
	}
	f := &n.ifaces[iface]
	if capLen > f.maxCap {
		return false, n.fail("packet of %d captured bytes, more than the maximum of %d", capLen, f.maxCap)
	}
	pad := int(-capLen & 3)
	if typ == ngSPB {
		// Wireshark reads the trailer right after the data: a longer
		// block leaves it reading from the wrong place, as here.
		var err error
		if b, err = n.block(uint32(hdr) + capLen + uint32(pad) + 4); err != nil {
			return false, err
		}
		if err := n.trailer(b, hdr+int(capLen)+pad, l); err != nil {
			return false, err
		}
		n.unlike = n.unlike || uint32(len(b)) != l
		l = uint32(len(b))
	} else {
		if err := n.options(b[hdr+int(capLen)+pad:l-4], optPacket, nil); err != nil {
			return false, err
		}
		if err := n.trailer(b, int(l)-4, l); err != nil {
			return false, err
		}
	}
	n.count++
	p.Number = n.count
	p.Interface = int(iface)
	p.LinkType = f.link
	p.CapLen = int(capLen)
	// A captured length above the original one is bogus: Wireshark
	// dissects what was captured (its tcp.len counts it), as libpcap's
	// readers do.
	p.WireLen = int(max(wire, capLen))
	p.Data = b[hdr : hdr+int(capLen) : hdr+int(capLen)]
	n.consume(int(l))
	if typ != ngSPB {
		t, ok := f.time(ts)
		p.Time, p.BadTime, p.NoTime = t, !ok, false
		n.timed, n.last, n.lastBad = true, t, !ok
		if len(n.held) > 0 {
			n.after, n.afterOK = *p, true
			return true, n.release(t, !ok, nil, p)
		}
		return true, nil
	}
	p.NoTime = true
	if n.timed || n.gaveUp {
		p.Time, p.BadTime = n.last, n.lastBad
		return true, nil
	}
	// No time yet: hold it back until one comes.
	n.held = append(n.held, heldPacket{p: *p, off: len(n.heldData)})
	n.held[len(n.held)-1].p.Data = nil
	n.heldData = append(n.heldData, p.Data...)
	if len(n.held) >= maxHeld || len(n.heldData) >= maxHeldBytes {
		n.gaveUp = true
		return true, n.release(0, false, nil, p)
	}
	return false, nil
}

// release gives the held packets time t and returns the first of them in
// p; what comes after them is in after (or afterErr, set here to err).
func (n *ngReader) release(t int64, bad bool, err error, p *Packet) error {
	for i := range n.held {
		n.held[i].p.Time, n.held[i].p.BadTime = t, bad
	}
	n.afterErr = err
	n.heldAt = 0
	return n.drain(p)
}

// drain returns, in p, the next held packet, then what came after them.
func (n *ngReader) drain(p *Packet) error {
	if n.heldAt < len(n.held) {
		h := &n.held[n.heldAt]
		n.heldAt++
		*p = h.p
		p.Data = n.heldData[h.off : h.off+p.CapLen : h.off+p.CapLen]
		return nil
	}
	n.held, n.heldData, n.heldAt = n.held[:0], n.heldData[:0], 0
	if n.afterOK {
		*p, n.afterOK = n.after, false
		return nil
	}
	err := n.afterErr
	n.afterErr = nil
	if err == nil {
		return n.next(p)
	}
	return err
}
