package charts

import (
	"errors"
	"fmt"
	"testing"
)

// TestHideSeries: --hide names series, a value whole (a label with a
// comma) or as a list; a name of no series, or hiding every one, is
// refused.
func TestHideSeries(t *testing.T) {
	valid := []string{"data", "ack", "PEP, 85 KB"}
	for _, c := range []struct {
		raw  []string
		want string
	}{
		{nil, "[] <nil>"},
		{[]string{"data, ack"}, "[data ack] <nil>"},
		{[]string{" PEP, 85 KB "}, "[PEP, 85 KB] <nil>"},
		{[]string{"data,bogus"}, `[] --hide "bogus": no such series in this graph (want data, ack or PEP, 85 KB)`},
		{[]string{"data", "ack,PEP, 85 KB"}, `[] --hide "PEP": no such series in this graph (want data, ack or PEP, 85 KB)`},
		{[]string{"data,ack", "PEP, 85 KB"}, "[] --hide: every series of this graph hidden (data, ack, PEP, 85 KB): nothing left to draw"},
	} {
		hide, err := HideSeries(c.raw, valid)
		if got := fmt.Sprint(hide, " ", err); got != c.want {
			t.Errorf("HideSeries(%q) = %s, want %s", c.raw, got, c.want)
		}
	}
}

// TestWhyNoACKs: a graph of ACKs of a main flow that came out UDP says
// how to draw a TCP connection's; another error is left as it is.
func TestWhyNoACKs(t *testing.T) {
	for _, c := range []struct {
		err      error
		filtered bool
		want     string
	}{
		{ErrNoACKs, false, "has no ACKs (the capture's main flow; --proto tcp draws the busiest TCP connection's)"},
		{fmt.Errorf("stream 3: %w", ErrNoACKs), true, "stream 3: has no ACKs (the busiest flow --filter matches; add 'and tcp' to it for a TCP connection's)"},
		{errors.New("damaged"), true, "damaged"},
		{nil, false, "<nil>"},
	} {
		err := WhyNoACKs(c.err, c.filtered)
		if fmt.Sprint(err) != c.want || c.err != nil && !errors.Is(err, c.err) {
			t.Errorf("WhyNoACKs(%v): %v, want %s", c.err, err, c.want)
		}
	}
}
