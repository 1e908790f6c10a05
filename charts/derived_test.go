package charts

import (
	"fmt"
	"strings"
	"testing"
)

// TestDerivedBases: each input's derived names start with its capture's
// base, or its name as given where two would share one; one capture
// named twice is refused, but for streams given apart when the names
// hold the stream.
func TestDerivedBases(t *testing.T) {
	x, y := Named{Name: "a/x.pcap.gz", Path: "a/x.pcap.gz"}, Named{Name: "b/x.pcap", Path: "b/x.pcap"}
	s0, s1 := Named{Name: "x.pcap", Path: "x.pcap", HasStream: true}, Named{Name: "x.pcap", Path: "x.pcap", Stream: 1, HasStream: true}
	joined := Named{Name: "c.pcap+d.pcapng", Path: "c.pcap", Joined: []string{"d.pcapng"}}
	for _, c := range []struct {
		ins         []Named
		streamNamed bool
		want        string
	}{
		{[]Named{x, {Name: "-"}, joined}, false, "[x stdin c+d]"},
		{[]Named{x, y}, false, "[a_x.pcap.gz b_x.pcap]"},
		{[]Named{s0, s1}, true, "[x x]"},
		{[]Named{s0, s1}, false, "error: x.pcap#0 and x.pcap#1 would write the same output names: name each capture once"},
		{[]Named{y, y}, true, "error: b/x.pcap and b/x.pcap would write the same output names"},
		{[]Named{y, {Name: "b/x.pcap", Path: "b/x.pcap", Failed: true}}, true, "[x x]"},
	} {
		bases, err := DerivedBases(c.ins, c.streamNamed)
		got := fmt.Sprint(bases)
		if err != nil {
			got = "error: " + err.Error()
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%v (streamNamed %v): %s, want %s", c.ins, c.streamNamed, got, c.want)
		}
	}
}

// TestPartitionNames: a partition per input, by its base and a hash of
// its absolute path; CAPTURE#N and CAPTURE#udpN apart from the whole
// capture; one input named twice refused.
func TestPartitionNames(t *testing.T) {
	whole := Named{Name: "x.pcap", Path: "x.pcap", Abs: "/d/x.pcap"}
	s2 := whole
	s2.Stream, s2.HasStream = 2, true
	udp := Named{Name: "x.pcap#udp3", Path: "x.pcap", Abs: "/d/x.pcap", UDP: true, UDPFlow: 3}
	names, err := PartitionNames([]Named{whole, s2, udp})
	want := []string{PartitionName("x", "/d/x.pcap"), PartitionName("x-s2", "/d/x.pcap#2"), PartitionName("x-udp3", "/d/x.pcap#udp3")}
	if err != nil || fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("%v, %v; want %v", names, err, want)
	}
	if _, err := PartitionNames([]Named{s2, s2}); fmt.Sprint(err) != "x.pcap#2 and x.pcap#2 would write the same partition: name each capture once" {
		t.Errorf("one input twice: %v", err)
	}
}
