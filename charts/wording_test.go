package charts

import (
	"fmt"
	"slices"
	"testing"
)

// TestCompareLabels: alike file names are told apart by their paths as
// given (their #N kept), joined captures keep their names, one input
// named again is counted, and distinct labels stay as they are.
func TestCompareLabels(t *testing.T) {
	for _, c := range []struct {
		labels, paths, want []string
	}{
		{[]string{"run.pcap", "run.pcap"}, []string{"pep/run.pcap", "nopep/./run.pcap"}, []string{"pep/run.pcap", "nopep/run.pcap"}},
		{[]string{"run.pcap#1", "run.pcap#1"}, []string{"a/run.pcap", "b/run.pcap"}, []string{"a/run.pcap#1", "b/run.pcap#1"}},
		{[]string{"G#1", "G#1"}, []string{"G", "G"}, []string{"G#1", "G#1 (2)"}},
		{[]string{"a+b", "a+b"}, []string{"", ""}, []string{"a+b", "a+b (2)"}},
		{[]string{"x.pcap", "y.pcap"}, []string{"d/x.pcap", "e/y.pcap"}, []string{"x.pcap", "y.pcap"}},
		{[]string{"a+b", "a+b"}, nil, []string{"a+b", "a+b (2)"}}, // no paths: no panic
	} {
		got := slices.Clone(c.labels)
		compareLabels(got, c.paths)
		if !slices.Equal(got, c.want) {
			t.Errorf("compareLabels(%q, %q) = %q, want %q", c.labels, c.paths, got, c.want)
		}
	}
}

// TestCompareSeries: the labels given name the inputs, one each, each
// its own; without, the inputs' names made distinct.
func TestCompareSeries(t *testing.T) {
	names, paths := []string{"run.pcap", "run.pcap"}, []string{"a/run.pcap", "b/run.pcap"}
	for _, c := range []struct {
		given []string
		want  string
	}{
		{nil, "[a/run.pcap b/run.pcap] <nil>"},
		{[]string{"PEP", "no PEP"}, "[PEP no PEP] <nil>"},
		{[]string{"PEP"}, "[] --label: 1 label for 2 inputs (want one per input, in order)"},
		{[]string{"PEP", "PEP"}, `[] --label "PEP" names two inputs: give each its own`},
	} {
		series, err := CompareSeries(c.given, names, paths)
		if got := fmt.Sprint(series, " ", err); got != c.want {
			t.Errorf("CompareSeries(%q) = %s, want %s", c.given, got, c.want)
		}
	}
	if names[0] != "run.pcap" {
		t.Errorf("CompareSeries changed the names given: %q", names)
	}
}
