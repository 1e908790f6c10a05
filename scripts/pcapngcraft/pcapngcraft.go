// Package pcapngcraft writes pcapng files block by block, for crafted test
// captures (scripts/pcapng-times writes testdata/pcapng with it; the
// reassembly tests build in-memory variants): any byte order, any block,
// any option, lengths as given (also inconsistent ones), and a short TCP
// transfer to put in them.
package pcapngcraft

import (
	"encoding/binary"
	"math/big"
)

// Block types and option codes (pcapng draft, section 4 and 3.5).
const (
	BlockSHB = 0x0a0d0d0a
	BlockIDB = 0x00000001
	BlockPB  = 0x00000002 // obsolete Packet Block
	BlockSPB = 0x00000003
	BlockNRB = 0x00000004
	BlockISB = 0x00000005
	BlockEPB = 0x00000006
	BlockDSB = 0x0000000a
	BlockCB  = 0x00000bad // custom block, may be copied

	OptEnd      = 0
	OptComment  = 1
	OptSnapLen  = 0 // (no option: the snap length is an IDB field)
	OptTSResol  = 9
	OptTSOffset = 14
)

// File is a pcapng file being written.
type File struct {
	b   []byte
	big bool // byte order of the current section
}

// Bytes returns the file written so far.
func (f *File) Bytes() []byte { return f.b }

// Option is one option: code, value (padded when written).
type Option struct {
	Code  uint16
	Value []byte
}

func (f *File) order() binary.AppendByteOrder {
	if f.big {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// U16, U32, U64 encode a value in the current section's byte order (for
// option values).
func (f *File) U16(v uint16) []byte { return f.order().AppendUint16(nil, v) }
func (f *File) U32(v uint32) []byte { return f.order().AppendUint32(nil, v) }
func (f *File) U64(v uint64) []byte { return f.order().AppendUint64(nil, v) }

// TSResol is an if_tsresol option.
func TSResol(r byte) Option { return Option{OptTSResol, []byte{r}} }

// TSOffset is an if_tsoffset option of the current section's byte order.
func (f *File) TSOffset(sec int64) Option { return Option{OptTSOffset, f.U64(uint64(sec))} }

func (f *File) options(body []byte, opts []Option) []byte {
	if len(opts) == 0 {
		return body
	}
	o := f.order()
	for _, op := range opts {
		body = o.AppendUint16(body, op.Code)
		body = o.AppendUint16(body, uint16(len(op.Value)))
		body = append(body, op.Value...)
		for len(body)%4 != 0 {
			body = append(body, 0)
		}
	}
	return o.AppendUint32(body, 0) // opt_endofopt
}

// Block writes a block of type typ around body (padded to 4 bytes), both
// lengths the block's.
func (f *File) Block(typ uint32, body []byte) {
	for len(body)%4 != 0 {
		body = append(body, 0)
	}
	n := uint32(12 + len(body))
	o := f.order()
	f.b = o.AppendUint32(f.b, typ)
	f.b = o.AppendUint32(f.b, n)
	f.b = append(f.b, body...)
	f.b = o.AppendUint32(f.b, n)
}

// Section starts a section (a Section Header Block, version 1.0, section
// length unknown) in the given byte order.
func (f *File) Section(big bool, opts ...Option) {
	f.big = big
	o := f.order()
	body := o.AppendUint32(nil, 0x1a2b3c4d)
	body = o.AppendUint16(body, 1)
	body = o.AppendUint16(body, 0)
	body = o.AppendUint64(body, ^uint64(0))
	f.Block(BlockSHB, f.options(body, opts))
}

// Interface writes an Interface Description Block.
func (f *File) Interface(link uint16, snaplen uint32, opts ...Option) {
	o := f.order()
	body := o.AppendUint16(nil, link)
	body = o.AppendUint16(body, 0)
	body = o.AppendUint32(body, snaplen)
	f.Block(BlockIDB, f.options(body, opts))
}

// EPB writes an Enhanced Packet Block: data is what was captured (its
// length the captured length), wire the original length.
func (f *File) EPB(iface uint32, ts uint64, wire uint32, data []byte, opts ...Option) {
	f.EPBLen(iface, ts, uint32(len(data)), wire, data, opts...)
}

// EPBLen is EPB with the captured length field given.
func (f *File) EPBLen(iface uint32, ts uint64, capLen, wire uint32, data []byte, opts ...Option) {
	o := f.order()
	body := o.AppendUint32(nil, iface)
	body = o.AppendUint32(body, uint32(ts>>32))
	body = o.AppendUint32(body, uint32(ts))
	body = o.AppendUint32(body, capLen)
	body = o.AppendUint32(body, wire)
	body = append(body, data...)
	for len(body)%4 != 0 {
		body = append(body, 0)
	}
	f.Block(BlockEPB, f.options(body, opts))
}

// SPB writes a Simple Packet Block (no interface, no time: interface 0).
func (f *File) SPB(wire uint32, data []byte) {
	f.Block(BlockSPB, append(f.U32(wire), data...))
}

// PB writes an obsolete Packet Block.
func (f *File) PB(iface, drops uint16, ts uint64, wire uint32, data []byte, opts ...Option) {
	o := f.order()
	body := o.AppendUint16(nil, iface)
	body = o.AppendUint16(body, drops)
	body = o.AppendUint32(body, uint32(ts>>32))
	body = o.AppendUint32(body, uint32(ts))
	body = o.AppendUint32(body, uint32(len(data)))
	body = o.AppendUint32(body, wire)
	body = append(body, data...)
	for len(body)%4 != 0 {
		body = append(body, 0)
	}
	f.Block(BlockPB, f.options(body, opts))
}

// ISB writes an Interface Statistics Block with no options.
func (f *File) ISB(iface uint32, ts uint64) {
	o := f.order()
	body := o.AppendUint32(nil, iface)
	body = o.AppendUint32(body, uint32(ts>>32))
	body = o.AppendUint32(body, uint32(ts))
	f.Block(BlockISB, body)
}

// NRB writes a Name Resolution Block with one IPv4 record.
func (f *File) NRB(addr [4]byte, name string) {
	o := f.order()
	rec := append(addr[:], append([]byte(name), 0)...)
	body := o.AppendUint16(nil, 1)
	body = o.AppendUint16(body, uint16(len(rec)))
	body = append(body, rec...)
	for len(body)%4 != 0 {
		body = append(body, 0)
	}
	body = o.AppendUint32(body, 0) // nrb_record_end
	f.Block(BlockNRB, body)
}

// UnitsPerSecond is how many timestamp units a second holds for an
// if_tsresol value, as Wireshark 4.0 reads it (wiretap/pcapng.c): 2^e or
// 10^e, and 2^64-1 for exponents it cannot hold (2^64 and more, 10^20
// and more).
func UnitsPerSecond(resol byte) *big.Int {
	e := uint(resol & 0x7f)
	if resol&0x80 != 0 {
		if e < 64 {
			return new(big.Int).Lsh(big.NewInt(1), e)
		}
	} else if e < 20 {
		return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil)
	}
	return new(big.Int).SetUint64(^uint64(0))
}

// Ticks is the timestamp of ns nanoseconds since the epoch in units of
// the resolution, rounded down, modulo 2^64.
func Ticks(ns int64, resol byte) uint64 {
	t := new(big.Int).Mul(big.NewInt(ns), UnitsPerSecond(resol))
	t.Div(t, big.NewInt(1e9))
	return new(big.Int).And(t, new(big.Int).SetUint64(^uint64(0))).Uint64()
}
