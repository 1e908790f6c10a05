package charts

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// The number text of the tables' fast paths: what strconv writes, byte
// for byte (digits_test.go compares them), without strconv's buffer and
// copy per number. A packets table writes about ten numbers a row.

// digitPairs are 00 to 99.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// pow10 are 10^0 to 10^19.
var pow10 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// decimalDigits is how many digits v > 0 has.
func decimalDigits(v uint64) int {
	n := (bits.Len64(v) * 1233) >> 12 // ⌊log10(2^len)⌋ or one less
	if v >= pow10[n] {
		n++
	}
	return n
}

// appendUint appends v as strconv.AppendUint(dst, v, 10) does.
func appendUint(dst []byte, v uint64) []byte {
	if v < 10 {
		return append(dst, byte('0'+v))
	}
	return appendFixed(dst, v, decimalDigits(v))
}

// appendInt appends v as strconv.AppendInt(dst, v, 10) does.
func appendInt(dst []byte, v int64) []byte {
	if v < 0 {
		return appendUint(append(dst, '-'), -uint64(v))
	}
	return appendUint(dst, uint64(v))
}

// appendFixed appends the n last decimal digits of v, zeros first where
// v has fewer (v < 10^n: v itself).
func appendFixed(dst []byte, v uint64, n int) []byte {
	dst = slices.Grow(dst, n)
	l := len(dst)
	dst = dst[:l+n]
	b := dst[l:]
	i := n
	// Four digits a step: the two pairs of a step are independent of
	// each other, and the steps' chain of divisions half as long as one
	// pair a step.
	for i >= 4 {
		q := v / 10000
		r := uint32(v - q*10000)
		hi, lo := r/100, r%100
		b[i-4], b[i-3] = digitPairs[2*hi], digitPairs[2*hi+1]
		b[i-2], b[i-1] = digitPairs[2*lo], digitPairs[2*lo+1]
		v, i = q, i-4
	}
	if i >= 2 {
		q := v / 100
		d := v - q*100
		b[i-2], b[i-1] = digitPairs[2*d], digitPairs[2*d+1]
		v, i = q, i-2
	}
	if i == 1 {
		b[0] = byte('0' + v%10)
	}
	return dst
}

// appendNine appends v < 1e9 as nine digits.
func appendNine(dst []byte, v uint32) []byte { return appendFixed(dst, uint64(v), 9) }

// appendDigits appends v (0 ≤ v < 10^n) as n decimal digits.
func appendDigits(dst []byte, v, n int) []byte { return appendFixed(dst, uint64(v), n) }

// appendFloatFixed appends v with p decimals, as strconv.AppendFloat(dst,
// v, 'f', p, 64) does. Where v is the double nearest to k/10^p for an
// integer k of fewer than 53 bits (a time in nanoseconds shown in
// milliseconds is), that text is k's digits with a point: v is then
// within half a unit in its last place of k/10^p, and that unit is below
// 10^-p, so rounding v to p decimals gives k/10^p. Other values go to
// strconv.
func appendFloatFixed(dst []byte, v float64, p int) []byte {
	if p < 1 || p > 9 || !(v >= 0) || math.Signbit(v) {
		return strconv.AppendFloat(dst, v, 'f', p, 64)
	}
	scale := float64(pow10[p])
	s := v * scale
	if s >= 1<<52 {
		return strconv.AppendFloat(dst, v, 'f', p, 64)
	}
	k := uint64(math.Round(s))
	if float64(k)/scale != v {
		return strconv.AppendFloat(dst, v, 'f', p, 64)
	}
	dst = append(appendUint(dst, k/pow10[p]), '.')
	return appendFixed(dst, k%pow10[p], p)
}
