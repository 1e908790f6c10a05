// Package words says counts, lists and rates in English, the same way in the
// engine's sentences (diagnoses, errors) and in the commands' messages.
package words

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Plural formats a count with a noun: "1 packet", "2 packets".
func Plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}

// Or joins words as "a, b or c".
func Or(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// BitRate says bit/s for people: "2.1 Mbit/s", "850 kbit/s". It is the
// one bit-rate format of tcpviz's text (diagnoses, reports, tables).
func BitRate(bps float64) string {
	switch {
	case bps >= 1e9:
		return fmt.Sprintf("%.1f Gbit/s", bps/1e9)
	case bps >= 1e6:
		return fmt.Sprintf("%.1f Mbit/s", bps/1e6)
	default:
		return fmt.Sprintf("%.0f kbit/s", bps/1e3)
	}
}

// Duration writes ns as "1 s", "602.4 ms", "12.5 µs", "800 ns".
func Duration(ns int64) string {
	switch {
	case ns >= 1e9:
		return strconv.FormatFloat(float64(ns)/1e9, 'f', -1, 64) + " s"
	case ns >= 1e6:
		return strconv.FormatFloat(math.Round(float64(ns)/1e5)/10, 'f', -1, 64) + " ms"
	case ns >= 1e3:
		return strconv.FormatFloat(math.Round(float64(ns)/1e2)/10, 'f', -1, 64) + " µs"
	}
	return strconv.FormatInt(ns, 10) + " ns"
}

// LongDuration writes ns as Duration does up to a day, in days up to two
// years, in years beyond (a wild timestamp's step).
func LongDuration(ns int64) string {
	const day = 86400e9
	switch {
	case ns < day:
		return Duration(ns)
	case ns < 730*day:
		return strconv.FormatFloat(float64(ns)/day, 'f', 1, 64) + " days"
	}
	return strconv.FormatFloat(float64(ns)/(365.25*day), 'f', 1, 64) + " years"
}
