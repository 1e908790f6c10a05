package units

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Values of flags: each reads the text given (Set, as Go's flag.Value)
// and shows the value it holds (String).

// IntValue is an integer within [Min, Max], typed as a Count (8e6, and
// the suffixes k, M, G).
type IntValue struct {
	V, Min, Max int64
}

func (f *IntValue) Set(s string) error {
	v, err := Count(s)
	if errors.Is(err, ErrTooLarge) {
		return fmt.Errorf("%q is out of range (want %d to %d)", s, f.Min, f.Max)
	}
	if err != nil {
		return err
	}
	if v < f.Min || v > f.Max {
		return fmt.Errorf("%d is out of range (want %d to %d)", v, f.Min, f.Max)
	}
	f.V = v
	return nil
}

func (f *IntValue) String() string { return strconv.FormatInt(f.V, 10) }

// SecondsValue is a time, typed as Seconds (1.5, 1.5s, 600ms, 2m), within
// ±Max; Pos: it must be positive.
type SecondsValue struct {
	NS  int64
	Max time.Duration
	Pos bool
}

func (f *SecondsValue) Set(s string) error {
	ns, err := Seconds(s, f.Max, f.Pos)
	if err != nil {
		return err
	}
	f.NS = ns
	return nil
}

func (f *SecondsValue) String() string { return time.Duration(f.NS).String() }

// NumberValue is a real number, typed as a Number: 1500, 2.5, 1.5k, 8M,
// 2G (×1000).
//
// Range, if set, says what the flag takes: a number beyond Number's
// bounds is refused with its words (--font-size 9223372036854775807 said
// "want -1e18 to 1e18" of a flag that takes 4 to 40, found by a tester).
type NumberValue struct {
	V     float64
	Range func(float64) error
}

func (f *NumberValue) Set(s string) error {
	v, err := Number(s)
	if errors.Is(err, ErrOutOfRange) && f.Range != nil {
		if rerr := f.Range(math.Inf(1)); rerr != nil {
			return fmt.Errorf("%q is %w", s, rerr)
		}
	}
	if err != nil {
		return err
	}
	f.V = v
	return nil
}

func (f *NumberValue) String() string { return strconv.FormatFloat(f.V, 'g', -1, 64) }

// WindowValue is an averaging window, typed as a Window: a time (1s,
// 200ms, or seconds, NS), or a multiple of the connection's median
// round-trip time (rtt, 4rtt: RTTs).
type WindowValue struct {
	NS   int64
	RTTs float64
}

func (f *WindowValue) Set(s string) error {
	ns, rtts, err := Window(s)
	if err != nil {
		return err
	}
	f.NS, f.RTTs = ns, rtts
	return nil
}

func (f *WindowValue) String() string {
	if f.RTTs > 0 {
		return strconv.FormatFloat(f.RTTs, 'g', -1, 64) + "rtt"
	}
	return time.Duration(f.NS).String()
}

// ListValue is a repeatable list of values, each read by parse and shown
// by format; a value may list several, separated by commas. A value given
// again (in any spelling: 1s and 1000ms) is kept once, where it came
// first: each is a column of its own.
type ListValue[T comparable] struct {
	Vs     []T
	parse  func(string) (T, error)
	format func(T) string
}

// Durations are positive times, typed as Seconds: 1s,5s,500ms.
func Durations() *ListValue[int64] {
	return &ListValue[int64]{
		parse:  func(s string) (int64, error) { return Seconds(s, MaxSeconds, true) },
		format: func(ns int64) string { return time.Duration(ns).String() }}
}

// Sizes are positive amounts of bytes, typed as a Size: 1MiB, 500KB,
// 64KiB, 1e6 (KB, MB, GB and k, M, G are ×1000; KiB, MiB, GiB ×1024).
func Sizes() *ListValue[int64] {
	return &ListValue[int64]{parse: Size, format: func(n int64) string { return strconv.FormatInt(n, 10) }}
}

func (f *ListValue[T]) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		v, err := f.parse(p)
		if err != nil {
			return err
		}
		if !slices.Contains(f.Vs, v) {
			f.Vs = append(f.Vs, v)
		}
	}
	return nil
}

func (f *ListValue[T]) String() string {
	var out []string
	for _, v := range f.Vs {
		out = append(out, f.format(v))
	}
	return strings.Join(out, ",")
}
