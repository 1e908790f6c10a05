package charts

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// checkNumberText compares the fast number text with strconv's for v.
func checkNumberText(t *testing.T, v uint64, f float64, p int) {
	t.Helper()
	if got, want := string(appendUint([]byte("x"), v)), "x"+strconv.FormatUint(v, 10); got != want {
		t.Fatalf("appendUint(%d) = %q, want %q", v, got, want)
	}
	if got, want := string(appendInt(nil, int64(v))), strconv.FormatInt(int64(v), 10); got != want {
		t.Fatalf("appendInt(%d) = %q, want %q", int64(v), got, want)
	}
	if got, want := string(appendFloatFixed([]byte("x"), f, p)), "x"+strconv.FormatFloat(f, 'f', p, 64); got != want {
		t.Fatalf("appendFloatFixed(%v, %d) = %q, want %q", f, p, got, want)
	}
}

// TestNumberTextAsStrconv: the CSV writer's numbers are strconv's, at
// every digit count's edges, for times in milliseconds (nanoseconds/1e6,
// packets' ack_rtt_ms) and for random values.
func TestNumberTextAsStrconv(t *testing.T) {
	for _, v := range []uint64{0, 1, 9, 10, 99, 100, math.MaxInt64, math.MaxInt64 + 1, math.MaxUint64} {
		checkNumberText(t, v, float64(v), 6)
	}
	for n := 1; n < 20; n++ {
		for _, v := range []uint64{pow10[n] - 1, pow10[n], pow10[n] + 1} {
			checkNumberText(t, v, float64(v)/1e6, 6)
		}
	}
	for _, f := range []float64{0, math.Copysign(0, -1), -1e-9, -0.5, 0.0000005, 0.0000015, 0.0000025, 1.0000005, 0.1 + 0.2,
		1 << 52, 1 << 60, 4.5e9, 4.5e15, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64} {
		for p := -1; p <= 12; p++ {
			checkNumberText(t, 7, f, p)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200_000 {
		v := rng.Uint64() >> rng.IntN(64)
		ns := int64(rng.Uint64() >> (1 + rng.IntN(63)))
		checkNumberText(t, v, float64(ns)/1e6, 6)
		checkNumberText(t, v, rng.Float64()*math.Pow(10, float64(rng.IntN(30)-10)), rng.IntN(11))
	}
}

// FuzzNumberText: the same, for any value and precision.
func FuzzNumberText(f *testing.F) {
	f.Add(uint64(12345), int64(123456789), 0.25, 6)
	f.Fuzz(func(t *testing.T, v uint64, ns int64, x float64, p int) {
		p = p%12 - 1
		checkNumberText(t, v, float64(ns)/1e6, 6)
		checkNumberText(t, v, x, p)
		checkNumberText(t, v, float64(ns)/math.Pow(10, float64(p+1)), p)
	})
}

// BenchmarkAppendNumbers writes a packets row's numbers: a frame number,
// two times' nine decimals, relative sequence numbers, a window.
func BenchmarkAppendNumbers(b *testing.B) {
	buf := make([]byte, 0, 256)
	for i := range b.N {
		v := uint64(i)
		buf = appendUint(buf[:0], 3_000_000+v)
		buf = appendFixed(buf, 123_456_789+v%1000, 9)
		buf = appendFixed(buf, 987_654_321-v%1000, 9)
		buf = appendUint(buf, 1_234_567_890+v*1448)
		buf = appendUint(buf, 65535+v%7)
		buf = appendFloatFixed(buf, float64(12_345_678+v%1000)/1e6, 6)
	}
}
