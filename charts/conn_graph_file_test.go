package charts

import (
	"testing"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// TestConnGraphFile: a derived graph file name is the capture's, the
// graph's stem (with the RTT's sampling when not the default) and the
// stream, a UDP flow's as udpN.
func TestConnGraphFile(t *testing.T) {
	spec := func(cmd string) analyze.GraphSpec {
		s := analyze.Graphs(cmd)
		if len(s) == 0 {
			t.Fatalf("no graph command %q", cmd)
		}
		return s[0]
	}
	ts := analyze.GraphParams{Sampling: analyze.SampleTimestamps}
	tcp := &analyze.Loaded{Conn: &reassembly.Conn{Stream: 3}}
	udp := &analyze.Loaded{Conn: &reassembly.Conn{Stream: 2}, UDP: true}
	for _, c := range []struct {
		q    analyze.GraphRequest
		l    *analyze.Loaded
		want string
	}{
		{analyze.GraphRequest{Spec: spec("seq")}, tcp, "geo-seq-s3.png"},
		{analyze.GraphRequest{Spec: spec("rtt")}, tcp, "geo-rtt-s3.png"},
		{analyze.GraphRequest{Spec: spec("rtt"), Params: ts}, tcp, "geo-rtt-timestamps-s3.png"},
		{analyze.GraphRequest{Spec: spec("tput")}, udp, "geo-tput-udp2.png"},
	} {
		if got := ConnGraphFile("geo", c.q, c.l); got != c.want {
			t.Errorf("%s: %s, want %s", c.want, got, c.want)
		}
	}
}
