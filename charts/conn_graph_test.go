package charts

import (
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
