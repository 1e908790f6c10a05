package analyze

import (
	"encoding/binary"
	"math"
)

// packedPoints holds a long series' points packed, in about a quarter of
// their memory, for a caller that keeps every point of several graphs and
// draws them one at a time (LoadOptions.Pack, Graph.Unpack): each point
// as varints of its differences from the one before — frame, time, and
// each value that is a whole number — and a value that is not as its
// eight bytes. Unpacked, the points are the same, bit for bit.
//
// The bytes are kept in chunks, each twice the one before up to
// packChunkMax, every point whole in one: a long series grows without
// copying what it holds (a buffer grown by doubling was copied and
// cleared again at each step, 0.17 s of the bench capture's report).
type packedPoints struct {
	full        [][]byte // the chunks filled
	buf         []byte   // the chunk being filled
	n           int
	frame, time int64    // the last point's
	whole       [3]int64 // the last whole number of each value
}

// packThinned is how many points a thinned series holds for them to be
// packed (LoadOptions.Pack): a picture's thinned series has a few per
// column of pixels, and the busiest connections' dozens of them do add
// up.
const packThinned = 1024

// wholeValue is v as an integer if it is a whole number an int64 holds
// exactly (not −0, whose sign would be lost).
func wholeValue(v float64) (int64, bool) {
	if v != math.Trunc(v) || math.Abs(v) > 1<<53 || v == 0 && math.Signbit(v) {
		return 0, false
	}
	return int64(v), true
}

// maxPackedPoint is the most bytes one point takes packed: two varints
// and, for each value, a varint or a byte and eight.
const maxPackedPoint = 5 * binary.MaxVarintLen64

func (pk *packedPoints) add(p Point) {
	// Room for the whole point first, then written in place: one check
	// of the buffer's capacity per point, not one per byte.
	b := pk.buf
	if cap(b)-len(b) < maxPackedPoint {
		size := packChunkMin
		if b != nil {
			pk.full = append(pk.full, b)
			size = min(2*cap(b), packChunkMax)
		}
		b = make([]byte, 0, size)
	}
	n, w := len(b), b[:cap(b)]
	n += binary.PutVarint(w[n:], p.Frame-pk.frame)
	n += binary.PutVarint(w[n:], p.Time-pk.time)
	for i, v := range p.V {
		if x, ok := wholeValue(v); ok {
			// The lowest bit tells a whole number (0) from eight bytes (1).
			d := x - pk.whole[i]
			n += binary.PutUvarint(w[n:], uint64(d<<1^d>>63)<<1)
			pk.whole[i] = x
		} else {
			w[n] = 1
			binary.LittleEndian.PutUint64(w[n+1:], math.Float64bits(v))
			n += 9
		}
	}
	pk.buf, pk.frame, pk.time = w[:n], p.Frame, p.Time
	pk.n++
}

// packChunkMin and packChunkMax bound the size of packedPoints' chunks.
const (
	packChunkMin = 8 * maxPackedPoint
	packChunkMax = 256 << 10
)

// size is the bytes the points take packed.
func (pk *packedPoints) size() int {
	n := len(pk.buf)
	for _, b := range pk.full {
		n += len(b)
	}
	return n
}

// each calls f with every point, in order.
func (pk *packedPoints) each(f func(Point)) {
	var (
		p     Point
		whole [3]int64
	)
	for c := 0; c <= len(pk.full); c++ {
		b := pk.buf
		if c < len(pk.full) {
			b = pk.full[c]
		}
		p, whole = eachPacked(b, p, whole, f)
	}
}

// eachPacked calls f with every point of chunk b, where p was the point
// before it and whole the last whole numbers; it returns the last ones.
func eachPacked(b []byte, p Point, whole [3]int64, f func(Point)) (Point, [3]int64) {
	for i := 0; i < len(b); {
		// The frame, the time and the three values, each a varint: most
		// are small differences of one byte, read here, the others by
		// binary.Uvarint.
		for k := range 5 {
			var u uint64
			if c := b[i]; c < 0x80 {
				u = uint64(c)
				i++
			} else {
				v, n := binary.Uvarint(b[i:])
				u = v
				i += n
			}
			switch {
			case k == 0:
				p.Frame += int64(u>>1) ^ -int64(u&1)
			case k == 1:
				p.Time += int64(u>>1) ^ -int64(u&1)
			case u&1 == 0:
				u >>= 1
				whole[k-2] += int64(u>>1) ^ -int64(u&1)
				p.V[k-2] = float64(whole[k-2])
			default:
				p.V[k-2] = math.Float64frombits(binary.LittleEndian.Uint64(b[i:]))
				i += 8
			}
		}
		f(p)
	}
	return p, whole
}

// appendTo appends the points to dst.
func (pk *packedPoints) appendTo(dst []Point) []Point {
	if cap(dst)-len(dst) < pk.n {
		dst = append(make([]Point, 0, len(dst)+pk.n), dst...)
	}
	pk.each(func(p Point) { dst = append(dst, p) })
	return dst
}

// filter is the points keep keeps, packed.
func (pk *packedPoints) filter(keep func(Point) bool) *packedPoints {
	out := &packedPoints{}
	pk.each(func(p Point) {
		if keep(p) {
			out.add(p)
		}
	})
	return out
}

// unpack puts the series' packed points, if any, in Points.
func (s *Series) unpack() {
	if s.packed != nil {
		s.Points, s.packed = s.packed.appendTo(s.Points), nil
	}
}

// each calls f with every point of the series, packed or not.
func (s *Series) each(f func(Point)) {
	for _, p := range s.Points {
		f(p)
	}
	if s.packed != nil {
		s.packed.each(f)
	}
}

// size is how many points the series has, packed or not.
func (s *Series) size() int {
	n := len(s.Points)
	if s.packed != nil {
		n += s.packed.n
	}
	return n
}

// Unpack puts the points Load kept packed (LoadOptions.Pack) in their
// series' Points: a graph is drawn, written and counted from Points.
func (g *Graph) Unpack() {
	for i := range g.Series {
		g.Series[i].unpack()
	}
}
